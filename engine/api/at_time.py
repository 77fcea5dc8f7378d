"""A timed game's end (ruling R-time, docs/rulings.md): who wins a game still undecided after
the end-of-round procedure's extra turns.

The rule texts define winning only by health reaching 0 and by the third non-response (guide
3.10), and say nothing about time. Our ruling reads those two measures, in that order:

1. the larger fraction of one's own character's starting health wins (characters start at
   4500..5500 health, so raw health would favour the bigger character);
2. equal fractions: fewer non-responses this game wins;
3. still equal: a drawn game.

A game the rules already decided keeps its winner (``decided_by == "rules"``). Pure: the state
is read, never changed; fractions are compared exactly (cross-multiplied), never as floats.

    >>> from engine import new_game, decide_at_time
    >>> from engine.cards import load_sample
    >>> cardset, decks = load_sample()
    >>> st, _ = new_game(cardset.cards, decks["serin"].as_game_deck(), decks["gangcheol"].as_game_deck(), seed=1)
    >>> st.players["a"].health -= 1000
    >>> decide_at_time(st).winner, decide_at_time(st).decided_by
    ('b', 'health_fraction')
"""

from dataclasses import dataclass
from typing import Any

from engine.core.events import ev
from engine.play.state import SEATS, GameState

RULE = "ruling R-time"
STEPS = ("rules", "health_fraction", "non_responses", "draw")


@dataclass(frozen=True)
class Standing:
    """One player's figures at time: health now, the character's starting health, non-responses."""

    health: int
    start: int
    non_responses: int

    def to_json(self) -> dict[str, int]:
        return {"health": self.health, "start": self.start, "non_responses": self.non_responses}


@dataclass(frozen=True)
class AtTime:
    """The decision: ``winner`` "a" | "b" | "draw"; ``decided_by`` one of ``STEPS``."""

    winner: str
    decided_by: str
    figures: dict[str, Standing]
    rule: str = RULE

    def to_json(self) -> dict[str, Any]:
        return {"winner": self.winner, "decided_by": self.decided_by, "rule": self.rule,
                "figures": {s: f.to_json() for s, f in self.figures.items()}}

    def event(self) -> dict[str, Any]:
        """The decision as an engine event (``at_time``), explained like any other."""
        fa, fb = self.figures["a"], self.figures["b"]
        return ev("at_time", self.rule, winner=self.winner, decided_by=self.decided_by,
                  health_a=fa.health, start_a=fa.start, health_b=fb.health, start_b=fb.start,
                  non_responses_a=fa.non_responses, non_responses_b=fb.non_responses)


def standing(state: GameState, seat: str) -> Standing:
    pl = state.players[seat]
    start = int(pl.character.start_health)
    return Standing(health=max(0, int(pl.health)), start=start, non_responses=int(pl.non_responses))


def compare_at_time(a: Standing, b: Standing) -> tuple[str, str]:
    """(winner, decided_by) between two players' figures, steps 1-3 of the ruling."""
    # a.health / a.start against b.health / b.start, exactly
    left, right = a.health * b.start, b.health * a.start
    if left != right:
        return ("a" if left > right else "b"), "health_fraction"
    if a.non_responses != b.non_responses:
        return ("a" if a.non_responses < b.non_responses else "b"), "non_responses"
    return "draw", "draw"


def decide_at_time(state: GameState) -> AtTime:
    """Who wins ``state``'s game at the end of the round's procedure (ruling R-time)."""
    figures = {s: standing(state, s) for s in SEATS}
    if state.winner is not None:
        return AtTime(winner=str(state.winner), decided_by="rules", figures=figures)
    winner, step = compare_at_time(figures["a"], figures["b"])
    return AtTime(winner=winner, decided_by=step, figures=figures)
