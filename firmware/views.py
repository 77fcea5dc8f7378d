# What the ring shows, as a pure function of the pod's state and the time:
# draw(pod, now) paints pod.ring.img. The language is docs/pod-ring.md:
# every colour has one meaning, and patterns (direction, blinking, motion,
# solid vs moving) carry it too, so colour-blind players read the same ring.
# While choosing, the countdown is never hidden: the slots still in the time
# left are bright, those past it dim, and a yellow head marks its end.
from micropython import const
import clock
import selection

# proto.py's codes (private copies: tests/firmware/test_codes.py)
_OUT_EVADE = const(4)
_OUT_WAS_HIT = const(8)
_OUT_TRADE = const(9)
_OUT_OFFSET = const(10)
_OUT_BOTH_DEFEND = const(11)
_OUT_BOTH_EVADE = const(12)
_NOTE_OPPONENT_LINK_LOST = const(1)
_NOTE_WIN = const(3)
_NOTE_LOSE = const(4)
_NOTE_DRAW = const(5)
_NOTE_SUDDEN_DEATH = const(7)
_NOTE_PAUSED = const(8)
# selection.py's codes (private copies: tests/firmware/test_codes.py)
_CHOOSING = const(1)
_LOCKED = const(2)
_REVEAL = const(3)
_PAGE_MAIN = const(0)
_PAGE_HP = const(1)
_PAGE_FP = const(2)

# Okabe-Ito palette (distinguishable with the common colour-vision
# deficiencies), one meaning each:
_BLUE = const(0x0072B2)  # seat 1P (slots, the lock, the seat marker)
_VERMILLION = const(0xD55E00)  # seat 2P
_GREEN = const(0x009E73)  # for you: +FP, a win
_ORANGE = const(0xE69F00)  # against you: -FP, a loss, no response
_YELLOW = const(0xF0E442)  # time: the countdown
_SKY = const(0x56B4E9)  # the link and the hub: waiting, lost, incompatible
_PURPLE = const(0xCC79A7)  # neither: the pass slot, a draw
_WHITE = const(0xFFFFFF)  # the cursor, priority, markers, the reveal

# levels in the logical image (ring.py scales them by the brightness step)
_K_SLOT = const(150)
_K_SPENT = const(40)  # a slot whose share of the time is gone
_K_ARC = const(90)  # the time left where no slot is
_K_LOCK = const(150)

_BOOT_SWEEP_MS = const(900)
_RESULT_MS = const(1500)
_NOTICE_MS = const(1500)
_BUTTON_MS = const(400)  # no hub: a press lights its quadrant this long

_KINDS = b"\x00\x01\x02\x03\x02\x03\x01\x00"  # outcome 1..8 -> motion: flash, sparkle, shield, zip


def lasting(c):
    # a notice shown until the next state, not for _NOTICE_MS (the game's end, a pause)
    return c == _NOTE_WIN or c == _NOTE_LOSE or c == _NOTE_DRAW \
        or c == _NOTE_OPPONENT_LINK_LOST or c == _NOTE_PAUSED


def seat_colour(seat):
    return _VERMILLION if seat == 2 else _BLUE if seat == 1 else _WHITE


def tri(t, period):
    # triangle wave 0..255..0 over period ms
    x = t % period * 510 // period
    return x if x <= 255 else 510 - x


def priority(r, p, now):
    # pixel 0: steady white = I hold priority; slow blink = the opponent's
    if p.priority == p.sel.seat:
        r.put(0, _WHITE, 200)
    elif p.priority and now % 1000 < 500:
        r.put(0, _WHITE, 90)


