"""The record: the append-only SQLite store of every game, and match export (docs/hub.md)."""
