"""The pods at a table: serial links, seats, and the translation between pod
frames and the table's game.

One ``PodConn`` per connected pod (a real serial port or a simulated pod's
pty, hub/pods/ports.py), each with its own ``HubLink`` (hub/pods/channel.py: acks, resend,
heartbeat). The links run on their own thread (hub/pods/link_thread.py: event-driven,
readies stamped when their bytes arrive), which asks this object only through its
``LinkOwner`` methods (connections, open_serial, scan, service, drop, deadlines, drain);
what the pods say is applied on the table's thread (``drain``). ``PodHub`` takes the Table's
changes, one change set a decision (hub/sessions/changes.py: its messages per seat and what it
did for the pods, ``happenings``), and reads the game only through the session interface
(hub/sessions/base.py: ``prompt``, ``seat_status``, ...), whatever its mode:

* pod -> table: ``ready``/``answer`` (a slot of the current prompt) become
  ``table.submit``; ``expired`` asks the session to check its own deadline;
  ``adjust`` (tracker mode) becomes a tracker action; ``claim`` seats a fresh
  pod (1P, then 2P), remembered by board id.
* table -> pod: each seat gets only its own messages. A ``state`` push carries
  the seat's current prompt (kind, number of options, pass allowed, locked
  slot), priority, FP, HP and hand size; ``countdown`` when the opponent
  readied; ``reveal`` and ``result`` (the pod's own outcome); ``notice`` for
  win/lose/draw, non-response, sudden death and the opponent's link.

Hidden information: the slot a pod locked is known to that pod and the hub
only; the other pod hears "opponent readied" and never which card. A prompt id
changes whenever the question changes, so a late or resent answer to an old
prompt is ignored.

Prompts (hub/pods/prompts.py): options map to slots in the order the engine lists them, which for a ready is
the order of the player's hand on the table display (1 = first). "pass",
"end" and "skip" are the pod's extra pass slot. A discard of several cards is
asked one card per prompt. Setups (game start, sudden-death rebuild) are not
asked on the pods: while pods serve it, the table answers them with the deck's
own order (the first non-special cards form the hand, the next nine the list;
``Table.attach_pods``, ``RefereeSession.auto_setup``; docs/referee.md).
"""

from engine import josa
import asyncio
import logging
import os
import threading

from engine import IllegalDecision

from hub.pods.channel import HubLink
from hub.pods.claims import PodClaims
from hub.pods.hello_gate import HELLO_EVERY_MS, HelloGate
from hub.pods.link_thread import LinkThread
from hub.pods import podext
from hub.pods.ports import SerialPort, find_pod_ports
from hub.pods.prompts import SEAT_NUM, Prompt, SeatPrompts, now_ms
from hub.pods.protocol import ADJUST, MODES, NOTICES, OUTCOMES, PROTO, ProtocolError
from hub.sessions.base import SessionError

log = logging.getLogger("lumen.pods")
ADJUST_NAMES = {code: name for name, code in ADJUST.items()}


# ---------------------------------------------------------------- one pod

class PodConn(HelloGate):
    def __init__(self, port):
        super().__init__()          # the port's hello allowance (hub/pods/hello_gate.py)
        self.port = port
        self.link = HubLink()       # fed on the links' thread, sent on from the table's (its own lock)
        self.board_id = None
        self.seat = None            # "a" / "b" once seated
        self.incompatible = None    # a message when the pod speaks another protocol
        self.closed = False
        self.sent_state = None      # the last state tuple pushed
        self.was_up = False
        self.repl_resets = 0        # seen of link.repl_resets, to say so once each
        self.wlock = threading.Lock()   # held to take the link's output and write it: in order

    @property
    def name(self):
        return "%s (%s)" % (self.port.name, self.board_id or "?")


# ---------------------------------------------------------------- the hub side

