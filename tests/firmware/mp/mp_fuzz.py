# A pod fed random bytes, truncated frames, corrupted CRCs and well-formed
# frames with nonsense in them keeps working and answers the next good frame.
import random
import harness
from mptest import run_tests


def junk(h, i):
    good = harness.frame(0x82, 200, 0, 1, 1, 3, 0, 0, 1, 0, 5000, 3)
    k = i % 5
    if k == 0:  # random bytes, zeros included
        return bytes(random.getrandbits(8) for _ in range(random.getrandbits(7)))
    if k == 1:  # a frame cut short
        return good[:random.getrandbits(3) + 1]
    if k == 2:  # one flipped bit
        b = bytearray(good)
        j = 1 + random.getrandbits(8) % (len(b) - 2)
        b[j] ^= 1 << random.getrandbits(3)
        if b[j] == 0:
            b[j] = 0x55
        return bytes(b)
    if k == 3:  # REPL noise: Ctrl-C, a print, a prompt
        return b"\x03\x03Traceback (most recent call last):\r\n>>> \x03"
    # good CRC, nonsense inside: random type and length; old or no sequence
    # number (a valid frame with the *next* number would be a real message)
    t = random.getrandbits(8)
    if t == 0x8F:
        t = 0x8E
    body = bytearray(44)
    body[0] = t
    body[1] = 0 if random.getrandbits(1) else h.hub_seq  # a repeat of the last one
    body[2] = random.getrandbits(8)
    n = random.getrandbits(5)
    for j in range(n):
        body[3 + j] = random.getrandbits(8)
    out = bytearray(48)
    m = harness.proto.encode(out, body, 3 + n)
    return bytes(out[:m])


def test_pod_answers_the_next_good_frame_after_any_garbage():
    random.seed(4)
    h = harness.seated()
    for i in range(150):
        h.feed(junk(h, i))
        prompt = 10 + i % 200
        h.hub(0x82, prompt, 1, 4, 0, 0, 1, i % 7 - 3, 5000, 4)
        assert h.pod.sel.prompt == prompt, (i, h.pod.sel.prompt)
        assert h.sent("ping")[-1][3] == h.hub_seq, i  # acked
        h.run(4)
        del h.log[:-4]  # keep the harness's own memory flat
    assert h.pod.link.up
    assert h.pod.link.dec.errors > 50
    h.press("ready")
    assert h.sent("ready")[-1][4][0] == h.pod.sel.prompt


def test_random_streams_in_random_chunks():
    random.seed(9)
    h = harness.seated()
    for i in range(60):
        data = junk(h, i) + harness.frame(0x86, h.hub_seq % 255 + 1, 0, 9, 0)
        h.hub_seq = h.hub_seq % 255 + 1
        j = 0
        while j < len(data):  # delivered in pieces, as a serial port does
            n = 1 + random.getrandbits(3)
            h.feed(data[j:j + n])
            j += n
            h.run(1)
        assert h.sent("ping")[-1][3] == h.hub_seq, i
        del h.log[:-4]
    assert h.pod.faults == 0


run_tests(globals())
