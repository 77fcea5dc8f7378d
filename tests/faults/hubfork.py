"""Many ``lumen hub`` starts for the fault matrix, each the user's own command line run by
``hub.cli.main.main(argv)`` in a process of its own, without paying Python's start and the
hub's imports each time: one server process imports them once and forks a child per start
(the child is a whole hub: its own record, lock, port and output file; killed by its pid).

    python3 -m tests.faults.hubfork     # reads {"argv": [...], "log": FILE} lines, answers {"pid": N}
"""

import json
import os
import signal
import subprocess
import sys
import threading

from tests.faults.procs import ROOT


def _serve():
    # what every hub start imports, imported once here (the children inherit it)
    import importlib
    import hub.cli.hub  # noqa: F401
    import hub.web.app  # noqa: F401
    import hub.web.server  # noqa: F401
    lumen = importlib.import_module("hub.cli.main").main     # hub.cli's own ``main`` is this function
    signal.signal(signal.SIGCHLD, lambda *_: _reap())
    for line in sys.stdin:
        job = json.loads(line)
        log = os.open(job["log"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        pid = os.fork()
        if pid == 0:
            try:
                signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                os.dup2(log, 1)
                os.dup2(log, 2)
                os.close(log)
                os.setsid()
                code = lumen(job["argv"])
            except SystemExit as e:
                code = e.code if isinstance(e.code, int) else 1
            except BaseException:
                import traceback
                traceback.print_exc()
                code = 1
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(code or 0)
        os.close(log)
        sys.stdout.write(json.dumps({"pid": pid}) + "\n")
        sys.stdout.flush()


def _reap():
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


class HubForks:
    """The server, from the test's side: ``start(argv, log) -> pid``, ``close()``."""

    def __init__(self):
        env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONPATH=ROOT)
        self.proc = subprocess.Popen([sys.executable, "-m", "tests.faults.hubfork"], cwd=ROOT, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.lock = threading.Lock()
        self.pids = set()

    def start(self, argv, log):
        with self.lock:
            self.proc.stdin.write(json.dumps({"argv": list(argv), "log": str(log)}) + "\n")
            self.proc.stdin.flush()
            pid = json.loads(self.proc.stdout.readline())["pid"]
            self.pids.add(pid)
            return pid

    def kill(self, pid):
        try:
            os.killpg(pid, signal.SIGKILL)      # the hub and its helpers (a bot's thinking process)
        except ProcessLookupError:
            pass
        self.pids.discard(pid)

    def close(self):
        for pid in list(self.pids):
            self.kill(pid)
        self.proc.stdin.close()
        self.proc.wait(30)


if __name__ == "__main__":
    _serve()
