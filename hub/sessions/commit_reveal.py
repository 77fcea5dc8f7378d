"""The hidden pick's commit and reveal, one way for every mode that hides a pick (a referee's
ready, a profile game's style/base or card): the pick's input carries a fresh nonce and is
stored hidden; the judge log gets, at lock time, a salted SHA-256 commitment
``H(game:seat:pick:nonce)``; the reveal's judge record names the picks it revealed (their input
seqs) with their values and nonces, so anyone can check each commitment from the record alone
(``verify``). Nothing here is sent anywhere: the session keeps the nonce until the reveal.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable, Mapping
from typing import Any, Protocol


class _Record(Protocol):
    kind: str
    seq: int
    seat: str | None
    body: dict[str, Any]


class _Store(Protocol):
    def records(self, game_id: int) -> Iterable[_Record]: ...


def new_nonce() -> str:
    """128 random bits: a commitment can't be opened by guessing the pick among a hand."""
    return secrets.token_hex(16)


def commitment(game_id: int, seat: str, pick: Any, nonce: str | None) -> str:
    """``H(game:seat:pick:nonce)`` (SHA-256, hex)."""
    return hashlib.sha256(("%s:%s:%s:%s" % (game_id, seat, pick, nonce)).encode()).hexdigest()


def lock_entry(event: str, game_id: int, seat: str, pick: Any, nonce: str | None, now_ms: int, input_seq: int,
               **extra: Any) -> dict[str, Any]:
    """The judge log's entry made when a hidden pick locks: who, when, which input, and the
    commitment (never the pick). ``event``: ``ready`` (a referee's ready) or ``pick``."""
    return dict({"event": event, "seat": seat}, **extra, mono_ms=now_ms, input_seq=input_seq,
                commitment=commitment(game_id, seat, pick, nonce))


def verify(store: _Store, game_id: int) -> list[tuple[str, bool]]:
    """Every revealed pick checked against the commitment made at its lock: ``(seat, ok)`` per
    revealed pick, in the record's order, for settling a dispute from the record alone. A pick
    whose commitment is missing from the record is ``(seat, False)``. Reads both reveal shapes:
    a referee's (``cards`` and ``nonces`` per seat) and a profile game's (``picks`` per input seq)."""
    recs = list(store.records(game_id))
    hidden_inputs = {r.seq: r.seat for r in recs if r.kind == "input" and r.body.get("kind") == "ready"}
    commits: dict[int, str | None] = {}
    for r in recs:
        b = r.body
        if r.kind != "judge" or b.get("event") not in ("ready", "pick"):
            continue
        seq = b.get("input_seq")
        if seq is None:      # written before input_seq was recorded: the seat's latest ready before it
            seq = max((q for q, seat in hidden_inputs.items() if seat == b.get("seat") and q < r.seq), default=None)
        if seq is not None:
            commits.setdefault(seq, b.get("commitment"))
    results: list[tuple[str, bool]] = []
    for r in recs:
        b = r.body
        if r.kind != "judge" or b.get("event") != "reveal":
            continue
        for pick_seq, seat, pick, nonce in _revealed(b, hidden_inputs):
            results.append((str(seat), pick_seq in commits and commitment(game_id, seat, pick, nonce) == commits[pick_seq]))
    return results


def _revealed(body: Mapping[str, Any], hidden_inputs: Mapping[int, str | None]) -> list[tuple[int, Any, Any, Any]]:
    out: list[tuple[int, Any, Any, Any]] = []
    picks = body.get("picks")
    for seq in body.get("reveals", []):
        if isinstance(picks, Mapping):                  # a profile game: each pick by its input seq
            p = picks.get(str(seq))
            if isinstance(p, Mapping) and p.get("nonce") is not None:
                out.append((seq, p.get("seat"), p.get("value"), p.get("nonce")))
            continue
        seat = hidden_inputs.get(seq)                   # a referee's ready: the seat's card and nonce
        if seat is None:
            continue
        card, nonce = body.get("cards", {}).get(seat), body.get("nonces", {}).get(seat)
        if card is not None and nonce is not None:
            out.append((seq, seat, card, nonce))
    return out
