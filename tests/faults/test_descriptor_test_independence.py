"""Issue 39.7: a test that assumed the machine's state. The descriptor test of the tournament
links (tests/tournament/test_broker.py) filled every descriptor below 1030 and assumed none
frees up before its links connect; run as ``pytest -x tests/tournament`` it failed (the TD's
link got descriptor 14). Here it is run with something else in the process closing a few
low descriptors just as the links start (a pytest plugin of this test's own), as an earlier
test's leftovers being collected would: it must still test a socket numbered past 1024."""

import os
import subprocess
import sys

from tests.faults.procs import ROOT
from tests.tournament.conftest import need_mosquitto

THIEF = '''
import os

from hub.tournament import mqtt

_held = [os.open(os.devnull, os.O_RDONLY) for _ in range(8)]    # low numbers, taken before the test runs
_start = mqtt.Link.start


def start(self, *args, **kw):
    while _held:                  # freed as the links start: the lowest free descriptor is low again
        os.close(_held.pop())
    return _start(self, *args, **kw)


mqtt.Link.start = start
'''

TEST = "tests/tournament/test_broker.py::test_a_link_whose_socket_is_numbered_past_1024_connects_and_carries_messages"


def test_the_descriptor_test_holds_when_low_descriptors_free_up_under_it(tmp_path):
    need_mosquitto()
    (tmp_path / "fd_thief.py").write_text(THIEF)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, str(tmp_path)]))
    r = subprocess.run([sys.executable, "-m", "pytest", "-p", "fd_thief", "-p", "no:cacheprovider", "-rA", TEST],
                       cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0 and "PASSED" in r.stdout and "1 passed" in r.stdout, r.stdout[-3000:] + r.stderr[-2000:]
