"""Instruction counts for the benches: figures a noisy, shared machine cannot spoil.

A bench runs its measured work in a worker process and brackets each phase with
``mark("begin", name)`` / ``mark("end", name)``. The driver (``run_worker``) starts the
worker under a counter and, at each mark, zeroes or reads it while the worker waits on
its stdin, so a phase counts exactly the worker's instructions between its two marks
(every thread of the process; child processes such as the simulated pods are not
counted). Counters, the first that works here:

* ``callgrind``: ``valgrind --tool=callgrind`` (the worker runs ~50x slower; counts are
  the same on any x86-64 machine for the same Python build), zeroed and dumped with
  ``callgrind_control``;
* ``perf``: ``perf stat -e instructions:u`` attached to the worker for the phase (needs
  hardware counters: most VMs have none);
* none: the worker still runs and reports its wall times; counts are None.

``LUMEN_BENCH_KEEP=DIR`` keeps each phase's callgrind dump as ``DIR/NAME.callgrind`` (read it
with ``callgrind_annotate --inclusive=yes``: where a figure's instructions went).

Worker protocol (stdout lines): ``@mark begin NAME`` / ``@mark end NAME`` (then the
worker reads one line from stdin before going on), ``@info KEY JSON`` for figures the
worker measured itself (units done, wall seconds, bytes).
"""

import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# The running interpreter as it was started: a venv's bin/python is a symlink whose path is
# what makes Python find the venv (its pyvenv.cfg), so it must not be resolved (realpath gave
# the base interpreter: "No module named fastapi" from a venv). sys.executable is never a
# pyenv shim (the shim is a shell script that exec'd this binary), so valgrind counts Python.
PYTHON = os.environ.get("LUMEN_BENCH_PYTHON") or sys.executable or shutil.which("python3") or "python3"


def interpreter():
    """Which Python the workers run, said plainly: the counts differ between builds (issue 36:
    Debian's python3, PGO and LTO, what Raspberry Pi OS ships, does the same work in 8.5-12 %
    fewer instructions than a pyenv build). A venv is named by its base interpreter."""
    try:
        out = subprocess.run([PYTHON, "-c", "import sys, platform; print(sys.base_prefix); print(platform.python_version())"],
                             capture_output=True, text=True, timeout=60).stdout.split()
        base, version = out[0], out[1]
    except (OSError, subprocess.SubprocessError, IndexError):
        return "Python %s (%s)" % (sys.version.split()[0], PYTHON)
    venv = " in a venv" if os.path.exists(os.path.join(os.path.dirname(os.path.dirname(PYTHON)), "pyvenv.cfg")) else ""
    if base == "/usr":
        return "Debian's python3 %s%s (as on Raspberry Pi OS)" % (version, venv)
    if "pyenv" in base:
        return "pyenv's CPython %s%s (not the Pi's build: LUMEN_BENCH_PYTHON=.venv/bin/python3 for Debian's)" % (version, venv)
    return "CPython %s from %s%s" % (version, base, venv)


def counter():
    """Which counter works on this machine: "callgrind", "perf" or None."""
    if os.environ.get("LUMEN_BENCH_COUNTER") == "none":
        return None
    if shutil.which("valgrind") and shutil.which("callgrind_control"):
        return "callgrind"
    if shutil.which("perf"):
        try:
            r = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u", "true"],
                               capture_output=True, text=True, timeout=30)
            if r.returncode == 0 and "not supported" not in r.stderr and "<not counted>" not in r.stderr:
                return "perf"
        except (OSError, subprocess.SubprocessError):
            pass
    return None


# ---------------------------------------------------------------- worker side

def in_worker():
    return os.environ.get("LUMEN_BENCH_WORKER") == "1"


def mark(edge, name):
    """Bracket a phase (``edge`` "begin" or "end"); waits for the driver when run by one."""
    if not in_worker():
        return
    sys.stdout.write("@mark %s %s\n" % (edge, name))
    sys.stdout.flush()
    sys.stdin.readline()


def info(key, value):
    if in_worker():
        sys.stdout.write("@info %s %s\n" % (key, json.dumps(value)))
        sys.stdout.flush()


