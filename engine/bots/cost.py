"""What a search costs, counted without a clock (the engine reads no clock; a budget is work).

A search estimates the x86-64 instructions (CPython 3.11, callgrind) it has spent from what it
did: a fixed part (the view rebuilt, the worlds drawn; at a ready, the final RM+ on the root
matrix and the explanation's battles, which grow with the matrix's cells), a part per
iteration (a world copied, a path down the tree, a leaf valued), per engine decision applied
and per engine event those decisions emitted (the engine's own work: judgments, damage, card
moves). The coefficients are fitted by least squares on counted searches of ready and
sequential decisions, both deck sets, several sizes (``python3 bench/bot.py calibrate``; the
fit and its error are in docs/performance.md "Search player").

A time budget becomes instructions at a core's rate. ``A53_IPS`` is the rate assumed for one
Cortex-A53 core of a Raspberry Pi Zero 2 W / Pi 3 running CPython 3.11: an estimate, not a
measurement on a Pi (docs/performance.md "The A53 figure" says how it was made).
"""

FIXED_READY = 22.4e6        # fitted: see the module's docstring
FIXED_SEQ = 2.5e6
PER_ITERATION = 95e3
PER_APPLY = 30e3
PER_EVENT = 38e3
PER_CELL = 0.35e6           # a root ready pair: final RM+ and the explanation

A53_IPS = 420e6             # instructions a second, one Cortex-A53 core, CPython 3.11: an estimate


def estimate(ready, iterations, applies, events, cells=0):
    """The instructions of a search that ran ``iterations`` and applied ``applies`` engine
    decisions emitting ``events`` events, from a ready root with ``cells`` pairs (or not)."""
    return ((FIXED_READY if ready else FIXED_SEQ) + PER_ITERATION * iterations + PER_APPLY * applies
            + PER_EVENT * events + (PER_CELL * cells if ready else 0.0))


def instructions_for(seconds, instructions_per_second=A53_IPS):
    """The instruction budget of ``seconds`` of one core (a Cortex-A53's by default: an estimate)."""
    return seconds * instructions_per_second
