"""A game played by a profile (hub/profiles/): pure Python, no I/O, no clock; see
:mod:`hub.sessions.profile_game.game`."""

from hub.sessions.profile_game.game import ANSWERS, COMMANDS, ProfileGame, public_view
from hub.sessions.profile_game.state import ProfileGameError

__all__ = ["ANSWERS", "COMMANDS", "ProfileGame", "ProfileGameError", "public_view"]
