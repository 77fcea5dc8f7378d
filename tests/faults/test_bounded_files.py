"""Issue 39.5: profile and profile-card files are bounded inputs. Card ids were checked with
``ids.index(cid)`` per card (quadratic: 2k/4k/8k cards 0.75/2.25/6.62 s; 60k cards, 5.4 MB,
kept ``lumen profiles check`` past 30 s and the hub from serving after 40 s), a profile's
counters likewise; a FIFO named ``*.yaml`` hung ``lumen profiles check``.

The quadratic is pinned by counting comparisons, not by a clock: card and counter ids that
count their ``==`` (a ``str`` subclass) are checked with a number of comparisons that does
not grow with the square of their number."""

import os
import subprocess
import sys

import pytest

from engine import load_yaml_text

from hub.profiles import cards, profile
from hub.profiles.schema import MAX_CARDS_BYTES, MAX_PROFILE_BYTES

from tests.faults.procs import ROOT

N = 3000


class CountingId(str):
    """An id that counts the equality tests made with it."""
    compared = 0

    def __eq__(self, other):
        CountingId.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def card_file(n):
    lines = ["format: lumen-profile-cards/1", "kind: battlecon", "set: {id: big, name: {ko: 큰 세트, en: Big}, sample: false}",
             "characters:", "  - id: c1", "    name: 하나", "    cards:",
             "      - {id: s0, part: style, name: 스타일, range: [0, 1], power: 1, priority: 0}"]
    lines += ["      - {id: card-%06d, part: base, name: 카드%d, range: [1, 2], power: 3, priority: 2}" % (i, i)
              for i in range(n)]
    return "\n".join(lines) + "\n"


def profile_file(n):
    """The Gundam profile with ``n`` more counters ahead of its own (its end-of-round tiebreak
    names its own: base, shields, deck)."""
    src = open(os.path.join(profile.DATA, "gundam.yaml"), encoding="utf-8").read()
    head, rest = src.split("counters:\n", 1)
    extra = ["  - {id: c%05d, name: {ko: 카운터, en: counter}, start: 0, min: 0, max: 9}" % i for i in range(n)]
    return head + "counters:\n" + "\n".join(extra) + "\n" + rest


OWN_COUNTERS = len(profile.get("gundam").counters)


def test_card_ids_are_checked_without_comparing_every_pair():
    data = load_yaml_text(card_file(N))
    for c in data["characters"][0]["cards"]:
        c["id"] = CountingId(c["id"])
    CountingId.compared = 0
    s = cards.parse(data, "big.yaml")
    assert len(s.body["characters"][0]["cards"]) == N + 1
    assert CountingId.compared < 10 * N, "%d comparisons for %d cards (n^2/2 = %d)" % (CountingId.compared, N, N * N // 2)
    # a repeated id is still found, at its line
    data = load_yaml_text(card_file(10).replace("card-000007", "card-000003"))
    with pytest.raises(cards.CardSetError) as e:
        cards.parse(data, "big.yaml")
    assert "card-000003" in str(e.value.problems[0]) and "twice" in str(e.value.problems[0])


def test_counter_ids_are_checked_without_comparing_every_pair():
    data = load_yaml_text(profile_file(N))
    for c in data["counters"]:
        c["id"] = CountingId(c["id"])
    CountingId.compared = 0
    p = profile.parse(data, "many.yaml")
    assert len(p.counters) == N + OWN_COUNTERS
    assert CountingId.compared < 10 * N, "%d comparisons for %d counters" % (CountingId.compared, N)


def _check(*paths):
    return subprocess.run([sys.executable, "-m", "hub.cli", "profiles", "check", *map(str, paths)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)     # the bound only stops a hang


def test_oversize_files_and_a_fifo_are_refused_before_a_byte_is_parsed(tmp_path):
    big = tmp_path / "big-cards.yaml"
    big.write_text(card_file(60_000), encoding="utf-8")                      # 5.9 MB, as the review's 5.4 MB
    assert big.stat().st_size > MAX_CARDS_BYTES
    many = tmp_path / "many-counters.yaml"
    many.write_text(profile_file(50_000), encoding="utf-8")
    assert many.stat().st_size > MAX_PROFILE_BYTES
    folder = tmp_path / "folder"
    folder.mkdir()
    os.mkfifo(folder / "waits-forever.yaml")
    (folder / "lumen.yaml").write_text(open(os.path.join(profile.DATA, "lumen.yaml"), encoding="utf-8").read(),
                                       encoding="utf-8")
    r = _check(big, many, folder)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stdout + r.stderr
    out = r.stdout + r.stderr
    assert "big-cards.yaml: %d bytes, over the %d-byte limit" % (big.stat().st_size, MAX_CARDS_BYTES) in out, out
    assert "refused unread" in out and "many-counters.yaml" in out, out
    assert "waits-forever.yaml: not a regular file (a FIFO)" in out, out
    assert _check(folder / "lumen.yaml").returncode == 0
    # the hub started with that card file says so and stops at once (not a minute later)
    r = subprocess.run([sys.executable, "-m", "hub.cli", "hub", "--db", str(tmp_path / "g.sqlite3"), "--mode", "profile",
                        "--profile", "battlecon", "--profile-cards", str(big), "--port", "0", "--no-mdns"],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and "over the %d-byte limit" % MAX_CARDS_BYTES in r.stdout + r.stderr, r.stdout + r.stderr
