"""The games at a table: the table, referee and tracker sessions and their shared base,
the tracker game, the roster, the match timer and the replay check (docs/hub.md)."""
