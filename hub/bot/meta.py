"""What a game's start record says of the hub's bot and the coach (its ``meta``), checked.

Kept apart from the bot itself so that the web's routes and the command line can check a
request without importing the search (``lumen --help`` imports neither).
"""

from hub.sessions.base import SessionError

#: the bot's levels: easy is the greedy player, normal and strong search (engine/bots/search.py)
LEVELS = ("easy", "normal", "strong")


def practice_meta(bot_seat=None, level="strong", coach=None):
    """The start-record meta of a game with the hub's bot in ``bot_seat`` (or none) and the
    coach on for ``coach`` (seats; a bot's seat there shows what the bot thought). Raises
    SessionError naming what is wrong."""
    meta = {}
    if bot_seat is not None:
        if bot_seat not in ("a", "b"):
            raise SessionError("the bot's seat must be a or b, not %r" % (bot_seat,))
        if level not in LEVELS:
            raise SessionError("the bot's level must be one of %s, not %r" % (", ".join(LEVELS), level))
        meta["bot"] = {"seat": bot_seat, "level": level}
    if coach:
        seats = sorted(set(coach))
        if set(seats) - {"a", "b"}:
            raise SessionError("coached seats are a and b, not %r" % (coach,))
        meta["coach"] = seats
    return meta


def bot_of(meta):
    """(seat, level) of the bot the game's meta names, or None."""
    b = (meta or {}).get("bot")
    if not isinstance(b, dict) or b.get("seat") not in ("a", "b"):
        return None
    return b["seat"], b.get("level") if b.get("level") in LEVELS else "strong"
