# What the ring shows, as a pure function of the pod's state and the time:
# draw(pod, now) paints pod.ring.img. Patterns, not only colours, carry the
# meaning (direction for the FP sign, blinking for "not mine", motion for the
# result kind), so colour-blind players read the same ring.
from micropython import const
import clock
import selection

# Okabe-Ito palette: distinguishable with the common colour-vision deficiencies
_BLUE = const(0x0072B2)  # seat 1P
_VERMILLION = const(0xD55E00)  # seat 2P, losses, the last 3 s
_GREEN = const(0x009E73)  # wins, +FP, countdown > 5 s
_ORANGE = const(0xE69F00)  # -FP, link lost
_YELLOW = const(0xF0E442)  # draws, countdown 5..3 s
_SKY = const(0x56B4E9)
_PURPLE = const(0xCC79A7)  # the "pass" slot
_WHITE = const(0xFFFFFF)

# selection states and pages (selection.py)
_CHOOSING = const(1)
_LOCKED = const(2)
_REVEAL = const(3)
_HP = const(1)
_FP = const(2)

_SELFTEST_MS = const(900)
_RESULT_MS = const(1500)
_NOTICE_MS = const(1500)

# result outcome codes (docs/protocol.md "Values")
_O_HIT = const(1)
_O_COUNTER = const(2)
_O_GUARD = const(3)
_O_EVADE = const(4)
_O_WAS_HIT = const(8)
_O_TRADE = const(9)
_O_OFFSET = const(10)
_O_BOTH_DEFEND = const(11)
_O_BOTH_EVADE = const(12)

_N_OPP_LOST = const(1)
_N_WIN = const(3)
_N_LOSE = const(4)
_N_DRAW = const(5)
_N_SUDDEN_DEATH = const(7)
_N_PAUSED = const(8)


def seat_colour(seat):
    return _VERMILLION if seat == 2 else _BLUE if seat == 1 else _WHITE


def tri(t, period):
    # triangle wave 0..255..0 over period ms
    x = t % period * 510 // period
    return x if x <= 255 else 510 - x


def priority(r, p, now):
    # pixel 0: steady white = I hold priority; slow dim blink = the opponent
    if p.priority == p.sel.seat:
        r.put(0, _WHITE, 200)
    elif p.priority and now % 1000 < 500:
        r.put(0, _WHITE, 40)


