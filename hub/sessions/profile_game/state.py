"""A profile game's seats, options and the checks every input makes before it changes
anything (a refused input changes nothing: :class:`ProfileGameError` names what was wrong).

The options a seat may pick come from its card data (a card set's character: the
players' own cards) or, with none, from the profile's own option lists. An option is a
plain dict: ``{id, part, name, name_en, priority, discard, ...}``.
"""


class ProfileGameError(ValueError):
    """An input was refused; the message names the field and the value."""


def _is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def seat_options(profile, character):
    """``{part: [option, ...]}`` for one seat: its character's cards by part, or the
    profile's options (a part's ``options``, the alternative's ``options``)."""
    out = {}
    picks = profile.picks
    if picks is None:
        return out
    parts = [p["id"] for p in picks["parts"]] + ([picks["alternative"]["part"]] if picks["alternative"] else [])
    if character is not None:
        for part in parts:
            out[part] = [dict(c) for c in character["cards"] if c["part"] == part]
        return out
    for p in picks["parts"]:
        out[p["id"]] = [dict(o, part=p["id"], name=o["name"]["ko"], name_en=o["name"]["en"]) for o in (p["options"] or [])]
    alt = picks["alternative"]
    if alt:
        out[alt["part"]] = [dict(o, part=alt["part"], name=o["name"]["ko"], name_en=o["name"]["en"])
                            for o in (alt["options"] or [])]
    return out


class Checks:
    """Input checks (mixed into :class:`~hub.sessions.profile_game.game.ProfileGame`)."""

    def _check_seat(self, seat):
        if seat not in self.seats:
            raise ProfileGameError("seat must be one of %s, not %r" % (", ".join(self.seats), seat))
        return seat

    def _check_counter(self, cid):
        c = self.profile.counter(cid)
        if c is None:
            names = ", ".join(x["id"] for x in self.profile.counters) or "none"
            raise ProfileGameError("counter %r is not one of this game's (%s)" % (cid, names))
        return c

    @staticmethod
    def _check_int(name, v, lo=-99999, hi=99999):
        if not _is_int(v) or not lo <= v <= hi:
            raise ProfileGameError("%s must be an integer %d..%d, not %r" % (name, lo, hi, v))
        return v

    @staticmethod
    def _check_ms(now_ms):
        if not _is_int(now_ms):
            raise ProfileGameError("now_ms must be an integer millisecond stamp, not %r" % (now_ms,))

    def _check_live(self, what):
        if self.st["winner"] is not None:
            raise ProfileGameError("the game is over (%s): %s refused; undo, or start the next game" %
                                   (self.st["end_reason"], what))