def fp_arc(r, fp, seat, now):
    # +FP: solid green clockwise from pixel 1; -FP: orange counter-clockwise
    # from pixel n-1, every other pixel half bright. Exact up to n-1 (11 on a
    # 12-pixel ring: FP runs to about 9); past that the last pixel blinks.
    n = r.n
    room = n - 1
    k = fp if fp >= 0 else -fp
    if k > room:
        k = room if now % 400 < 200 else room - 1
    for j in range(k):
        if fp > 0:
            r.put(1 + j, _GREEN)
        else:
            r.put(n - 1 - j, _ORANGE, 110 if j & 1 else 255)
    if k < n // 2:
        r.put(n // 2, seat_colour(seat), 120)  # seat marker at 6 o'clock, where the arc leaves room


def arc_end(cd, n, now):
    # pixels 1..A hold the time left (A = 0 when it is up), and how far the
    # head pixel A has drained (255 = full)
    rem = cd.remaining(now)
    x = rem * (n - 1) * 255 // cd.total
    a = (x + 254) // 255
    return a, x - (a - 1) * 255 if a else 0


def choosing(r, p, now):
    sel = p.sel
    n = r.n
    per = n - 1  # pixel 0 is the priority indicator
    c = sel.count()
    base = sel.cursor // per * per
    sc = seat_colour(sel.seat)
    cd = p.cd
    a = n  # no countdown: every slot bright
    frac = 0
    if cd.active:
        a, frac = arc_end(cd, n, now)
    rem = cd.remaining(now) if cd.active else 10000
    flash = rem <= 3000 and rem % 1000 > 850  # a flash on each of the last three seconds, with the beep
    for j in range(per):
        k = base + j
        i = 1 + j
        live = i <= a
        if k < c:
            col = sc if k < sel.options else _PURPLE  # purple: pass
            r.put(i, col, _K_SLOT if live else _K_SPENT)
        elif cd.active and live:
            r.put(i, _YELLOW, _K_ARC)
        if flash and live:
            r.put(i, _YELLOW)
    if cd.active and a:
        r.put(a, _YELLOW, 120 + frac * 135 // 255)  # the head: where the time ends
    if c:
        cur = 1 + sel.cursor - base
        if not (cd.active and cur == a and now % 300 < 100):
            r.put(cur, _WHITE)  # on the head, the cursor lets the yellow through a third of the time
    elif not cd.active:
        # bare ready (tracker mode): seat-colour dashes that turn, "press READY"
        h = now // 250
        for i in range(1, n):
            if (i + h) % 3 == 0:
                r.put(i, sc, _K_SLOT)
    if base and now % 600 < 300:
        r.put(0, _SKY, 120)  # a later page of a long option list
    else:
        priority(r, p, now)


def locked(r, p, now):
    # solid, not breathing, the same for every slot: the lock is confirmed
    # without showing which
    sc = seat_colour(p.sel.seat)
    for i in range(1, r.n):
        r.put(i, sc, _K_LOCK)
    priority(r, p, now)


def blink2(r, col, t):
    # double blink: "you did not respond" / "no ready"
    if t % 500 < 120 or 200 <= t % 500 < 320:
        r.fill(col)


def result(r, code, t):
    n = r.n
    col = _GREEN if code <= _OUT_EVADE else _ORANGE if code <= _OUT_WAS_HIT else _PURPLE
    # a win and its loss share a motion: guarded is guard's, evaded evade's,
    # countered counter's, was_hit hit's
    kind = _KINDS[code - 1] if code <= _OUT_WAS_HIT else code
    if kind == 0:  # hit / was_hit: full flashes
        if t % 250 < 150:
            r.fill(col)
    elif kind == 1:  # counter / countered: sparkle
        for i in range(t // 125 % 2, n, 2):
            r.put(i, col)
    elif kind == 2:  # guard / guarded: a shield over the top half
        k = 80 + tri(t, 500) * 2 // 3
        for i in range(-(n // 4), n // 4 + 1):
            r.put(i, col, k)
    elif kind == 3 or kind == _OUT_BOTH_EVADE:  # evade: a pixel zips round
        h = t * n // 500
        r.put(h, col)
        r.put(h - 1, col, 80)
        if kind == _OUT_BOTH_EVADE:
            r.put(-h, col)
            r.put(1 - h, col, 80)
    elif kind == _OUT_TRADE:  # halves swap green/orange: both hit
        sw = t // 250 % 2
        for i in range(n):
            r.put(i, _GREEN if (i < n // 2) == (sw == 0) else _ORANGE)
    elif kind == _OUT_OFFSET:  # two pixels meet at the top, then flash
        h = n // 2 - t * (n // 2) // 700
        if h > 0:
            r.put(h, _PURPLE)
            r.put(-h, _PURPLE)
        elif t % 200 < 100:
            r.fill(_PURPLE)
    elif kind == _OUT_BOTH_DEFEND:
        k = 60 + tri(t, 500) // 2
        for i in range(n):
            r.put(i, col, k if i & 1 else 20)
    else:  # non-response, and outcomes newer than this firmware
        blink2(r, _ORANGE, t)


def notice(r, p, code, t, now):
    n = r.n
    if code == _NOTE_WIN:
        for i in range(now // 80 % 3, n, 3):
            r.put(i, _GREEN)
    elif code == _NOTE_LOSE:
        r.fill(_ORANGE, 60)
    elif code == _NOTE_DRAW:
        for i in range(n):
            r.put(i, _PURPLE if (i + now // 400) & 1 else seat_colour(p.sel.seat), 120)
    elif code == _NOTE_OPPONENT_LINK_LOST or code == _NOTE_PAUSED:
        away(r, now)
    elif code == _NOTE_SUDDEN_DEATH:
        if t % 300 < 150:
            r.fill(_WHITE)
    else:
        blink2(r, _ORANGE, t)


def away(r, now):
    # the opponent's pod is away (or the game paused): one sky pixel swings
    # to and fro over the far side of the ring, the opponent's, its trail
    # dim; not the pulse of every third pixel that says *my* link is lost
    # (different pixels and a motion, so it reads without colour)
    q = r.n // 4 - 1
    h = tri(now, 2400) * (2 * q + 1) // 256 - q  # 10 o'clock .. 2 o'clock, as long at each
    r.put(h, _SKY, 230)
    r.put(h - 1 if tri(now + 50, 2400) > tri(now, 2400) else h + 1, _SKY, 50)


def marker(r, count, now):
    # page marker on pixel 0: 1, 2 or 3 white blinks a second (HP, FP, brightness)
    t = now % 1000
    if t < count * 200 and t % 200 < 110:
        r.put(0, _WHITE, 200)


def page(r, p, now):
    sel = p.sel
    n = r.n
    pg = sel.page
    if pg == _PAGE_HP:
        # one pixel per quick step: losses orange, gains green; the cursor white
        st = selection.HP_STEPS
        for j in range(len(st)):
            r.put(1 + j, _GREEN if st[j] > 0 else _ORANGE, 120)
        r.put(1 + sel.menu, _WHITE)
        marker(r, 1, now)
    elif pg == _PAGE_FP:
        fp_arc(r, p.fp + sel.fp_pending, sel.seat, now)
        marker(r, 2, now)
    else:
        for i in range((sel.bright + 1) * (n - 1) // len(selection.BRIGHT_LEVELS)):
            r.put(1 + i, _WHITE, 160)
        marker(r, 3, now)


def quadrant(r, btn, col, k):
    # a button's own quarter of the ring: BACK top, NEXT right, READY bottom, PREV left
    n = r.n
    q = n // 4
    c = n * (3, 1, 2, 0)[btn] // 4  # (a constant tuple: a tuple of expressions is built at each call)
    for i in range(c - q // 2, c - q // 2 + q):
        r.put(i, col, k)


def no_hub(r, p, now):
    # a press with no hub lights its button's quadrant: a builder sees the wiring
    if p.btn_seen >= 0 and clock.diff(now, p.btn_t) < _BUTTON_MS:
        quadrant(r, p.btn_seen, _WHITE, 255)


def draw(p, now):
    r = p.ring
    r.clear()
    n = r.n
    t = clock.diff(now, p.boot_t0)
    if p.test.active:
        p.test.draw(r, now)
        return
    if t < _BOOT_SWEEP_MS:
        # boot check: red, green, blue sweep round the ring, then white
        step = t * 3 * n // (_BOOT_SWEEP_MS - 200)
        if step < 3 * n:
            r.put(step % n, 0xFF0000 >> (8 * (step // n)))
        else:
            r.fill(_WHITE, 80)
        return
    if p.incompatible:
        if now % 400 < 200:
            r.fill(_SKY)
        return
    if not p.link.up:
        if p.link.ever_up:  # link lost: sky pulse on every third pixel; a lock stays shown
            if p.sel.state == _LOCKED:
                locked(r, p, now)
            k = 60 + tri(now, 1000) * 2 // 3
            for i in range(0, n, 3):
                r.put(i, _SKY, k)
        else:  # waiting for the hub's welcome
            r.put(now // 100 % n, _SKY, 200)
        no_hub(r, p, now)
        return
    if p.result_code:
        t = clock.diff(now, p.result_t0)
        if t < _RESULT_MS:
            result(r, p.result_code, t)
            return
        p.result_code = 0
    c = p.notice_code
    if c:
        t = clock.diff(now, p.notice_t0)
        if t < _NOTICE_MS or lasting(c):
            notice(r, p, c, t, now)
            return
        p.notice_code = 0
    sel = p.sel
    st = sel.state
    if sel.page != _PAGE_MAIN:
        page(r, p, now)
    elif sel.seat == 0:
        h = now // 150  # unseated: "press READY to claim a seat"
        r.put(h, _WHITE, 120)
        r.put(h + n // 2, _WHITE, 120)
    elif st == _CHOOSING:
        choosing(r, p, now)
    elif st == _LOCKED:
        locked(r, p, now)
    elif st == _REVEAL:
        h = now // 60
        r.put(h, _WHITE)
        r.put(h - 1, _WHITE, 90)
        r.put(h - 2, _WHITE, 30)
    else:
        fp_arc(r, p.fp, sel.seat, now)
        priority(r, p, now)

