"""A match score and the error an event's record refuses with: apart from the event so its
corrections (corrections.py) check a score without importing the event that applies them."""


class EventError(ValueError):
    pass


def integer_field(body, key, lo, hi):
    v = body.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise EventError("%s must be an integer %d..%d, got %r" % (key, lo, hi, v))
    return v


def check_score(body, best_of, elimination=False):
    """A match score: games won by a and b, drawn games; a best-of-N score cannot
    exceed what N games allow. An elimination match needs a winner."""
    aw = integer_field(body, "a_wins", 0, best_of)
    bw = integer_field(body, "b_wins", 0, best_of)
    dr = integer_field(body, "draws", 0, best_of)
    need = best_of // 2 + 1
    if aw > need or bw > need or (aw == need and bw == need):
        raise EventError("a best-of-%d match cannot end %d-%d" % (best_of, aw, bw))
    if elimination and aw == bw:
        raise EventError("an elimination match needs a winner: a drawn match is replayed")
    return aw, bw, dr
