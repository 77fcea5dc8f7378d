"""What a search costs, counted without a clock (the engine reads no clock; a budget is work).

A search estimates the x86-64 instructions (CPython 3.11, callgrind) it has spent from what it
did: a fixed part (the view rebuilt, the worlds drawn; at a ready, the final RM+ on the root
matrix and the explanation's battles, which grow with the matrix's cells), a part per
iteration (a world copied, a path down the tree, a leaf valued), per engine decision applied
and per engine event those decisions emitted (the engine's own work: judgments, damage, card
moves; more where cards carry effects). The coefficients are fitted by non-negative least
squares on counted searches of ready and sequential decisions, both deck sets, three sizes
(``python3 bench/bot.py calibrate``; the fit and its error are in docs/performance.md "Search
player").

A time budget becomes instructions at a core's rate. ``A53_IPS`` is the rate assumed for one
Cortex-A53 core of a Raspberry Pi Zero 2 W / Pi 3 running CPython 3.11: an estimate, not a
measurement on a Pi (docs/performance.md "The A53 figure" says how it was made).
"""

# One set of coefficients for a ready root and one for a sequential root (a get, a combo, ...):
# their work differs in kind (a ready's final RM+ and explanation grow with the root's pairs).
# Fitted by non-negative least squares on the relative error (bench/bot.py calibrate).
PARTS = ("fixed", "iteration", "apply", "event", "event_effects", "cell", "iteration_cell")
READY = {"fixed": 19.62e6, "iteration": 0.0, "apply": 114.5e3, "event": 25.94e3, "event_effects": 9.063e3,
         "cell": 401.5e3, "iteration_cell": 1.011e3}
SEQ = {"fixed": 2.307e6, "iteration": 46.1e3, "apply": 68.6e3, "event": 42.49e3, "event_effects": 5.083e3,
       "cell": 0.0, "iteration_cell": 0.0}

A53_IPS = 420e6             # instructions a second, one Cortex-A53 core, CPython 3.11: an estimate


def work(iterations, applies, events, cells=0, effects=0.0):
    """A search's work as the model's parts (``PARTS``): iterations run, engine decisions applied,
    events they emitted, a ready root's pairs, the share of the game's cards that carry effects
    (``effect_share``: an event costs more where the timing windows have cards to look at)."""
    return {"fixed": 1.0, "iteration": float(iterations), "apply": float(applies), "event": float(events),
            "event_effects": events * effects, "cell": float(cells), "iteration_cell": float(iterations * cells)}


def estimate(ready, iterations, applies, events, cells=0, effects=0.0):
    """The instructions of a search that ran ``iterations`` and applied ``applies`` engine
    decisions emitting ``events`` events, from a ready root with ``cells`` pairs (``ready``) or a
    sequential root, in a game where a share ``effects`` of the cards carry effects."""
    coef = READY if ready else SEQ
    w = work(iterations, applies, events, cells if ready else 0, effects)
    return sum(coef[k] * w[k] for k in PARTS)


def effect_share(st):
    """The share of the cards in both players' zones that carry effects (0..1)."""
    n = fx = 0
    cards = st.cards
    for pl in st.players.values():
        for zone in (pl.hand, pl.list, pl.side_deck, pl.break_zone, pl.lumen_zone, pl.battle_zone):
            for cid in zone:
                n += 1
                c = cards[cid]
                if c.fx or c.cont:
                    fx += 1
    return fx / n if n else 0.0


def instructions_for(seconds, instructions_per_second=A53_IPS):
    """The instruction budget of ``seconds`` of one core (a Cortex-A53's by default: an estimate)."""
    return seconds * instructions_per_second
