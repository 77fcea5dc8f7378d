"""A real Mosquitto per test (its own config, passwords and ACL, on a free port in a temp
folder), and an event folder whose credentials it uses."""

import os
import time

import pytest

from hub.tournament import broker as brk
from hub.tournament.eventdir import new_event

WHY = brk.available()


def need_mosquitto():
    if WHY and os.environ.get("CI") != "true":
        pytest.skip(WHY)


def wait_for(cond, timeout=60.0, what="condition"):
    """Wait for an event (polling a predicate); the bound only turns a hang into a failure."""
    deadline = time.monotonic() + timeout
    while True:
        v = cond()
        if v:
            return v
        if time.monotonic() > deadline:
            raise AssertionError("timed out after %.0f s waiting for %s" % (timeout, what))
        time.sleep(0.02)


def players(n):
    return [{"id": "p%02d" % i, "name": "선수%02d" % i} for i in range(1, n + 1)]


@pytest.fixture
def event_dir(tmp_path):
    folder = str(tmp_path / "event")
    creds = new_event(folder, "cup", players(8), rounds=3, round_minutes=30, best_of=1, seed=11)
    return folder, creds


@pytest.fixture
def broker(event_dir):
    need_mosquitto()
    folder, creds = event_dir
    b = brk.LocalBroker(os.path.join(folder, "broker"), {k: v for k, v in creds.items() if k != "admin_token"})
    b.start()
    yield b
    b.kill()


@pytest.fixture
def room(broker, event_dir, tmp_path):
    """make(**kw) -> a Room (tests/tournament/room.py) on this test's broker; all closed after."""
    from tests.tournament.room import Room      # room.py imports this module
    folder, creds = event_dir
    rooms = []

    def make(**kw):
        r = Room(broker, folder, creds, str(tmp_path), **kw)
        rooms.append(r)
        return r
    yield make
    for r in rooms:
        r.close()
