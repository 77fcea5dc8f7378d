"""Seats on the players' own phones (issue 40): the hidden ready for a table with no pod yet.

A phone takes a seat the way a pod does, with every guarantee a pod gives:
- **A seat link** per seat per game: ``/seat#seat=a&token=...``. The token is an HMAC of the
  game and the seat under the table's admin token: secret (only the judge's page shows it,
  never the TV), different for each seat and each game, and the same after a restart of the
  hub (the admin token is kept beside the record), so a phone resumes its seat after a
  kill -9. It is not the admin token and gives nothing but that seat.
- **One phone per seat**: the first phone (a browser's own id, kept on the phone) holds the
  seat; it comes back to it after a sleep, a reload or another network. Another phone with
  the same link is refused, and waits as a seat claim the judge confirms or refuses (the
  same registry as the pods': hub/pods/claims.py); so does a phone asking for a seat a pod
  holds.
- **The same decision**: its answers go through the table's one ``submit`` (source
  ``phone``), so a hidden ready is locked, committed and revealed exactly as a pod's (the
  same records, the same commitment check at the reveal), and the hub's receipt is the time
  that counts for the 10-second rule (the page's clock is never trusted: it only shows the
  countdown the hub sent).
- **Only its own**: what a phone reads is the public view and its own seat's question
  (hub/web/routers/seat.py); the other seat's phone, the TV and the API read nothing of it
  before the reveal.
"""

import hashlib
import hmac
import re

from hub.pods.claims import claims_of

CLIENT = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
SEAT_LABEL = {"a": "1P", "b": "2P", "c": "3P", "d": "4P"}


class SeatRefused(Exception):
    """A phone may not act for this seat: ``status``, ``code`` and the message say why."""

    def __init__(self, status, code, message):
        super().__init__(message)
        self.status, self.code = status, code


class PhoneSeats:
    """The phones of one table (kept on it: ``phones_of``). Runs on the table's loop."""

    def __init__(self, table):
        self.table = table
        self.holders = {}               # (game id, seat) -> the holding phone's client id
        self.seen_ms = {}               # (game id, seat) -> hub clock of the holder's last request
        self.latency_ms = {}            # seat -> the holder's last measured round trip (for the judge)
        self._claim_ids = {}            # (seat, client) -> its claim's id, phone:N (a claim id is kind:number)

    # -- links
    def token(self, seat, game_id=None):
        """The seat's secret for the game on the table (or ``game_id``)."""
        gid = self._game_id() if game_id is None else game_id
        key = self.table.admin_token.encode()
        return hmac.new(key, ("lumen-seat:%s:%s" % (gid, seat)).encode(), hashlib.sha256).hexdigest()[:32]

    def link(self, seat):
        return "/seat#seat=%s&token=%s" % (seat, self.token(seat))

    def _game_id(self):
        return self._session().game_id

    def _session(self):
        s = self.table.session
        if s is None:
            raise SeatRefused(409, "no_game", "no game is running at this table / 진행 중인 게임이 없습니다")
        return s

    # -- who may act
    def check(self, seat, token, client):
        """The phone's right to the seat: raises SeatRefused naming what is wrong."""
        s = self._session()
        if seat not in s.seats:
            raise SeatRefused(404, "no_seat", "this game has no seat %s / 이 게임에는 %s 좌석이 없습니다" % (seat, seat))
        if not isinstance(token, str) or not hmac.compare_digest(token.encode(), self.token(seat).encode()):
            raise SeatRefused(403, "wrong_seat_link", "this seat link is not for seat %s of the game on the table (an "
                                                      "earlier game's, or another seat's): ask the judge for the link / "
                                                      "이 좌석 링크는 지금 게임의 %s 좌석 것이 아닙니다: 심판에게 링크를 받으세요"
                              % (SEAT_LABEL.get(seat, seat), SEAT_LABEL.get(seat, seat)))
        if not isinstance(client, str) or not CLIENT.match(client):
            raise SeatRefused(422, "invalid_request", "client: 8-64 letters, digits, - or _ (the page makes it)")
        key = (s.game_id, seat)
        holder = self.holders.get(key)
        if holder == client:
            return key
        pod = self._pod_at(seat)
        if holder is None and pod is None:
            self.holders[key] = client
            claims_of(self.table).withdraw(self._claim_id(seat, client))
            self.table.announce({"t": "phone_seat", "seat": seat})
            return key
        # another phone holds the seat, or a pod: the judge decides (never on the phone's word)
        why = "connected" if pod is not None else "seat"
        claims_of(self.table).ask(self._claim_id(seat, client), seat, "phone", "phone " + client[:6], why,
                                  self.table.clock.now_ms(), confirm=lambda: self._hand_over(key, client),
                                  detail={"client": client, "held_by": "pod" if pod is not None else "phone " + holder[:6]})
        raise SeatRefused(409, "seat_taken", "%s is held by %s: the judge can hand it to this phone (a seat claim waits) / "
                                             "%s 좌석은 %s이 쓰고 있습니다: 심판이 확인하면 이 휴대폰으로 넘어옵니다"
                          % (SEAT_LABEL.get(seat, seat), "a pod" if pod is not None else "another phone",
                             SEAT_LABEL.get(seat, seat), "포드" if pod is not None else "다른 휴대폰"))

    def _hand_over(self, key, client):
        self.holders[key] = client
        self.table.announce({"t": "phone_seat", "seat": key[1]})

    def _claim_id(self, seat, client):
        cid = self._claim_ids.get((seat, client))
        if cid is None:
            cid = self._claim_ids[(seat, client)] = "phone:%d" % (len(self._claim_ids) + 1)
        return cid

    def _pod_at(self, seat):
        pods = self.table.pods
        seated = getattr(pods, "seated", None)
        return seated(seat) if seated is not None else None

    def release(self, seat):
        """The judge frees a seat held by a phone (a lost phone): the next phone with the link takes it."""
        s = self.table.session
        if s is not None:
            self.holders.pop((s.game_id, seat), None)

    def held(self):
        """seat -> whether a phone holds it in the game on the table (for the judge)."""
        s = self.table.session
        if s is None:
            return {}
        return {seat: (s.game_id, seat) in self.holders for seat in s.seats}


def phones_of(table):
    """The table's phone seats, made on first use (kept on the table: ``table.phones``)."""
    phones = getattr(table, "phones", None)
    if phones is None:
        phones = table.phones = PhoneSeats(table)
    return phones
