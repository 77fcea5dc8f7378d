"""The installed lumen-hub unit run by a real systemd, its hardening on (issue 39): run by
check_deb.py (as root, after the package is installed), stdlib only.

A machine without a running systemd (a container, CI) gets one of its own: ``/lib/systemd/
systemd`` as PID 1 of new mount, pid and cgroup namespaces, shown only a cgroup subtree made
for it. It must change nothing of the machine it runs on (a first try of this trial started
sysinit.target with the hub, whose systemd-tmpfiles emptied the machine's /tmp), so in its
namespace the whole file system is read-only but the hub's record folder, /run, /tmp and
/var/tmp are its own empty tmpfs, /proc/sys and /sys are read-only, every unit of the boot
(sysinit.target and what it pulls in) is masked, the hub's unit runs without its default
dependencies, and the trial checks afterwards that no other unit ran and that a file it left in
the machine's /tmp is still there.
The package's unit is started there as ``systemctl start lumen-hub`` starts it (Type=notify:
systemd waits for READY=1), with a drop-in for what a trial changes: its record, a free port,
a bot in 2P (its thinking process is spawned under the unit's system call filter and
MemoryDenyWriteExecute=), and the pod's port.

The pod: a pseudo terminal whose far end says a pod's hello, as a pod on USB does; the hub is
given it as --serial. DevicePolicy=closed lets a service have pseudo terminals (systemd adds
char-pts to every device list), so the hub must hear it and, in the game it opens, play its bot
(the bot's thinking process spawned under the unit's system call filter and
MemoryDenyWriteExecute=). The device list itself: the unit names the pods' class, char-ttyACM
(USB CDC-ACM), which this machine may not have (no cdc_acm driver: systemd can't resolve it).
So a serial device of a class it does have (ttyS, a node made in the trial's own /run) stands
for the pods': without that class in the list the hub may not open it (the device policy's
EPERM), with it added by a drop-in the policy lets it through.
"""

import json
import os
import select
import shutil
import socket
import stat
import subprocess
import tempfile
import threading
import time
import urllib.request

#: the only folder of the machine the trial writes (the hub's record, removed afterwards)
WRITABLE = "/var/lib/lumen"
#: the boot's units, masked in the trial: none may run against the machine (its /tmp, sysctl, udev)
MASKED = ("sysinit.target", "basic.target", "local-fs.target", "swap.target", "sockets.target", "timers.target",
          "paths.target", "slices.target", "network.target", "network-online.target", "network-pre.target",
          "nss-lookup.target", "nss-user-lookup.target", "remote-fs.target", "cryptsetup.target", "getty.target",
          "multi-user.target", "graphical.target", "systemd-tmpfiles-setup.service",
          "systemd-tmpfiles-setup-dev.service", "systemd-tmpfiles-clean.service", "systemd-tmpfiles-clean.timer",
          "systemd-sysctl.service", "systemd-udevd.service", "systemd-udev-trigger.service",
          "systemd-udev-settle.service", "systemd-modules-load.service", "systemd-remount-fs.service",
          "systemd-random-seed.service", "systemd-journald.service", "systemd-journald.socket",
          "systemd-journald-dev-log.socket", "systemd-journald-audit.socket", "systemd-update-utmp.service",
          "systemd-binfmt.service", "systemd-machine-id-commit.service", "systemd-user-sessions.service",
          "systemd-logind.service", "dbus.service", "dbus.socket", "systemd-timesyncd.service",
          "systemd-networkd.service", "systemd-resolved.service", "dev-hugepages.mount",
          "dev-mqueue.mount", "sys-kernel-debug.mount", "sys-kernel-tracing.mount", "sys-fs-fuse-connections.mount",
          "sys-kernel-config.mount", "proc-sys-fs-binfmt_misc.automount", "kmod-static-nodes.service",
          "systemd-fsck-root.service", "systemd-hwdb-update.service", "systemd-sysusers.service",
          "ldconfig.service", "systemd-firstboot.service", "e2scrub_reap.service", "mosquitto.service",
          "postgresql.service", "cron.service", "ssh.service")
#: what may be active in the trial beside lumen-hub (its own target, slices, mounts, the manager)
EXPECTED = ("lumen-hub.service", "init.scope", "-.slice", "system.slice")
HELLO_CODE = r"""
from hub.pods.protocol import Message, encode, PROTO
import sys
sys.stdout.buffer.write(encode(Message("hello", {"proto": PROTO, "fw_major": 0, "fw_minor": 4, "fw_patch": 0,
    "boot": 1, "epoch": 1, "board_id": bytes.fromhex("e66038b7133c7a99"), "pixels": 16, "features": 0})))
"""


