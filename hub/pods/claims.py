"""Seat claims the judge decides (issues 11.2, 39): a device that asks for a seat another
pod holds or held is not seated until the judge confirms it.

A seat carries hidden information (a hand, a locked ready), so a device that says it is a
seated pod is never seated on its word: while that pod is connected (issue 11.2), or when
it was unplugged and the device is not on the pod's own port (issue 39: it took the seat
silently; a pod's board id is shown to the admin only, but nothing stops a device from
saying any id). The claim waits here, shown to everyone on the display (its seat and the
port, never a board id: the page is public) and to the judge with its details
(``GET /api/admin/claims``), until the judge confirms it (``POST /api/control/claims/confirm``:
the claimant takes the seat) or refuses it (``.../refuse``: it stays unseated, and asking
again with the same device changes nothing until it is unplugged).

One registry per table (``claims_of``), not per kind of claimant: the pods' links (hub/pods/
links.py) put their claims here, and so can any other way to sit at a seat (a phone's seat,
issue 40): a claimant gives its ``confirm`` and ``refuse`` callbacks, which run on the table's
thread when the judge decides (the API calls in on it).
"""

import threading

from hub.sessions.base import NotFound

#: why a claim waits for the judge: (ko, en) with {seat} and {who}
WHY = {
    "connected": ("좌석 가로채기 거부: {seat} 포드라고 하는 다른 장치({who}) — 심판 확인 필요",
                  "seat takeover refused: another device ({who}) says it is the {seat} pod — judge, please check"),
    "unplugged": ("{seat} 포드가 빠진 뒤 다른 포트의 장치({who})가 그 포드라고 합니다 — 심판이 확인해야 앉습니다",
                  "a device on another port ({who}) says it is the unplugged {seat} pod — seated only when the judge confirms"),
    "seat": ("진행 중인 게임의 {seat} 좌석을 새 장치({who})가 원합니다 — 심판이 확인해야 앉습니다",
             "a new device ({who}) asks for seat {seat} of the game in play — seated only when the judge confirms"),
}


class Claim:
    __slots__ = ("id", "seat", "kind", "who", "why", "since_ms", "detail", "confirm", "refuse")

    def __init__(self, claim_id, seat, kind, who, why, since_ms, detail, confirm, refuse):
        self.id, self.seat, self.kind, self.who, self.why = claim_id, seat, kind, who, why
        self.since_ms, self.detail, self.confirm, self.refuse = since_ms, dict(detail or {}), confirm, refuse

    def text(self):
        label = {"a": "1P", "b": "2P", "c": "3P", "d": "4P"}.get(self.seat, str(self.seat))
        ko, en = WHY.get(self.why, WHY["seat"])
        return {"ko": ko.format(seat=label, who=self.who), "en": en.format(seat=label, who=self.who)}

    def public(self):
        """What the display shows everyone: no board id."""
        return {"id": self.id, "seat": self.seat, "kind": self.kind, "who": self.who, "why": self.why,
                "since_ms": self.since_ms, "text": self.text()}

    def admin(self):
        """What the judge sees (``GET /api/admin/claims``): the claimant's details too."""
        return dict(self.public(), detail=dict(self.detail))


class SeatClaims:
    """The claims waiting for the judge at one table (thread-safe)."""

    def __init__(self, table):
        self.table = table
        self._claims = {}
        self._lock = threading.RLock()
        self.decided = []         # (claim id, "confirmed" | "refused"), for the record of the day

    def ask(self, claim_id, seat, kind, who, why, since_ms, confirm, refuse=None, detail=None):
        """A claim for ``seat`` waits for the judge (asked again: the same claim, said once).
        Returns the Claim and whether it is new."""
        with self._lock:
            old = self._claims.get(claim_id)
            if old is not None and (old.seat, old.who, old.why) == (seat, who, why):
                old.confirm, old.refuse = confirm, refuse
                return old, False
            claim = self._claims[claim_id] = Claim(claim_id, seat, kind, who, why, since_ms, detail, confirm, refuse)
        self._changed()
        return claim, True

    def withdraw(self, claim_id):
        """The claimant went away (unplugged): its claim goes with it."""
        with self._lock:
            gone = self._claims.pop(claim_id, None)
        if gone is not None:
            self._changed()
        return gone

    def confirm(self, claim_id):
        """The judge hands the seat over (on the table's thread). Raises NotFound."""
        claim = self._take(claim_id)
        self.decided.append((claim_id, "confirmed"))
        try:
            claim.confirm()
        finally:
            self._changed()
        return claim

    def refuse(self, claim_id):
        """The judge refuses: the claimant stays unseated. Raises NotFound."""
        claim = self._take(claim_id)
        self.decided.append((claim_id, "refused"))
        try:
            if claim.refuse is not None:
                claim.refuse()
        finally:
            self._changed()
        return claim

    def _take(self, claim_id):
        with self._lock:
            claim = self._claims.pop(claim_id, None)
        if claim is None:
            raise NotFound("no seat claim %r is waiting for the judge" % (claim_id,))
        return claim

    def get(self, claim_id):
        return self._claims.get(claim_id)

    def pending(self):
        with self._lock:
            return list(self._claims.values())

    def public_view(self):
        return [c.public() for c in self.pending()]

    def admin_view(self):
        return [c.admin() for c in self.pending()]

    def _changed(self):
        self.table.announce({"t": "seat_claims", "claims": self.public_view()})


