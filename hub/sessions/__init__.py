"""The games at a table: referee and tracker sessions, the tracker game, the table, roster and match timer."""
