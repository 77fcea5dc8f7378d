"""Tracker mode's game: the table companion without card data (brief section 2).

Pure Python, no I/O, no clock; see :mod:`hub.sessions.tracker_game.game`.
"""

from hub.sessions.tracker_game.game import ACTIONS, TrackerGame
from hub.sessions.tracker_game.rules import NON_RESPONSE_LIMIT, SUDDEN_DEATH_HEALTH, SUDDEN_DEATH_TURNS
from hub.sessions.tracker_game.state import HEALTH_BUTTONS, SEAT_INFO, SEATS, SeatState, TrackerError
from hub.sessions.tracker_game.unit import MERGE_WINDOW_MS, UNDO_LIMIT

__all__ = ["ACTIONS", "HEALTH_BUTTONS", "MERGE_WINDOW_MS", "NON_RESPONSE_LIMIT", "SEATS", "SEAT_INFO",
           "SUDDEN_DEATH_HEALTH", "SUDDEN_DEATH_TURNS", "SeatState", "TrackerError", "TrackerGame", "UNDO_LIMIT"]
