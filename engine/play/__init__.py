"""The game itself: its state (state.py), the turn (turn.py), the battle order (battle.py, guide
4.4), judgments, combo and catch, breaks, zones, and card effects at work (cardfx, livefx,
conditions, windows, primitives, ordering, usable). Imports core and cards; reached from above
through engine.api."""
