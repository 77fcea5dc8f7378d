"""The tracker's seats and the checks every action makes before it changes anything.

Seats are ``"a"`` (1P, blue) and ``"b"`` (2P, red); a :class:`SeatState` is one
player's table state.  Bad input raises :class:`TrackerError` naming the field and
the value; the checks run before an action's change, so a refused action changes
nothing.
"""

from dataclasses import dataclass, field

from hub.sessions import roster
from hub.sessions.roster import Character, UnknownCharacter

SEATS = ("a", "b")
SEAT_INFO = {"a": {"label": "1P", "color": "blue"}, "b": {"label": "2P", "color": "red"}}
#: The calculator's health quick buttons (brief section 6); any integer is allowed.
HEALTH_BUTTONS = (-300, -400, -500, -600, 100, 200, -100, -200)


class TrackerError(ValueError):
    """An action was refused; the message names the field and the value."""


def other(seat):
    return "b" if seat == "a" else "a"


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def signed(n):
    return "%+d" % n


def ro_particle(n):
    """The Korean particle 으로/로 after the number ``n`` read aloud (칠백으로, 이로)."""
    return "으로" if abs(n) % 10 in (0, 3, 6) else "로"


@dataclass
class SeatState:
    """One player's table state.  Read it freely; change it only through actions."""

    character: str
    health: int
    fp: int = 0
    hand_count: int | None = None
    tokens: dict = field(default_factory=dict)
    stance: str | None = None
    trait_on: bool = False          # toggle traits (키메라)
    bonus_given: bool = False       # first-drop bonus already given (요한)
    non_responses: int = 0

    @classmethod
    def fresh(cls, char):
        return cls(character=char.id, health=char.start_health,
                   tokens={t.name: t.start for t in char.tokens})

    @property
    def char(self):
        return roster.get(self.character)

    def to_json(self):
        return {"character": self.character, "health": self.health, "fp": self.fp,
                "hand_count": self.hand_count, "tokens": dict(self.tokens), "stance": self.stance,
                "trait_on": self.trait_on, "bonus_given": self.bonus_given,
                "non_responses": self.non_responses}

    @classmethod
    def from_json(cls, d):
        return cls(character=d["character"], health=d["health"], fp=d["fp"],
                   hand_count=d["hand_count"], tokens=dict(d["tokens"]), stance=d["stance"],
                   trait_on=d["trait_on"], bonus_given=d["bonus_given"],
                   non_responses=d["non_responses"])


class Checks:
    """Input checks of the actions (mixed into :class:`~hub.sessions.tracker_game.TrackerGame`)."""

    @staticmethod
    def _check_new_game(priority, seed):
        if priority is not None and priority not in SEATS:
            raise TrackerError("priority must be 'a', 'b' or None (coin toss), got %r" % (priority,))
        if seed is not None and not _is_int(seed):
            raise TrackerError("seed must be an integer, got %r" % (seed,))

    @staticmethod
    def _check_ms(now_ms):
        if not _is_int(now_ms):
            raise TrackerError("now_ms must be an integer millisecond stamp, got %r" % (now_ms,))

    @staticmethod
    def _check_seat(seat):
        if seat not in SEATS:
            raise TrackerError("seat must be 'a' (1P) or 'b' (2P), got %r" % (seat,))
        return seat

    @staticmethod
    def _check_int(name, value):
        if not _is_int(value):
            raise TrackerError("%s must be an integer, got %r" % (name, value))

    @staticmethod
    def _lookup(seat, key):
        try:
            return roster.get(key)
        except UnknownCharacter:
            raise TrackerError("character for seat %s must be a roster id or Korean name, got %r"
                               % (seat, key)) from None

    def _check_character(self, seat, key):
        if isinstance(key, Character):
            key = key.id
        return self._lookup(seat, key)

    def _check_deltas(self, name, deltas):
        if deltas is None:
            return {}
        if not isinstance(deltas, dict):
            raise TrackerError("%s must map seats to integer deltas, got %r" % (name, deltas))
        for s, v in deltas.items():
            if s not in SEATS:
                raise TrackerError("%s: seat must be 'a' or 'b', got %r" % (name, s))
            if not _is_int(v):
                raise TrackerError("%s[%s] must be an integer, got %r" % (name, s, v))
        return dict(deltas)

    def _token_spec(self, seat, name):
        ch = self.character(seat)
        spec = ch.token_spec(name)
        if spec is None:
            names = ", ".join(t.name for t in ch.tokens) or "none"
            raise TrackerError("token name %r is not a counter of %s (%s); counters: %s"
                               % (name, ch.name, ch.id, names))
        return spec

    def _check_token_value(self, seat, spec, new, field_name, given):
        if new < 0 or (spec.max is not None and new > spec.max):
            bound = "0..%d" % spec.max if spec.max is not None else "0 or more"
            raise TrackerError("%s=%r would put %s at %d; it must stay %s"
                               % (field_name, given, spec.name, new, bound))
