"""What a bot may know, as a game state it can search: a seat's view (engine/api/views.py) made
playable again, with what the seat could not see filled in by sampling (ISMCTS's
determinization, Cowling, Powley and Whitehouse 2012).

A bot never reads the real state. ``seat_view`` turns the real state into the seat's view
(the hub's ``public_view``) and everything after it works from that view alone:

- the opponent's readied card, if they locked first: the view shows their hand as it was
  before the lock and the lock as "?". The rebuilt state is the ready node *before* either
  lock (both ready requests pending, asked by the engine itself from the hands), so the
  search treats the opponent's pick as the simultaneous choice it is;
- the opponent's side deck (only its size is public): sampled from the card catalogue, the
  cards the opponent could have in their deck (neutral or their character's mark, guide
  4.5.1, not the ultimate) less those already seen in their other zones, per name at most
  as many as their deck rules allow (``opponent_pool`` replaces the catalogue when the
  opponent's deck list is known, e.g. a deck the table published);
- the opponent's hidden triggers waiting in an effect window are simply absent.

What the view keeps of the engine's bookkeeping for the step in progress (the get order,
a pick after a non-response) is rebuilt from public facts (priority, the battle zones).
A position that cannot be rebuilt from the view (``Unseen``) is answered by the caller's
fallback policy, never by reading the state.
"""

from engine.api.game import advance, public_view
from engine.play.state import SEATS, GameState, other


class Unseen(Exception):
    """The view lacks something the rebuilt state would need (the caller falls back)."""


def seat_view(state, seat):
    """What ``seat`` may see of ``state`` (the hub's ``public_view``), for a bot."""
    return public_view(state, seat)


def opponent_pool(view, seat, cards, deck=None):
    """The cards the opponent of ``seat`` might hold in their side deck, as a list with
    repeats (a card id as often as it could still be there). ``deck`` (a list of ids) is
    the opponent's deck list when it is known; else the catalogue is the prior."""
    opp = other(seat)
    pl = view["players"][opp]
    ch = pl["character"]
    same_max = _same_name_max(ch)
    seen = list(pl["hand"]) + pl["list"] + pl["break_zone"] + pl["lumen_zone"]
    seen += [c for c in pl["battle_zone"] if c != "?"]
    if pl.get("ultimate_card"):
        seen.append(pl["ultimate_card"])
    left = {}
    if deck is not None:
        for cid in deck:
            left[cid] = left.get(cid, 0) + 1
    else:
        mark = ch.get("mark")
        for cid, card in cards.items():
            if card.ultimate or card.mark not in ("neutral", mark):
                continue
            left[cid] = same_max
    for cid in seen:
        if cid in left:
            left[cid] -= 1
    pool = []
    for cid, n in left.items():
        pool.extend([cid] * max(0, n))
    return pool


def _same_name_max(ch_json):
    for e in ((ch_json.get("trait") or {}).get("effects") or ()):
        if isinstance(e, dict) and e.get("do") == "deck_rule" and e.get("same_name_max"):
            return int(e["same_name_max"])
    return 1


class Rebuilt:
    """A seat's view made into a state (``base``), the opponent's side deck left to fill, and
    what the sampling draws from. ``world(rnd)`` gives one determinization (a fresh state)."""

    __slots__ = ("base", "seat", "side_n", "pool")

    def __init__(self, base, seat, side_n, pool):
        self.base = base
        self.seat = seat
        self.side_n = side_n
        self.pool = pool

    def world(self, rnd):
        st = self.base.copy()
        st.players[other(self.seat)].side_deck = sample_side_deck(self.pool, self.side_n, rnd)
        return st

    def worlds(self, rnd, count):
        """``count`` determinizations drawn together (stratified): the pool shuffled once and dealt
        round the worlds in turn, so each card of the pool sits in its share of the worlds (a card
        the pool holds once, in a side deck of n, is in n/len(pool) of them: no more, no fewer, by
        the luck of the draw). The worlds' average then moves far less with the seed than that of
        independent draws (the coach's verdict, engine/bots/onebattle.py)."""
        n = self.side_n
        pool = list(self.pool)
        rnd.shuffle(pool)
        out = []
        for w in range(count):
            st = self.base.copy()
            if n <= 0 or not pool:
                st.players[other(self.seat)].side_deck = sample_side_deck(pool, n, rnd)
            else:
                deck, k = [], w * n
                seen = {}
                while len(deck) < n:
                    cid = pool[k % len(pool)]
                    k += 1
                    # one copy per card held by the pool: a side deck never holds more copies than it
                    if seen.get(cid, 0) < pool.count(cid) or k > w * n + 2 * len(pool):
                        deck.append(cid)
                        seen[cid] = seen.get(cid, 0) + 1
                st.players[other(self.seat)].side_deck = deck
            out.append(st)
        return out