class Unavailable(Exception):
    """This machine can't run a systemd of its own (said, not failed: the checks before ran)."""


def _run(*cmd, check=True, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if check and r.returncode != 0:
        raise RuntimeError("%s exited %d: %s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr))
    return r


class PrivateSystemd:
    """``with PrivateSystemd() as sd: sd.ctl("start", "lumen-hub")``."""

    def __init__(self, name="lumen-trial"):
        self.name = name
        self.dir = tempfile.mkdtemp(prefix="lumen-systemd-")
        self.proc = None
        self.pid = None
        self.cgroups = []

    def __enter__(self):
        if not os.path.exists("/lib/systemd/systemd") or not shutil.which("unshare") or not shutil.which("nsenter"):
            raise Unavailable("no /lib/systemd/systemd, unshare or nsenter")
        hierarchies = _hierarchies()
        if not hierarchies:
            raise Unavailable("no cgroup hierarchy under /sys/fs/cgroup")
        v1 = any(h for h, _ in hierarchies)
        os.makedirs(WRITABLE, exist_ok=True)
        lines = ["set -e", "mount --make-rprivate /"]
        for h, mine in hierarchies:
            # a child of this process's own cgroup in every hierarchy: the new systemd's whole world
            path = os.path.join("/sys/fs/cgroup", h, mine.lstrip("/"), self.name)
            os.makedirs(path, exist_ok=True)
            self.cgroups.append(path)
            for knob in ("cpuset.cpus", "cpuset.mems"):    # a v1 cpuset child starts with none: its parent's
                if os.path.exists(os.path.join(path, knob)):
                    with open(os.path.join(os.path.dirname(path), knob)) as f, open(os.path.join(path, knob), "w") as g:
                        g.write(f.read())
            os.makedirs(os.path.join(self.dir, "cg", h or "root"), exist_ok=True)
            lines.append("mount --bind %s %s/cg/%s" % (path, self.dir, h or "root"))
        # nothing of the machine is written from here on but the record folder
        lines += ["mount --bind %s %s" % (WRITABLE, WRITABLE),
                  "mount -o remount,bind,ro /",
                  "mount --bind /proc/sys /proc/sys", "mount -o remount,bind,ro /proc/sys",
                  "mount --bind /sys /sys", "mount -o remount,bind,ro /sys"]
        if v1:
            lines.append("mount -t tmpfs cgroup_root /sys/fs/cgroup")
            for h, _ in hierarchies:
                lines += ["mkdir -p /sys/fs/cgroup/%s" % h, "mount --bind %s/cg/%s /sys/fs/cgroup/%s" % (self.dir, h, h)]
        else:
            lines.append("mount --bind %s/cg/root /sys/fs/cgroup" % self.dir)
        for d in ("/run", "/tmp", "/var/tmp"):      # last: this script's own folder is in the machine's /tmp
            lines.append("mount -t tmpfs -o mode=1777 tmpfs %s" % d)
        lines += ["mkdir -p /run/systemd/system /run/lock"]
        lines += ["ln -s /dev/null /run/systemd/system/%s" % u for u in MASKED]
        lines += ["printf '[Unit]\\nDescription=lumen-hub unit trial\\nDefaultDependencies=no\\n' > "
                  "/run/systemd/system/%s.target" % self.name,
                  "export container=%s" % self.name,
                  "exec /lib/systemd/systemd --system --unit=%s.target" % self.name]
        boot = os.path.join(self.dir, "boot.sh")
        with open(boot, "w") as f:
            f.write("\n".join(lines) + "\n")
        procs = " ".join("echo $$ > %s/cgroup.procs;" % p for p in self.cgroups)
        self.proc = subprocess.Popen(["sh", "-c", "%s exec unshare --cgroup --pid --fork --mount --mount-proc -- sh %s"
                                      % (procs, boot)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                     stdin=subprocess.DEVNULL)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            self.pid = self._pid1()
            if self.pid and self.ctl("is-system-running", check=False).stdout.strip() in ("running", "degraded"):
                return self
            if self.proc.poll() is not None:
                break
            time.sleep(0.2)
        err = self.proc.stderr.read() if self.proc.poll() is not None else ""
        self.__exit__()
        raise Unavailable("a systemd of its own did not come up here: %s" % err.strip()[:300])

    def _pid1(self):
        """The trial's systemd (PID 1 inside), as the machine numbers it."""
        for pid in os.listdir("/proc"):
            if pid.isdigit():
                try:
                    with open("/proc/%s/cmdline" % pid, "rb") as f:
                        if f.read().startswith(b"/lib/systemd/systemd\0--system\0--unit=%s.target" % self.name.encode()):
                            return int(pid)
                except OSError:
                    continue
        return None

    def ctl(self, *args, check=True):
        return _run("nsenter", "-t", str(self.pid), "-m", "-p", "systemctl", *args, check=check)

    def path(self, p):
        """A path of the trial's own mounts (its /run), seen from here."""
        return "/proc/%d/root%s" % (self.pid, p)

    def __exit__(self, *exc):
        if self.pid:
            try:
                os.kill(self.pid, 9)        # PID 1 of its namespace: everything in it goes with it
            except ProcessLookupError:
                pass
        if self.proc is not None:
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        for path in reversed(self.cgroups):
            for _ in range(100):        # the namespace's processes leave their cgroups as they die
                try:
                    _remove_cgroup(path)
                    break
                except OSError:
                    time.sleep(0.1)
        shutil.rmtree(self.dir, ignore_errors=True)


def _hierarchies():
    """[(the hierarchy's folder under /sys/fs/cgroup, "" for a cgroup2-only machine; this
    process's cgroup in it)], from /proc/self/mountinfo and /proc/self/cgroup."""
    mine = {}
    with open("/proc/self/cgroup") as f:
        for line in f:
            _, controllers, path = line.rstrip("\n").split(":", 2)
            mine[frozenset(controllers.split(",")) if controllers else None] = path
    out = []
    with open("/proc/self/mountinfo") as f:
        for line in f:
            fields = line.split()
            point = fields[4]
            sep = fields.index("-")
            fstype, options = fields[sep + 1], fields[sep + 3]
            if not point.startswith("/sys/fs/cgroup"):
                continue
            if fstype == "cgroup":
                opts = set(options.split(","))
                path = next((p for keys, p in mine.items() if keys and keys <= opts), None)
                if path is not None:
                    out.append((os.path.relpath(point, "/sys/fs/cgroup"), path))
            elif fstype == "cgroup2":
                if point == "/sys/fs/cgroup":
                    return [("", mine.get(None, "/"))]      # cgroup2 only
                out.append((os.path.relpath(point, "/sys/fs/cgroup"), mine.get(None, "/")))
    return out


def _remove_cgroup(path):
    for entry in sorted(os.listdir(path), reverse=True):
        sub = os.path.join(path, entry)
        if os.path.isdir(sub):
            _remove_cgroup(sub)
    os.rmdir(path)


class FakePod:
    """A pty whose far end says a pod's hello every half second (what a pod does until it is
    welcomed); the hub is given the near end as --serial."""

    def __init__(self, hello, owner):
        self.master, slave = os.openpty()
        self.path = os.ttyname(slave)
        os.close(slave)
        os.chown(self.path, owner.pw_uid, owner.pw_gid)
        self.hello = hello
        self.stop = threading.Event()
        threading.Thread(target=self._say, daemon=True).start()

    def _say(self):
        while not self.stop.wait(0.5):
            try:
                os.write(self.master, self.hello)
                while True:             # what the hub answers is not read: drop it so it never blocks
                    if not select.select([self.master], [], [], 0)[0]:
                        break
                    os.read(self.master, 4096)
            except OSError:
                pass

    def close(self):
        self.stop.set()
        os.close(self.master)


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _dropin(sd, lines):
    """The trial's changes to the unit: its start without the boot's units (masked here), and
    ``lines`` of [Service]."""
    d = sd.path("/run/systemd/system/lumen-hub.service.d")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "trial.conf"), "w") as f:
        f.write("[Unit]\nDefaultDependencies=no\n[Service]\n" + "\n".join(lines) + "\n")
    sd.ctl("daemon-reload")


def _only_the_hub_ran(sd, expect):
    """No service but the hub's ran in the trial (the boot's are masked: none may touch the machine)."""
    out = sd.ctl("list-units", "--all", "--type=service", "--no-legend", "--plain", "--no-pager").stdout
    ran = [line.split()[0] for line in out.splitlines() if line.split() and line.split()[0] != "lumen-hub.service"
           and line.split()[2] != "inactive"]
    expect(not ran, "the trial's systemd ran other services: %s" % ran)


def _wait(cond, what, log=None, timeout=120):
    """Wait for ``cond()``; ``log()``: what to show when it never comes."""
    end = time.monotonic() + timeout        # a bound on a broken run, never a ruling on speed
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(0.2)
    raise RuntimeError("timed out waiting for %s%s" % (what, (":\n" + log()) if log else ""))


def run(expect, say=print):
    """The trial: ``expect(cond, what)`` fails the check; returns a line to say, or raises
    Unavailable when this machine can't run a systemd of its own."""
    import pwd
    lumen = pwd.getpwnam("lumen")
    hello = subprocess.run(["/opt/lumen/venv/bin/python", "-c", HELLO_CODE], capture_output=True, check=True).stdout
    trial = "/var/lib/lumen/unit-trial"
    os.makedirs(trial, exist_ok=True)
    os.chown(trial, lumen.pw_uid, lumen.pw_gid)
    canary = tempfile.NamedTemporaryFile(prefix="lumen-trial-canary-", dir="/tmp")     # the machine's /tmp
    pod = FakePod(hello, lumen)
    stand_in = "/run/lumen-trial-serial"           # char 4:64 (ttyS0), made in the trial's own /run
    try:
        with PrivateSystemd() as sd:
            log = sd.path("/run/lumen-trial.log")
            os.mknod(sd.path(stand_in), 0o660 | stat.S_IFCHR, os.makedev(4, 64))
            os.chown(sd.path(stand_in), lumen.pw_uid, lumen.pw_gid)
            port = _free_port()
            base = ["ExecStart=",
                    "ExecStart=/opt/lumen/venv/bin/lumen hub --config /etc/lumen/hub.toml --db %s/games.sqlite3 "
                    "--cards %s/cards --host 127.0.0.1 --port %d --no-mdns --mode referee --bot b --serial %s "
                    "--serial %s" % (trial, trial, port, pod.path, stand_in),
                    "StandardOutput=append:/run/lumen-trial.log", "StandardError=inherit"]
            text = lambda: open(log, encoding="utf-8", errors="replace").read()    # noqa: E731
            # 1. the unit as packaged: it starts, serves, hears the pod, plays its bot, and may
            #    not open the serial device of a class its list does not name
            _dropin(sd, base)
            t0 = time.monotonic()
            sd.ctl("start", "lumen-hub")        # Type=notify: returns once the hub said READY=1
            took = time.monotonic() - t0
            with urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=60) as r:
                expect(r.status == 200, "the hub under its unit did not answer /api/state")
            _wait(lambda: "e66038b7133c7a99" in text() and "pod connected" in text(), "the hub to hear the pod", text)

            def bot_locked():
                with urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=60) as r:
                    st = json.load(r)
                return (((st.get("display") or {}).get("ready") or {}).get("b") or {}).get("locked")
            _wait(bot_locked, "the bot's ready (its thinking process under the unit's filters)", text)
            expect("greedy answer instead" not in text() and "search failed" not in text(),
                   "the bot's thinking process failed under the unit:\n%s" % text())
            _wait(lambda: "cannot open pod port %s" % stand_in in text(), "the refusal of the unlisted device", text)
            refusal = next(line for line in text().splitlines() if "cannot open pod port %s" % stand_in in line)
            expect("Operation not permitted" in refusal, "the device was refused for another reason: %s" % refusal)
            main = sd.ctl("show", "lumen-hub", "-p", "MainPID", "--value").stdout.strip()
            status = open(sd.path("/proc/%s/status" % main)).read() if main.isdigit() else ""
            expect("CapEff:\t0000000000000000" in status and "Seccomp:\t2" in status and "NoNewPrivs:\t1" in status,
                   "the hub does not run with the unit's hardening:\n%s" % status)
            record = os.path.join(trial, "games.sqlite3")
            expect(os.stat(record).st_mode & 0o077 == 0, "the record is readable by others: %o" % os.stat(record).st_mode)
            sd.ctl("stop", "lumen-hub")
            expect("Traceback" not in text(), "the hub under its unit:\n%s" % text())
            # 2. that class added to the device list (as char-ttyACM is for the pods): let through
            open(log, "w").close()
            _dropin(sd, base + ["DeviceAllow=char-ttyS rw"])
            sd.ctl("start", "lumen-hub")
            _wait(lambda: "pod port opened: %s" % stand_in in text() or "cannot open pod port %s" % stand_in in text(),
                  "the listed device's open", text)
            expect("Operation not permitted" not in text(), "a listed device was refused:\n%s" % text())
            sd.ctl("stop", "lumen-hub")
            expect("Traceback" not in text(), "the hub under its unit:\n%s" % text())
            _only_the_hub_ran(sd, expect)
        expect(os.path.exists(canary.name), "the trial touched the machine's /tmp")
    finally:
        pod.close()
        canary.close()
        shutil.rmtree(trial, ignore_errors=True)
    return ("unit-trial: the installed unit under a systemd of its own: ready (READY=1) in %.1f s, no capability, "
            "seccomp on, no new privileges, the record 0600; the pod heard, its bot played; a serial device of a class "
            "the device list does not name refused (EPERM), let through once the class is in the list" % took)
