"""The display's versioned message stream (the page protocol, docs/display.md).

One :class:`DisplayFeed` per table keeps the display state last sent (``shown``) and its
version ``v``. At a flush it builds the state, diffs it against ``shown`` and serializes
the delta once for every client (issue 16: the whole ~15 KB state was built and
serialized at every decision; the log lines' and card entries' JSON are kept for the whole
states, not for the deltas: one ``orjson.dumps`` of a delta costs less than looking them
up); a client that connects, asks again or falls behind gets
``shown`` whole, at the same version, so the deltas after it apply. A clock message is a
version too (it changes ``timer`` and ``ready``). Everything comes from
:func:`hub.web.display.display_state`: public views only.
"""

import orjson

from hub.web import display_delta
from hub.web.display import display_state, seat_change

#: The log lines' JSON kept for the full states; pruned back to the shown lines past this.
LINE_CACHE = 100


def dumps(value):
    """Compact JSON text, UTF-8 as is (orjson: a fifth of ``json.dumps``'s instructions on
    the display's small parts, most of it the per-call set-up)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:           # a key that is not a string (json.dumps would write it as one)
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


class DisplayFeed:
    """The display state last sent to the clients, its version, and the messages."""

    def __init__(self, table):
        self.table = table
        self.v = 0
        self.shown = None          # the display state at version v (shared, read-only)
        self._body = None          # shown's JSON without the message keys, built when asked
        self._lines = {}           # id(line) -> (line, its JSON)
        self._cards = (None, {})   # (game id, {card id: '"id":{entry}'})

    def update(self, causes=()):
        """Build the display state now and return the message that brings the clients to it
        (JSON text: a delta, or the whole state when its shape changed), or None when
        nothing they see changed."""
        new = display_state(self.table)
        change = display_delta.diff(self.shown, new, self._seat_change)
        if change == {}:
            self.shown = new       # equal; the newer objects keep the next diff's ``is`` checks short
            return None
        self.shown, self._body = new, None
        self.v += 1
        cause = sorted(filter(None, set(causes)))
        if change is None:
            return self.full(cause)
        # one serialization in C for the whole message (the parts are a few hundred bytes)
        return dumps(dict(t="delta", v=self.v, base=self.v - 1, cause=cause, **change))

    def clock(self, timer, ready):
        """The once-a-second clock message, a version of its own (None before any state)."""
        if self.shown is None:
            return None
        self.shown, self._body = dict(self.shown, timer=timer, ready=ready), None
        self.v += 1
        return '{"t":"clock","v":%d,"base":%d,"timer":%s,"ready":%s}' % (self.v, self.v - 1, dumps(timer), dumps(ready))

    def _seat_change(self, old, new):
        return seat_change(self.table, old, new)

    def full(self, cause):
        """``shown`` whole as a ``state`` message at version v (a hello, a client that asked
        or fell behind). The body is serialized once per version, the log lines and card
        entries once each."""
        if self._body is None:
            d = dict(self.shown)
            log, cards = d.pop("log"), d.pop("cards")
            self._body = "%s,\"log\":[%s],\"cards\":{%s}}" % (
                dumps(d)[1:-1], ",".join(map(self._line, log)), ",".join(self._card(c, e) for c, e in cards.items()))
            self._prune()
        return '{"t":"state","v":%d,"cause":%s,%s' % (self.v, dumps(list(cause)), self._body)

    def _prune(self):
        if len(self._lines) > LINE_CACHE:        # only the lines shown now
            shown = {id(x) for x in self.shown["log"]}
            self._lines = {k: hit for k, hit in self._lines.items() if k in shown}

    def _line(self, line):
        hit = self._lines.get(id(line))
        if hit is None or hit[0] is not line:
            hit = self._lines[id(line)] = (line, dumps(line))
        return hit[1]

    def _card(self, cid, entry):
        """A card's catalogue entry as JSON: a game's entries never change."""
        gid = self.shown["game_id"]
        if self._cards[0] != gid:
            self._cards = (gid, {})
        known = self._cards[1]
        text = known.get(cid)
        if text is None:
            text = known[cid] = dumps(cid) + ":" + dumps(entry)
        return text