def sample_side_deck(pool, n, rnd):
    """``n`` cards drawn without replacement from ``pool`` (repeats where the pool runs out:
    the side deck's size is public, its cards must come from somewhere)."""
    if n <= 0:
        return []
    if len(pool) >= n:
        return rnd.sample(pool, n)
    out = list(pool)
    while len(out) < n and pool:
        out.append(rnd.choice(pool))
    return out


def rebuild(view, seat, cards, deck=None):
    """A ``Rebuilt`` from ``view`` (``seat_view``): the state the seat's search starts from.
    ``cards`` is the game's card table (public: every card's text is known). Raises Unseen."""
    if view["phase"] in ("setup", "over"):
        raise Unseen("phase %s" % view["phase"])
    opp = other(seat)
    d = dict(view)
    players = {}
    for p in SEATS:
        pl = dict(view["players"][p])
        pl["hand"] = list(pl["hand"])
        pl["battle_zone"] = list(pl["battle_zone"])
        if p == opp:
            pl.pop("ready_hidden", None)
            if "?" in pl["battle_zone"]:
                pl["battle_zone"] = [c for c in pl["battle_zone"] if c != "?"]   # the hand already shows it
            # the view sorts a hand whose card is locked (its order would tell which): sorted
            # always, so that a lock changes nothing the search sees
            pl["hand"] = sorted(pl["hand"])
            side_n = pl["side_deck"] if isinstance(pl["side_deck"], int) else len(pl["side_deck"])
            pl["side_deck"] = []
        players[p] = pl
    d["players"] = players
    pool = opponent_pool(view, seat, cards, deck)
    inbox = {k: v for k, v in view["inbox"].items() if v != "?"}
    pending = [r for r in view["pending"]]
    if any(isinstance(t.get("answer"), str) and t["answer"] == "?" for t in view["tasks"]):
        raise Unseen("an opponent's task answer")
    if view.get("fx") and view["fx"].get("cur") == "?":
        raise Unseen("an opponent's hidden trigger in progress")
    step = view["step"]
    mine = [r for r in pending if r["player"] == seat]
    if not mine:
        raise Unseen("nothing asked of %s" % seat)
    ready = view["phase"] == "ready" and step == "ready.resolve"
    if ready:
        # back to the ready node before any lock: the engine asks both readies again
        for p in SEATS:
            if p == seat or view["players"][p].get("ready_hidden"):
                players[p]["battle_zone"] = [c for c in players[p]["battle_zone"] if c != "?"]
        for p in SEATS:
            got = inbox.get(p)
            if got is not None and got.get("kind") in ("ready", "timeout") and not got.get("empty"):
                raise Unseen("a ready already answered by %s" % p)
        inbox = {k: v for k, v in inbox.items() if not (isinstance(v, dict) and v.get("empty"))}
        d["step"] = "ready.ask"
        pending = []
    else:
        pending = [r for r in pending if not isinstance(r["options"], int)]
        if step == "get.resolve":
            p = mine[0]["player"]
            inbox["get_order"] = [p] + ([other(p)] if p == view["priority"] else [])
        elif step == "get.ask" and view["tasks"]:
            p = view["tasks"][0].get("p")
            if p not in SEATS:
                raise Unseen("a get-phase task")
            inbox["get_order"] = [other(p)] if p == view["priority"] else []
        elif step == "ready.pick":
            order = (view["priority"], other(view["priority"]))
            picks = [other(r["player"]) for r in pending if r["kind"] == "pick"]
            cards_ = {}
            for p in order:
                if p in picks:
                    continue
                bz = view["players"][p]["battle_zone"]
                if not bz or bz[0] == "?":
                    if p != seat and bz:
                        raise Unseen("the opponent's ready before a pick")
                    cards_[p] = None
                else:
                    cards_[p] = bz[0]
            inbox["cards"] = cards_
            inbox["picks"] = [p for p in order if p in picks]
        elif view["phase"] == "get" and step.startswith("get."):
            raise Unseen("get step %s" % step)
    d["inbox"] = inbox
    d["pending"] = pending
    d["rng"] = 0
    d["decks"] = None
    d["cards"] = None
    st = GameState.from_json(d, cards)
    if ready:
        st, _ = advance(st, copy=False)      # the engine asks the readies (their legal options)
        if not any(r["player"] == seat and r["kind"] == "ready" for r in st.pending):
            raise Unseen("no ready asked of %s after the rebuild" % seat)
    return Rebuilt(st, seat, side_n, pool)