def fp_arc(r, fp, seat, now):
    # +FP: solid green clockwise from pixel 1; -FP: orange counter-clockwise
    # from pixel n-1, every other pixel half bright. Direction alone tells the
    # sign; the last pixel blinks when the value is more than fits.
    n = r.n
    room = n // 2 - 1
    k = fp if fp >= 0 else -fp
    if k > room:
        k = room if now % 400 < 200 else room - 1
    for j in range(k):
        if fp > 0:
            r.put(1 + j, _GREEN)
        else:
            r.put(n - 1 - j, _ORANGE, 110 if j & 1 else 255)
    r.put(n // 2, seat_colour(seat), 60)  # seat marker at 6 o'clock


def countdown(r, cd, now):
    # the arc drains counter-clockwise, with a smooth partial pixel at its end
    rem = cd.remaining(now)
    col = _GREEN if rem > 5000 else _YELLOW if rem > 3000 else _VERMILLION
    n = r.n
    x = rem * n * 255 // cd.total
    full = x // 255
    for i in range(full):
        r.put(i, col, 110)
    if full < n:
        r.put(full, col, x % 255 * 110 // 255)
    if rem <= 3000 and rem % 1000 > 850:
        r.fill(col)  # a flash on each of the last three seconds, with the beep


def choosing(r, p, now):
    sel = p.sel
    n = r.n
    per = n - 1  # pixel 0 is the priority indicator
    c = sel.count()
    base = sel.cursor // per * per
    if p.cd.active:
        countdown(r, p.cd, now)
    sc = seat_colour(sel.seat)
    for j in range(per):
        k = base + j
        if k >= c:
            break
        r.put(1 + j, sc if k < sel.options else _PURPLE, 70)  # purple: pass
    if c:
        r.put(1 + sel.cursor - base, _WHITE)
    elif not p.cd.active:
        breathe(r, sc, 30, 4, now)  # bare ready (tracker mode)
    if base and now % 600 < 300:
        r.put(0, _SKY, 120)  # a later page of a long option list
    else:
        priority(r, p, now)


def breathe(r, col, lo, div, now):
    k = lo + tri(now, 2000) // div
    for i in range(1, r.n):
        r.put(i, col, k)


def blink2(r, col, t):
    # double blink: "you did not respond" / "no ready"
    if t % 500 < 120 or 200 <= t % 500 < 320:
        r.fill(col)


def result(r, code, t):
    n = r.n
    col = _GREEN if code <= _O_EVADE else _VERMILLION if code <= _O_WAS_HIT else _YELLOW
    kind = (code - 1) % 4 if code <= _O_WAS_HIT else code  # win and loss share a motion
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
    elif kind == 3 or kind == _O_BOTH_EVADE:  # evade: a pixel zips round
        h = t * n // 500
        r.put(h, col)
        r.put(h - 1, col, 80)
        if kind == _O_BOTH_EVADE:
            r.put(-h, col)
            r.put(1 - h, col, 80)
    elif kind == _O_TRADE:  # halves swap green/red
        sw = t // 250 % 2
        for i in range(n):
            r.put(i, _GREEN if (i < n // 2) == (sw == 0) else _VERMILLION)
    elif kind == _O_OFFSET:  # two pixels meet at the top, then flash
        h = n // 2 - t * (n // 2) // 700
        if h > 0:
            r.put(h, _WHITE)
            r.put(-h, _WHITE)
        elif t % 200 < 100:
            r.fill(_WHITE)
    elif kind == _O_BOTH_DEFEND:
        k = 60 + tri(t, 500) // 2
        for i in range(n):
            r.put(i, col, k if i & 1 else 20)
    else:  # non-response, and outcomes newer than this firmware
        blink2(r, _VERMILLION, t)


def notice(r, p, code, t, now):
    n = r.n
    sc = seat_colour(p.sel.seat)
    if code == _N_WIN:
        for i in range(now // 80 % 3, n, 3):
            r.put(i, sc)
    elif code == _N_LOSE:
        r.fill(sc, 25)
    elif code == _N_DRAW:
        for i in range(n):
            r.put(i, _YELLOW if (i + now // 400) & 1 else sc, 80)
    elif code == _N_OPP_LOST or code == _N_PAUSED:
        for i in range(0, n, n // 4):
            r.put(i, _WHITE, 50 + tri(now, 2000) // 3)
    elif code == _N_SUDDEN_DEATH:
        if t % 300 < 150:
            r.fill(_VERMILLION)
    else:
        blink2(r, _VERMILLION, t)


def page(r, p, now):
    sel = p.sel
    n = r.n
    pg = sel.page
    if pg == _HP:
        # one pixel per quick step: losses orange, gains green; marker red
        st = selection.HP_STEPS
        for j in range(len(st)):
            r.put(1 + j, _GREEN if st[j] > 0 else _ORANGE, 60)
        r.put(1 + sel.menu, _WHITE)
        r.put(0, _VERMILLION, 120)
    elif pg == _FP:
        fp_arc(r, p.fp + sel.fp_pending, sel.seat, now)
        if now % 500 < 250:
            r.put(0, _GREEN, 120)  # FP page marker: blinking green
    else:
        for i in range((sel.bright + 1) * (n - 1) // len(selection.BRIGHT_LEVELS)):
            r.put(1 + i, _WHITE, 160)
        r.put(0, _YELLOW, 160)


def draw(p, now):
    r = p.ring
    r.clear()
    n = r.n
    t = clock.diff(now, p.boot_t0)
    if t < _SELFTEST_MS:
        # boot self-test: red, green, blue sweep round the ring, then white
        step = t * 3 * n // (_SELFTEST_MS - 200)
        if step < 3 * n:
            r.put(step % n, 0xFF0000 >> (8 * (step // n)))
        else:
            r.fill(_WHITE, 80)
        return
    if p.incompatible:
        if now % 400 < 200:
            r.fill(_PURPLE)
        return
    if not p.link.up:
        if p.link.ever_up:  # link lost: amber pulse on every third pixel
            k = 30 + tri(now, 1000) * 2 // 3
            for i in range(0, n, 3):
                r.put(i, _ORANGE, k)
        else:  # waiting for the hub's welcome
            r.put(now // 100 % n, _WHITE, 60)
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
        if t < _NOTICE_MS or c in (_N_WIN, _N_LOSE, _N_DRAW, _N_OPP_LOST, _N_PAUSED):
            notice(r, p, c, t, now)
            return
        p.notice_code = 0
    sel = p.sel
    st = sel.state
    if sel.page != 0:
        page(r, p, now)
    elif sel.seat == 0:
        h = now // 150  # unseated: "press READY to claim a seat"
        r.put(h, _WHITE, 120)
        r.put(h + n // 2, _WHITE, 120)
    elif st == _CHOOSING:
        choosing(r, p, now)
    elif st == _LOCKED:
        # the same for every slot: the lock is confirmed without showing which
        breathe(r, seat_colour(sel.seat), 40, 3, now)
        priority(r, p, now)
    elif st == _REVEAL:
        h = now // 60
        r.put(h, _WHITE)
        r.put(h - 1, _WHITE, 90)
        r.put(h - 2, _WHITE, 30)
    else:
        fp_arc(r, p.fp, sel.seat, now)
        priority(r, p, now)
