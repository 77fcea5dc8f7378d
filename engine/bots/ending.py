"""How a game ends at the table, as the search counts it (issue 35).

The rules end a game when a player's health reaches 0 or at a third non-response (guide 3.10).
Two players can also never end it: guide 5.1.1 breaks both battle-zone skills after three
stalled battles in a row (a defense over), but an effect that fires resets that count even
when it changes nothing, so 잔영난무 (Phantom Dance: on use, nullify the opponent's effects)
against 철벽 (Iron Wall) is a pair two players can repeat for ever. A table ends such a game
by its end-of-round procedure (ruling R-time, engine/api/at_time.py): time, the turn in
progress and up to 3 extra turns, then the larger share of one's own starting health, fewer
non-responses, a drawn game. A search that knew only health would guard for ever when ahead
and never look for the way out when level.

``Ending`` is what the search reads at a leaf (a ready node, or a finished game):

- a finished game counts 1, 0 or 1/2 (seat a's value);
- **the clock**: a table with one tells the bot how many turns are left before the at-time
  decision (``turns_left``: the turn in progress counts as one; a session works it out from
  its match clock and the extra turns, issue 38; None at a table without a clock). A leaf
  past the last of them is decided as the table will decide it, by ``engine.decide_at_time``;
  a leaf before it blends the position's value (``evaluate.value``) with the standing at
  time, more as fewer turns are left (``clock_value``): behind on the share of health, the
  bot must break through before time; ahead, running the clock out is a way to win;
- **loops**: a leaf whose position is the root's again (health, FP, every zone, tokens, the
  stalled-battle count, lasting effects; only the turn number moved) is a cycle: playing it
  again repeats it. It is counted as its end: the standing at time with a clock, a drawn game
  without one (a game nobody ends is a draw in the benches and in casual play). A seat ahead
  therefore looks for the move that changes something, and a seat behind is glad to loop;
- **the stall rule** needs nothing apart: the search plays the engine's own battles, so a
  defense over within the horizon is seen as it happens, and a stalled battle that counts
  (``stalled_battles`` rising) is not a loop, since the position changed: it is progress
  toward a defense over, which breaks the cards in both battle zones.

Pure: reads states, never changes them.
"""

import math

from engine.api.at_time import decide_at_time
from engine.bots import evaluate

# The clock's blend (``clock_value``), measured by ``python3 bench/bot.py fit-clock`` on
# search-player games of both deck sets (docs/performance.md "Search player"):
END_HAZARD = 0.0708    # the chance that a turn ends the game by the rules (a KO, a third non-response)
SHARE_SPREAD = 0.1597  # the spread (standard deviation) of one turn's change of the health-share lead


def position_key(st):
    """Everything of a position that a turn can change, bar the turn number: two positions with
    the same key play on alike (the opponent's side deck by size only: it is sampled)."""
    out = [st.priority, st.stalled_battles, st.sudden_death, repr(st.lasting)]
    for p in ("a", "b"):
        pl = st.players[p]
        out.append((pl.health, pl.fp, tuple(sorted(pl.hand)), tuple(sorted(pl.list)), len(pl.side_deck),
                    tuple(sorted(pl.break_zone)), tuple(sorted(pl.lumen_zone)), pl.ultimate, pl.ultimate_card,
                    tuple(sorted((pl.tokens or {}).items())), pl.non_responses, pl.limit_delta))
    return tuple(out)


def at_time_value(st):
    """Seat a's result if the round's procedure decided ``st`` now: 1, 0 or 1/2 (ruling R-time)."""
    w = decide_at_time(st).winner
    return 1.0 if w == "a" else 0.0 if w == "b" else 0.5


def clock_value(st, turns_left, p=None):
    """Seat a's value of ``st`` with ``turns_left`` turns (this one included, >= 1) before the
    at-time decision: the position's value ``p`` (``evaluate.value``) if the game ends by the
    rules before time, the chance of leading on health share at time if it does not. Each turn
    ends the game with chance ``END_HAZARD``, and the lead moves by ``SHARE_SPREAD`` a turn
    (a random walk: its spread grows with the square root of the turns left)."""
    if p is None:
        p = evaluate.value(st)
    pa, pb = st.players["a"], st.players["b"]
    lead = pa.health / pa.character.start_health - pb.health / pb.character.start_health
    # the normal distribution's chance that the lead stays above 0, by the logistic approximation
    # (Phi(x) ~ 1 / (1 + exp(-1.7 x))); a level share is 1/2 (non-responses decide only at time)
    at_time = 1.0 / (1.0 + math.exp(-1.7 * lead / (SHARE_SPREAD * math.sqrt(turns_left))))
    still = (1.0 - END_HAZARD) ** turns_left
    return (1.0 - still) * p + still * at_time


class Ending:
    """The end of the searched game at this table: ``turns_left`` before the at-time decision
    (None: no clock) from the root ``st`` (a state of the search's, at its root)."""

    __slots__ = ("last_turn", "root_key")

    def __init__(self, st, turns_left=None):
        if turns_left is not None and turns_left < 1:
            raise ValueError("turns_left is the turns still to play before the at-time decision, the turn in "
                             "progress included: at least 1, or None at a table without a clock (got %r)" % (turns_left,))
        self.last_turn = None if turns_left is None else st.turn + turns_left - 1
        self.root_key = position_key(st)

    def past_time(self, st):
        """Has the at-time decision come (the last turn before it has ended)?"""
        return self.last_turn is not None and st.winner is None and st.turn > self.last_turn

    def stops(self, st):
        """Does the searched game end at ``st`` (a ready node) for this table: past time, or a loop?"""
        return self.past_time(st) or position_key(st) == self.root_key

    def leaf(self, st):
        """Seat a's value of the leaf ``st`` (a ready node or a finished game)."""
        w = st.winner
        if w is not None:
            return 1.0 if w == "a" else 0.0 if w == "b" else 0.5
        if self.past_time(st):
            return at_time_value(st)
        if position_key(st) == self.root_key:
            return self.loop_value(st)
        if self.last_turn is None:
            return evaluate.value(st)
        return clock_value(st, self.last_turn - st.turn + 1)

    def loop_value(self, st):
        """A cycle back to the root's position: the standing at time with a clock, else a draw."""
        return 0.5 if self.last_turn is None else at_time_value(st)
