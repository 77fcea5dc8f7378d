"""The engine's bottom layer: errors, events and their Korean/English text, decisions, the seeded
RNG and YAML reading with line numbers. Imports nothing else of the engine."""