class PodHub(SeatPrompts, PodClaims):
    def __init__(self, table, mode=None, out=None, brightness=0):
        self.table = table
        self.conns = []
        self.prompts = {s: Prompt() for s in SEAT_NUM}
        self.locked_slot = {}           # seat -> slot locked in the current ready (pod-side memory)
        self.countdown = {}             # seat -> monotonic ms deadline being shown
        self.out = out or (lambda text: log.info(text))
        self.brightness = brightness
        self.mode = mode                # the mode code pods hear before any game is on the table
        self._rescan = []               # serial devices to reopen after an unplug
        self.messages_to = {s: [] for s in SEAT_NUM}   # what each seat was sent (kept for tests)
        self.pushes = {s: 0 for s in SEAT_NUM}  # state frames sent per seat
        self._current = {}              # seat -> (what it depends on, the last current(seat))
        self.record = False
        self.links = LinkThread(self)
        self.lock = self.links.lock     # the connection list (each link has its own lock)
        self._draining = False
        self.drains = 0                 # drains run (for the benches)
        self._init_claims()             # seat claims the judge decides (hub/pods/claims.py)
        # a question from outside the game, asked when the game asks nothing (a tournament's
        # result to confirm: hub/tournament/bridge.py): .question(seat) -> label or None, .answer(seat)
        self.side = None
        # on_settled(conn): called where the pods' bytes are fed (the links' thread, or the
        # table's in drain) each time a pod has acked everything sent to it, so it shows
        # conn.link.last_state (read it under conn.link.lock: the table's thread may be
        # sending meanwhile). For drivers that wait for a pod instead of polling it
        # (bench/hub_counts.py)
        self.on_settled = None
        table.subscribe_changes(self._on_change)

    # ------------------------------------------------------------ connections
    def add(self, port):
        with self.lock:
            c = PodConn(port)
            self.conns.append(c)
        self.links.connections_changed()
        return c

    def connections(self):
        return self.conns

    def prune(self):
        self.conns = [c for c in self.conns if not c.closed]

    def deadlines(self):
        s = self.table.session
        return s.deadline if s is not None else None

    def drop(self, c, why):
        with self.lock:
            if c.closed:
                return
            c.closed = True
            self.links.connection_dropped()
            c.port.close()
            self.claim_gone(c)
            self.out("포드 연결 끊김 / pod disconnected: %s (%s)" % (c.name, why))
            if isinstance(c.port, SerialPort):
                self._rescan.append(c.port.device)
            if c.seat is not None:
                self._notice_other(c.seat, "opponent_link_lost")
        self.links.wake()

    def seated(self, seat):
        for c in self.conns:
            if c.seat == seat and not c.closed:
                return c
        return None

    # ------------------------------------------------------------ serving
    async def run(self, serial_devices=(), rescan=True):
        """Serve the pods until cancelled: the links on their own thread, what the pods say
        applied on this (the table's) loop. ``serial_devices``: ports to open (None =
        auto-detect pods and keep looking for new ones)."""
        self.start(asyncio.get_running_loop(), serial_devices, rescan)
        try:
            await asyncio.Event().wait()
        finally:
            self.stop()

    def start(self, loop, serial_devices=(), rescan=True):
        self.table.attach_pods(self)      # the table's tick takes the pods' inputs before any expiry
        self.links.start(loop, serial_devices, rescan)

    def stop(self):
        self.links.stop()
        self.table.detach_pods(self)
        self.drain()

    def drain(self):
        """On the table's thread: apply everything the pods said until now, in order, each
        at its arrival stamp. Returns the table-clock ms of "now" for an expiry check that
        follows: anything stamped later arrived after it."""
        if self._draining:              # a submit made while applying: the outer drain goes on
            return self.table.clock.now_ms()
        self.drains += 1
        self._draining = True
        try:
            items, now = self.links.take()
            for c, m, t, stamp in items:
                try:
                    if c is None:       # m is "expire": a ready deadline passed
                        if self.table.session is not None:
                            self.table.tick(now=stamp)
                    else:
                        self._on_pod(c, m, t, stamp)
                except Exception as e:     # one message's failure (a record that can't be written) is said, not fatal
                    log.exception("applying %s from the pods", getattr(m, "type", m))
                    self.out("허브 오류 / hub error: %s" % e)
        finally:
            self._draining = False
        if items:
            self.flush()                # frames the table queued for the pods go out now
        return now

    def flush(self):
        """On the table's thread: write what the table queued for the pods, as far as each
        port takes it without waiting (one thread hop less a decision: the links' thread
        needs waking only for what is left, for a port that can't, or one it is writing to
        itself). The links' thread keeps its own timers: it looks again at its next one."""
        left = False
        for c in self.conns:
            link = c.link
            if c.closed or not link.has_output:
                continue
            write = getattr(c.port, "write_nowait", None)
            if write is None or not c.wlock.acquire(blocking=False):
                left = True
                continue
            try:
                out = link.take_output()
                try:
                    n = write(out)
                except Exception:       # the links' thread meets it again and drops the port
                    n = 0
                if n < len(out):
                    link.unsend(out[n:])
                    left = True
            finally:
                c.wlock.release()
        if left:
            self.links.wake()

    def pump(self):
        """One synchronous pass over every pod (for callers without the links' thread)."""
        self.links.read_now([c for c in self.conns if not c.closed])
        t = now_ms()
        for c in list(self.conns):
            if not c.closed:
                self.service(c, t)
        self.drain()
        t = now_ms()
        for c in list(self.conns):
            if not c.closed:
                self.service(c, t)

    def open_serial(self, dev):
        if any(isinstance(c.port, SerialPort) and c.port.device == dev and not c.closed for c in self.conns):
            return
        try:
            port = SerialPort(dev)
        except Exception as e:
            if dev not in self._rescan:
                self._rescan.append(dev)
                self.out("포드 포트를 열 수 없음 / cannot open pod port %s: %s" % (dev, e))
            return
        if dev in self._rescan:
            self._rescan.remove(dev)
        self.out("포드 포트 열림 / pod port opened: %s" % dev)
        self.add(port)

    def scan(self, auto):
        devices = list(self._rescan)
        if auto:
            devices += [d for d in find_pod_ports() if d not in devices]
        for dev in devices:
            if os.path.exists(dev):
                self.open_serial(dev)

    def service(self, c, t):
        """Link timers and output for ``c``: acks, resends, heartbeats, a dead link."""
        was = c.was_up
        if c.link.repl_resets != c.repl_resets:
            c.repl_resets = c.link.repl_resets
            self.out("포드가 REPL에 멈춰 있어 다시 시작함 / pod was at the REPL, soft reset: %s" % c.name)
        with c.wlock:
            out = c.link.poll(t)
            error = None
            if out:
                try:
                    c.port.write(out)
                except Exception as e:      # pyserial's SerialException is not always an OSError
                    error = e
        if error is not None:
            self.drop(c, error)
            return
        if was and not c.link.up:
            c.was_up = False
            self.out("포드 응답 없음 / pod link lost: %s" % c.name)
            if c.seat:
                self._notice_other(c.seat, "opponent_link_lost")

    # ------------------------------------------------------------ pod -> table
    def _on_pod(self, c, m, t, stamp=None):
        """A message from a pod, on the table's thread; ``stamp``: when its bytes arrived
        (table clock), the time a ready counts at."""
        if m.type == "hello":
            self._hello(c, m, t)
            return
        if m.type == "log":
            self.out("포드 %s 기록 / pod log: %s" % (c.name, m.text))
            return
        if m.type == "claim":
            self._claim(c, t)
            return
        if m.type == "test":
            self.out("포드 %s 자가 진단 / pod self-test: %s" % (c.name, podext.on_test(c, m)))
            return
        seat = c.seat
        if seat is None:
            return
        pushes = self.pushes[seat]
        try:
            if m.type == "ready" or m.type == "ready_at":
                f = m.fields
                self._on_choice(seat, f["prompt"], f["slot"], ready=True, at_ms=podext.choice_time(m, stamp))
            elif m.type == "answer":
                f = m.fields
                self._on_choice(seat, f["prompt"], f["slot"], ready=False, at_ms=stamp)
            elif m.type == "expired":
                if self.table.session is not None:
                    self.table.tick(now=stamp)      # the pod's countdown ran out: the hub checks its own clock
            elif m.type == "adjust":
                self._on_adjust(seat, m["what"], m["value"])
        except (SessionError, IllegalDecision) as e:
            self.out("%s의 입력을 받을 수 없음 / %s's input refused: %s" % (seat, seat, e))
        except Exception as e:     # a hub bug must not silently eat a pod's press: say so, keep serving
            log.exception("handling %s from %s", m.type, c.name)
            self.out("허브 오류 / hub error handling %s from %s: %r" % (m.type, c.name, e))
        # the pod hears what the hub wants now: again (forced) if handling its message sent it
        # nothing (an answer refused, or to a prompt that is gone); a state sent meanwhile
        # is the latest already (every change of the game is pushed as it is relayed)
        if self.pushes[seat] == pushes:
            self.push(seat, force=True)

    def _hello(self, c, m, t):
        """A hello, heard within the port's allowance (hub/pods/hello_gate.py), else held."""
        if c.allows(m, t):
            self._on_hello(c, m, t)
            return
        if c.say_flood(t):
            # the same line for a port that floods and for hellos that piled up while the hub was
            # slow to read (a Pi starting under load): both are more hellos than it hears at once
            self.out("포드 포트 %s의 hello가 한꺼번에 너무 많이 왔습니다(포드가 너무 자주 보내거나 허브가 늦게 읽음): %d개를 "
                     "미루고 %.1f초마다 마지막 것만 듣습니다 / port %s sent hellos faster than they are heard (a pod "
                     "flooding, or a hub slow to read): %d held back, the latest heard every %.1f s" % (
                         c.port.name, c.hellos_held, HELLO_EVERY_MS / 1000, c.port.name, c.hellos_held,
                         HELLO_EVERY_MS / 1000))
        loop = self.links.loop
        if loop is not None and c.hello_timer is None:
            c.hello_timer = loop.call_later(c.until_allowed_s(), self._held, c)

    def _held(self, c):
        """On the table's loop: hear the hello a flooding port said last, if it may be heard now."""
        c.hello_timer = None
        held = None if c.closed else c.take_held()
        if held is None:
            return
        with self.lock:
            self._hello(c, held[0], now_ms())
        self.flush()

    def _on_hello(self, c, m, t):
        info = c.link.pod
        if info.proto != PROTO:
            msg = ("포드 %s의 프로토콜 %d은(는) 허브(%d)와 맞지 않습니다: lumen pod flash로 펌웨어를 갱신하세요 / "
                   "pod %s speaks protocol %d, this hub speaks %d: update its firmware with lumen pod flash"
                   % (info.board_id, info.proto, PROTO, info.board_id, info.proto, PROTO))
            if c.incompatible != msg:
                self.out(msg)
            c.incompatible = msg
            return
        if m is not None and c.link.rewelcome(m.fields["boot"], m.fields["epoch"], t):
            return      # a repeat of the hello already welcomed: the seat and numbering stand
        first = c.board_id is None
        again = c.board_id == info.board_id and c.seat is not None    # this very connection, seated: a reboot
        c.board_id = info.board_id
        seat = self.table.store.seat_of(self.table.name, info.board_id)
        if seat in self.table.bot_seats():
            seat = None              # the hub's bot plays that seat in this game: this pod may take the other
        judged = self.takeover_ok == (info.board_id, c)
        live = [x for x in self.conns if x is not c and not x.closed and x.board_id == info.board_id and x.link.up]
        if live and not judged:
            # issue 11.2: a second device saying hello with a connected pod's board id (which
            # the hub log shows) is refused, not seated; only the judge can hand it the seat
            self.ask_judge(c, seat, t, "connected", live[0].port.name)
            return
        if seat is not None and not live and not judged and not again and not self.vouched(c, info.board_id):
            # issue 39: the pod of that seat was unplugged and this device is not on its port
            # (a replugged pod's own USB serial number vouches for it): the judge decides
            self.ask_judge(c, seat, t, "unplugged",
                           next((x.port.name for x in self.conns if x.board_id == info.board_id and x is not c), None))
            return
        self.takeover_ok = None
        for other in [x for x in self.conns if x is not c and not x.closed and x.board_id == info.board_id]:
            # the same pod back on another port after its link died (a replug): it takes its seat again
            self.drop(other, "replaced by a new connection of the same pod")
        c.seat = seat
        c.link.welcome(t, SEAT_NUM.get(seat, 0), self._mode_code(), self.brightness)
        podext.greet(c.link, t)
        c.was_up = True
        c.sent_state = None
        if first:
            self.out("포드 연결 / pod connected: %s, firmware %s, %s" % (
                c.name, info.firmware, ("%s석 / seat %s" % (SEAT_NUM[seat], SEAT_NUM[seat])) if seat else
                "좌석 없음: READY를 누르면 앉습니다 / unseated: press READY to take a seat"))
        if seat:
            self._notice_other(seat, "opponent_link_ok")
            self.push(seat, force=True, resume=True)

    def _mode_code(self):
        s = self.table.session
        mode = (s.pod_mode or s.mode) if s is not None else (self.mode or "unknown")
        return MODES.get(mode, 0)

    def _seats(self):
        """The seats of the game on the table (two, or four at a 2-on-2 table)."""
        s = self.table.session
        return s.seats if s is not None else ("a", "b")

    def _claim(self, c, t, judged=False):
        if c.seat is not None or c.board_id is None or getattr(c, "refused", False):
            return
        taken = {x.seat for x in self.conns if x.seat and not x.closed and x is not c} | self.table.bot_seats()
        free = [s for s in self._seats() if s not in taken]
        if not free:
            self.out("빈 좌석 없음 / no free seat for %s" % c.name)
            return
        # a seat whose remembered pod is not here is free to claim; in a game where that seat
        # has played (its hand is the pod's to see) only once the judge confirms (issue 39)
        seat = free[0]
        if not judged and self._played_by_another(seat, c.board_id):
            self.ask_judge(c, seat, t, "seat")
            return
        self.table.store.remember_seat(self.table.name, c.board_id, seat)
        c.seat = seat
        c.link.send("setup", t, seat=SEAT_NUM[seat], mode=self._mode_code(), brightness=self.brightness)
        self.out(josa("%s이(가) %dP 좌석에 앉았습니다 / %s took seat %dP" % (c.name, SEAT_NUM[seat], c.name, SEAT_NUM[seat])))
        self.push(seat, force=True, resume=True)

    def _played_by_another(self, seat, board_id):
        """Whether ``seat`` has made a decision in the game in play, and another pod held it."""
        s = self.table.session
        if s is None or s.winner is not None or not (getattr(s, "answered", None) or {}).get(seat):
            return False
        held = [b for b, x in self.table.store.seats(self.table.name).items() if x == seat]
        return bool(held) and board_id not in held

    def _on_choice(self, seat, prompt_id, slot, ready, at_ms=None):
        if seat in self.table.bot_seats():
            return                   # the hub's bot answers for that seat (a pod seated there before the game)
        pr = self.prompts[seat]
        if prompt_id != pr.id or pr.kind == "none":
            return      # an answer to a prompt that is no longer open
        if pr.request_kind == "side":
            if slot == 1 and self.side is not None:
                self.side.answer(seat)
            return
        if self.table.session is None:
            return
        if pr.bare:                     # a ready with no card behind it: READY is the answer
            if ready:
                self.locked_slot[seat] = 0
                self.table.submit(seat, "ready", True, source="pod", at_ms=at_ms)
            return
        if slot == 0:
            if pr.pass_value is None:
                return
            value = pr.pass_value
        elif 1 <= slot <= len(pr.options):
            value = pr.options[slot - 1]
        else:
            return
        kind = pr.request_kind
        if kind == "ready":
            self.locked_slot[seat] = slot
            self.table.submit(seat, "ready", value, source="pod", at_ms=at_ms)
        elif kind == "discard":
            pr.chosen.append(value)
            if len(pr.chosen) >= pr.discard_left:
                chosen, pr.chosen = pr.chosen, []
                self.table.submit(seat, "discard", chosen, source="pod")
        else:
            self.table.submit(seat, kind, value, source="pod")

    def _on_adjust(self, seat, what, value):
        """An entry on the pod's HP/FP page: the session turns it into its input, or refuses
        it (a referee game takes no health entries: SessionError, said in the log)."""
        s = self.table.session
        name = ADJUST_NAMES.get(what)
        if s is None or name is None:
            return
        self.table.submit(None, "action", s.adjust_command(seat, name, value), source="pod")

    # ------------------------------------------------------------ table -> pods
    def _on_change(self, change):
        """One change of the table (a decision, or a message of the table's own): each pod
        hears what it did and its new state, each frame once, then the frames go out together."""
        pushed = set()              # seats sent their state for this change
        for audience, msg in change.messages:
            self._table_message(audience, msg, change, pushed)
        if not self._draining and self.links.running:     # a drain flushes once, at its end
            self.flush()

    def _table_message(self, audience, msg, change, pushed):
        t = msg.get("t")
        if audience in SEAT_NUM:
            if self.record:
                self.messages_to[audience].append(msg)
            if t == "you":
                # the seat's own view: its state frame, unless the change's public state sent it
                if audience not in pushed:
                    pushed.add(audience)
                    self.push(audience)
            elif t == "opponent_ready":
                self.countdown[audience] = now_ms() + msg["ms_left"]
                self._send(audience, "countdown", prompt=self.prompts[audience].id, ms=msg["ms_left"])
            return
        if t == "game":
            self.prompts = {s: Prompt() for s in SEAT_NUM}
            self.locked_slot = {}
            self.countdown = {}
            for seat in SEAT_NUM:
                c = self.seated(seat)
                if c is not None and c.link.up:
                    c.link.send("setup", now_ms(), seat=SEAT_NUM[seat], mode=self._mode_code(), brightness=self.brightness)
        elif t == "state":
            self._on_public_state(change.happenings, pushed)

    def _on_public_state(self, happenings, pushed):
        """Each pod hears what the change did (``happenings``: the reveal, its own result, a
        non-response, sudden death, the end), then its new state."""
        s = self.table.session
        if s is None:
            return
        seats = s.seats
        # a seat's result is its reveal too (the pod stops the countdown and shows the outcome:
        # docs/protocol.md section 3): one frame, not two, at a judgment
        judged = {h[1] for h in happenings if h[0] == "result"}
        for h in happenings:
            what = h[0]
            if what == "reveal":
                for seat in seats:
                    self.countdown.pop(seat, None)
                    if seat not in judged:
                        self._send(seat, "reveal", prompt=self.prompts[seat].id)
            elif what == "non_response":
                self._send(h[1], "notice", code=NOTICES["non_response"], arg=h[2])
            elif what == "result":
                _, seat, outcome, fp_delta, hp_delta = h
                self._send(seat, "result", outcome=OUTCOMES.get(outcome, 0),
                           fp_delta=max(-128, min(127, fp_delta)), hp_delta=max(-32768, min(32767, hp_delta)))
            elif what == "sudden_death":
                for seat in seats:
                    self._send(seat, "notice", code=NOTICES["sudden_death"], arg=0)
            elif what == "game_over":
                for seat in seats:
                    code = "draw" if h[1] == "draw" else ("win" if h[1] == s.side_of(seat) else "lose")
                    self._send(seat, "notice", code=NOTICES[code], arg=0)
        for seat in seats:
            pushed.add(seat)
            self.push(seat)

    def _send(self, seat, msg_type, text="", **fields):
        c = self.seated(seat)
        if c is None or not c.link.up:
            return
        try:
            c.link.send_fields(msg_type, now_ms(), fields, text)
        except ProtocolError as e:
            log.warning("cannot send %s to %s: %s", msg_type, seat, e)

    def _notice_other(self, seat, code):
        """Tell the other seats' pods (the opponent, at a four-seat table everybody else)."""
        for other in self._seats():
            if other != seat:
                self._send(other, "notice", code=NOTICES[code], arg=SEAT_NUM[seat])


async def while_serving(hub, awaitable):
    """Await something while ``hub`` serves the pods it already has (no port scanning),
    then stop serving. For simulations and tests without the web server's loop."""
    pods = asyncio.create_task(hub.run(serial_devices=(), rescan=False))
    try:
        return await awaitable
    finally:
        pods.cancel()
        try:
            await pods
        except asyncio.CancelledError:
            pass
