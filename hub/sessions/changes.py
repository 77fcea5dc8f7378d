"""What one decision changed, built once by the session kernel (hub/sessions/base.py ``submit``)
and handed to every listener: the change set.

A decision's transaction (validate -> snapshot -> apply -> record -> commit, or roll back)
ends in exactly one :class:`ChangeSet` published, never before the record holds the decision.
It carries the messages the decision produced, in the order they are delivered, each with its
audience: ``"public"`` (the display, the API, spectators: public views only) or a seat
(``"a"``..``"d"``: only that seat's own device, a pod's link or the seat's phone page, ever
reads it; a seat's hidden pick is in no other audience's message). Nothing in it is a record
body: the record's hidden rows (a ready's card, its nonce) are never part of a change set.

Listeners either take the messages one by one (``SessionBase.subscribe(fn(audience, msg))``,
delivered in order: the older interface, kept) or the whole change set once
(``SessionBase.subscribe_changes(fn(change))``): a listener that must send one frame per
decision (the pods, issue 36) or one message per seat (the phone seats, issue 40) reads
``change.for_audience(seat)`` and ``change.happenings`` instead of re-deriving them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

#: a message: a JSON-able mapping with its type under "t" (a seat's "you" message may be lazy:
#: hub/sessions/base.py LazyMessage builds its view when first read)
Message = dict[str, Any]


@dataclass
class ChangeSet:
    """One decision's (or one session start's) change, as every listener sees it.

    ``version``: the session's version after it (counts the changes). ``seat``/``kind``/``source``:
    the decision (None for a start or a resume). ``messages``: ``(audience, message)`` in delivery
    order. ``happenings``: what a pod signals (``("reveal",)``, ``("result", seat, ...)``,
    ``("game_over", winner)``, ...: hub/sessions/base.py ``happenings``). ``first_seq`` /
    ``last_seq``: the record rows it wrote (None when it wrote none)."""

    version: int
    seat: str | None = None
    kind: str | None = None
    source: str | None = None
    messages: list[tuple[str, Message]] = field(default_factory=list)
    happenings: list[tuple[Any, ...]] = field(default_factory=list)
    first_seq: int | None = None
    last_seq: int | None = None

    def for_audience(self, audience: str) -> list[Message]:
        """The messages for one audience ("public" or a seat), in order."""
        return [m for a, m in self.messages if a == audience]

    @property
    def public(self) -> list[Message]:
        return self.for_audience("public")

    def audiences(self) -> list[str]:
        seen: list[str] = []
        for a, _ in self.messages:
            if a not in seen:
                seen.append(a)
        return seen


@dataclass
class Step:
    """What a mode's ``_step`` hook did to its game, not yet committed: the record rows to write
    (after the caller's ``pre`` rows), the messages to send once written, the bookkeeping to take
    (mode-specific), and the value ``submit`` returns (the public events or tracker entries)."""

    records: list[tuple[Any, ...]]
    result: Any
    messages: list[tuple[str, Message]] = field(default_factory=list)
    book: Any = None
