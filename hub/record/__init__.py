"""The record: the append-only SQLite store of every game."""