# ---------------------------------------------------------------- driver side

class _Callgrind:
    def __init__(self):
        self.dir = tempfile.mkdtemp(prefix="lumen-cg-")
        self.seen = set()

    def argv(self, cmd):
        return ["valgrind", "--tool=callgrind", "-q", "--callgrind-out-file=%s/cg.%%p" % self.dir] + cmd

    def begin(self, pid):
        subprocess.run(["callgrind_control", "-z", str(pid)], check=True, capture_output=True, timeout=600)

    def end(self, pid, name):
        subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True, timeout=600)
        new = [f for f in glob.glob(os.path.join(self.dir, "cg.%d.*" % pid)) if f not in self.seen]
        if len(new) != 1:
            raise RuntimeError("expected one new callgrind dump, found %r" % new)
        self.seen.update(new)
        keep = os.environ.get("LUMEN_BENCH_KEEP")
        if keep:
            os.makedirs(keep, exist_ok=True)
            shutil.copy(new[0], os.path.join(keep, "%s.callgrind" % name))
        with open(new[0]) as f:
            for line in f:
                if line.startswith("totals:") or line.startswith("summary:"):
                    return int(line.split()[1])
        raise RuntimeError("no totals in %s" % new[0])

    def close(self):
        shutil.rmtree(self.dir, ignore_errors=True)


class _Perf:
    def __init__(self):
        self.proc = None
        self.out = None

    def argv(self, cmd):
        return cmd

    def begin(self, pid):
        self.out = tempfile.NamedTemporaryFile(prefix="lumen-perf-", suffix=".csv", delete=False).name
        self.proc = subprocess.Popen(["perf", "stat", "-x,", "-e", "instructions:u", "-o", self.out, "-p", str(pid)],
                                     stderr=subprocess.DEVNULL)
        time.sleep(0.2)     # perf attaches asynchronously

    def end(self, pid, name):
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(60)
        with open(self.out) as f:
            for line in f:
                parts = line.strip().split(",")
                if len(parts) > 2 and parts[2].startswith("instructions"):
                    os.unlink(self.out)
                    return int(parts[0])
        raise RuntimeError("perf printed no instruction count")

    def close(self):
        pass


def run_worker(script, args, count=True, timeout=4 * 3600):
    """Run ``python3 script *args`` as a worker. Returns (counts, infos): counts maps each
    phase name to its instructions (None without a counter), infos the worker's @info."""
    kind = counter() if count else None
    c = {"callgrind": _Callgrind, "perf": _Perf}.get(kind, lambda: None)()
    cmd = [PYTHON, script] + list(args)
    env = dict(os.environ, LUMEN_BENCH_WORKER="1")
    proc = subprocess.Popen(c.argv(cmd) if c else cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                            env=env)
    counts, infos = {}, {}
    end = time.monotonic() + timeout
    try:
        for line in proc.stdout:
            if time.monotonic() > end:
                raise RuntimeError("worker %s %s took longer than %d s" % (script, args, timeout))
            if line.startswith("@info "):
                _, key, value = line.rstrip("\n").split(" ", 2)
                infos[key] = json.loads(value)
                continue
            if not line.startswith("@mark "):
                sys.stdout.write("  [worker] " + line)
                continue
            _, edge, name = line.split()
            if c is not None:
                if edge == "begin":
                    c.begin(proc.pid)
                else:
                    counts[name] = c.end(proc.pid, name)
            else:
                counts[name] = None
            proc.stdin.write("\n")
            proc.stdin.flush()
        rc = proc.wait(timeout=120)
        if rc != 0:
            raise RuntimeError("worker %s %s exited with %d" % (script, args, rc))
    finally:
        if proc.poll() is None:
            proc.kill()
        if c is not None:
            c.close()
    return counts, infos


def fmt(n, unit="instructions"):
    """1234567 -> '1.23 M instructions' (None -> 'not counted')."""
    if n is None:
        return "(not counted)"
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if abs(n) >= div:
            return "%.2f %s %s" % (n / div, suffix, unit)
    return "%d %s" % (n, unit)