def claims_of(table):
    """The table's claim registry, made on first use (kept on the table: ``table.claims``)."""
    claims = getattr(table, "claims", None)
    if claims is None:
        claims = table.claims = SeatClaims(table)
    return claims


class PodClaims:
    """The pods' side (a mixin of hub.pods.pod_hub.PodHub: its ``table``, ``conns``, ``lock``,
    ``links``, ``out``, ``drop``, ``_on_hello``, ``_claim``). A claim's id is ``pod:N`` (N
    counted by this hub: a board id is shown to the admin only), its detail (admin only) the
    board id and the port of the pod that holds or held the seat.

    ``conflicts`` (board id -> what the judge is shown) and ``_pending`` (board id -> the
    connection that asked) are kept for the pods' admin list (``pods_view``)."""

    def _init_claims(self):
        self.conflicts = {}             # board id -> a claim waiting for the judge (issues 11.2, 39)
        self._pending = {}              # board id -> the connection that made it
        self.takeover_ok = None         # (board id, conn) the judge let take the seat
        self._claim_ids = {}            # board id -> its claim's id: pod:N (a board id is not for the page)
        claims_of(self.table)           # the table's registry exists while pods serve it (the page reads it)

    def claim_id(self, board_id):
        cid = self._claim_ids.get(board_id)
        if cid is None:
            cid = self._claim_ids[board_id] = "pod:%d" % (len(self._claim_ids) + 1)
        return cid

    def vouched(self, c, board_id):
        """Whether the port ``c`` is on says it is the pod ``board_id``: a USB port's own serial
        number (a pod's is its board id), a simulated pod's id. A pty or any other device
        only says what it is told to."""
        vouches = getattr(c.port, "vouches", None)
        try:
            return bool(vouches and vouches(board_id))
        except Exception:
            return False

    def ask_judge(self, c, seat, t, why, holder=None):
        """``c`` (its board id said) asks for ``seat``: it waits, unseated, for the judge.
        ``why``: "connected" (that pod is connected on ``holder``), "unplugged" (the pod was
        unplugged and ``c`` is not on its port), "seat" (a new pod, a game in play)."""
        c.seat = None
        if getattr(c, "refused", False):
            return                      # the judge said no to this device: it asks in vain
        board = c.board_id
        self.conflicts[board] = {"board_id": board, "port": c.port.name, "held_by": holder, "seat": seat,
                                 "since_ms": t, "why": why}
        self._pending[board] = c
        claim, new = claims_of(self.table).ask(
            self.claim_id(board), seat, "pod", c.port.name, why, t,
            confirm=lambda: self.confirm_takeover(board, c),
            refuse=lambda: self._refused(board, c),
            detail={"board_id": board, "port": c.port.name, "held_by": holder})
        if new:
            label = {"a": "1P", "b": "2P", "c": "3P", "d": "4P"}.get(seat, "?")
            self.out("좌석 요청, 심판 확인 대기 / a seat claim waits for the judge: %s says it is pod %s (%s, %s): %s "
                     "(admin page, or POST /api/control/claims/confirm | refuse {\"claim\": \"%s\"})"
                     % (c.port.name, board, label, why, claim.text()["en"], claim.id))

    def confirm_takeover(self, board_id, c=None):
        """The judge hands the seat to the device that asked for it (a spare pod replacing a
        broken one, say). Raises SessionError if nothing asked. A connection of the same pod
        still there is dropped; the device is seated at once."""
        from hub.pods.prompts import now_ms
        from hub.sessions.base import SessionError
        with self.lock:
            waiting = self._pending.pop(board_id, None)
            if waiting is None or waiting.closed or (c is not None and waiting is not c):
                raise SessionError("no device is waiting to take over pod %s" % board_id)
            claims_of(self.table).withdraw(self.claim_id(board_id))
            why = (self.conflicts.pop(board_id, None) or {}).get("why")
            self.takeover_ok = (board_id, waiting)
            for other in [x for x in self.conns if x is not waiting and not x.closed and x.board_id == board_id]:
                self.drop(other, "replaced by the judge's takeover")
            self.out("심판이 좌석 인계를 승인 / the judge confirmed a takeover of pod %s by %s" % (board_id, waiting.port.name))
            if why == "seat":
                self._claim(waiting, now_ms(), judged=True)
            else:
                self._on_hello(waiting, None, now_ms())     # welcomed now (it keeps saying hello until it is)
        self.links.wake()

    def _refused(self, board_id, c):
        with self.lock:
            self._pending.pop(board_id, None)
            self.conflicts.pop(board_id, None)
            c.refused = True            # until it is unplugged: its hellos and claims change nothing
            self.out("심판이 좌석 요청을 거절 / the judge refused the seat claim of %s (pod %s)" % (c.port.name, board_id))

    def claim_gone(self, c):
        """``c`` was dropped: a claim it made goes with it."""
        if c.board_id is not None and self._pending.get(c.board_id) is c:
            del self._pending[c.board_id]
            self.conflicts.pop(c.board_id, None)
            claims_of(self.table).withdraw(self.claim_id(c.board_id))

    def conflicts_view(self):
        """The claims waiting for the judge, for the display (which shows no board ids)."""
        return claims_of(self.table).public_view()

    def pods_view(self):
        """The connected pods and the claims waiting for the judge (admin only: board ids)."""
        with self.lock:
            return {"pods": [{"port": c.port.name, "board_id": c.board_id, "seat": c.seat, "up": c.link.up}
                             for c in self.conns if not c.closed],
                    "conflicts": list(self.conflicts.values())}
