"""Standings with MTG's tie-breakers (Magic Tournament Rules, appendix C).

Match points: 3 a win, 1 a draw, 0 a loss; a bye is a match win, 2-0 in games.
Then, in order:
  OMW%  the average of each opponent's match-win % (match points / 3 x rounds played),
  GW%   the player's own game-win % (game points / 3 x games played),
  OGW%  the average of each opponent's game-win %,
each percentage floored at 33 % (0.33, the MTR's number) before it is used, a
bye not counting as an opponent. Dropped players stay in the standings and count
as opponents. Fractions are exact (``fractions.Fraction``) so equal records tie
exactly; the last tie-break is the player id, so the order is total and stable.

Pure: a list of players and match results in, rows out.
"""

import csv
import io
import json
from fractions import Fraction

FLOOR = Fraction(33, 100)
WIN, DRAW, LOSS = 3, 1, 0


def match_points(a_wins, b_wins):
    """Match points of the first player of a match with this game score."""
    return WIN if a_wins > b_wins else LOSS if a_wins < b_wins else DRAW


class Record:
    __slots__ = ("pid", "mp", "rounds", "gp", "games", "opponents", "w", "l", "d", "byes", "_mw", "_gw")

    def __init__(self, pid):
        self.pid = pid
        self.mp = self.rounds = self.gp = self.games = 0
        self.w = self.l = self.d = self.byes = 0
        self.opponents = []
        self._mw = self._gw = None      # worked out once, when the records are complete

    def mw(self):
        if self._mw is None:
            self._mw = max(FLOOR, Fraction(self.mp, 3 * self.rounds)) if self.rounds else FLOOR
        return self._mw

    def gw(self):
        if self._gw is None:
            self._gw = max(FLOOR, Fraction(self.gp, 3 * self.games)) if self.games else FLOOR
        return self._gw


def records(players, matches):
    """Per-player records from finished matches: each ``{a, b, a_wins, b_wins, draws}``
    with ``b`` None for a bye."""
    rec = {p: Record(p) for p in players}
    for m in matches:
        a, b = m["a"], m.get("b")
        if a not in rec or (b is not None and b not in rec):
            raise ValueError("a match names a player who is not in the event: %r" % (m,))
        if b is None:                        # a bye: a 2-0 match win, no opponent
            r = rec[a]
            r.mp += WIN
            r.rounds += 1
            r.gp += 2 * WIN
            r.games += 2
            r.w += 1
            r.byes += 1
            continue
        aw, bw, dr = int(m.get("a_wins", 0)), int(m.get("b_wins", 0)), int(m.get("draws", 0))
        for me, opp, mine, theirs in ((a, b, aw, bw), (b, a, bw, aw)):
            r = rec[me]
            pts = match_points(mine, theirs)
            r.mp += pts
            r.rounds += 1
            r.gp += WIN * mine + DRAW * dr
            r.games += mine + theirs + dr
            r.w += pts == WIN
            r.l += pts == LOSS
            r.d += pts == DRAW
            r.opponents.append(opp)
    return rec


def _avg(values):
    return sum(values, Fraction(0)) / len(values) if values else FLOOR


def standings(players, matches, dropped=(), names=None):
    """The standings, best first: a list of rows (dicts) with rank, points, the
    record and the tie-breakers as exact fractions (``to_json`` rounds them)."""
    rec = records(players, matches)
    dropped = set(dropped)
    rows = []
    for p in players:
        r = rec[p]
        opps = [rec[o] for o in r.opponents]
        rows.append({
            "player": p, "name": (names or {}).get(p, p), "points": r.mp,
            "wins": r.w, "losses": r.l, "draws": r.d, "byes": r.byes, "rounds": r.rounds,
            "omw": _avg([o.mw() for o in opps]), "gw": r.gw(), "ogw": _avg([o.gw() for o in opps]),
            "dropped": p in dropped,
        })
    rows.sort(key=lambda x: (-x["points"], -x["omw"], -x["gw"], -x["ogw"], str(x["player"])))
    for i, row in enumerate(rows, 1):
        row["rank"] = i
    return rows


def ranking(rows, active=None):
    """Player ids in standings order, only the ``active`` ones when given."""
    ids = [r["player"] for r in rows]
    return [p for p in ids if active is None or p in active]


def _pct(f):
    return round(float(f) * 100, 2)


def to_json(rows):
    """JSON-ready rows: percentages as numbers with 2 decimals (66.67 for 2/3)."""
    return [dict(r, omw=_pct(r["omw"]), gw=_pct(r["gw"]), ogw=_pct(r["ogw"])) for r in rows]


CSV_FIELDS = ["rank", "player", "name", "points", "wins", "losses", "draws", "byes", "omw", "gw", "ogw", "dropped"]


def to_csv(rows):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for r in to_json(rows):
        w.writerow(dict(r, omw="%.2f" % r["omw"], gw="%.2f" % r["gw"], ogw="%.2f" % r["ogw"],
                        dropped="yes" if r["dropped"] else ""))
    return buf.getvalue()


def dumps(rows):
    return json.dumps(to_json(rows), ensure_ascii=False, indent=1)
