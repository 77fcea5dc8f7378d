"""Check the built lumen-hub packages the way a store installs them (run by .ci/run, as root).

Both packages: their control fields, the files a Pi needs, the conffile, and machine code of
their own architecture only. The package of this machine's architecture is then installed
with apt, its ``lumen --version`` run, a real ``lumen hub`` started from the installed paths as
the ``lumen`` user with the packaged /etc/lumen/hub.toml (against a temporary record, as
systemd would: a notify socket that must see READY=1, then the display's /api/state, then a
WATCHDOG=1, then SIGINT), and it is removed and purged: nothing may stay but the documented
/var/lib/lumen. Without a running systemd (a container) the maintainer scripts must cope.

Issue 39: the units' ``systemd-analyze security`` scores are held at ``EXPOSURE``, the
installed config is 0640 root:lumen, and the installed unit is started by a real systemd
(one of its own where none runs: hub/deploy/unit_trial.py), its hardening on: it must serve,
hear a pod, play its bot, and refuse a device its list does not name.

    /usr/bin/python3 hub/deploy/check_deb.py DIR [--lintian]

Any failure exits non-zero with what was wrong. Stdlib only.
"""

import argparse
import grp
import os
import pwd
import re
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import tomllib
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# ELF e_machine values
MACHINE = {"amd64": 62, "arm64": 183}
NEEDED_FILES = [
    "./opt/lumen/venv/bin/lumen", "./opt/lumen/venv/bin/python", "./opt/lumen/venv/pyvenv.cfg",
    "./usr/bin/lumen", "./etc/lumen/hub.toml", "./lib/systemd/system/lumen-hub.service",
    "./lib/systemd/system/lumen-kiosk.service", "./lib/udev/rules.d/99-lumen-pods.rules",
    "./usr/libexec/lumen-hub/lumen-kiosk", "./usr/share/doc/lumen-hub/README.Debian",
    "./usr/lib/modules-load.d/lumen-hub.conf",
    "./opt/lumen/venv/lib/python3.11/site-packages/hub/web/static/index.html",
    # the game profiles: the tracker reads Lumen's at import (hub/sessions/tracker.py)
    "./opt/lumen/venv/lib/python3.11/site-packages/hub/profiles/data/lumen.yaml",
    "./opt/lumen/venv/lib/python3.11/site-packages/hub/profiles/data/cards/battlecon-sample.yaml",
    # and kept parsed (hub/profiles/parsed.py): without them the hub starts, but imports PyYAML to do it
    "./opt/lumen/venv/lib/python3.11/site-packages/hub/profiles/data/parsed.json",
    "./opt/lumen/venv/lib/python3.11/site-packages/hub/profiles/data/cards/parsed.json",
    "./opt/lumen/venv/lib/python3.11/site-packages/engine/data/sample/parsed.json",
    "./opt/lumen/venv/lib/python3.11/site-packages/engine/data/sample/decks/parsed.json",
]


class Failed(Exception):
    pass


def run(*cmd, check=True, **kw):
    out = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if check and out.returncode != 0:
        raise Failed("%s exited %d:\n%s%s" % (" ".join(cmd), out.returncode, out.stdout, out.stderr))
    return out


def expect(cond, what):
    if not cond:
        raise Failed(what)


def project_version():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["version"]


def elf_machines(tree):
    """{e_machine: [paths]} of every ELF file under tree."""
    found = {}
    for dirpath, _, files in os.walk(tree):
        for f in files:
            path = os.path.join(dirpath, f)
            if os.path.islink(path):
                continue
            with open(path, "rb") as fh:
                head = fh.read(20)
            if head[:4] == b"\x7fELF":
                found.setdefault(int.from_bytes(head[18:20], "little"), []).append(os.path.relpath(path, tree))
    return found


def check_package(deb, arch, version):
    fields = run("dpkg-deb", "--field", deb, "Package", "Version", "Architecture", "Depends").stdout
    expect("Package: lumen-hub\n" in fields and "Version: %s\n" % version in fields
           and "Architecture: %s\n" % arch in fields, "%s: wrong control fields:\n%s" % (deb, fields))
    expect(re.search(r"python3 \(>= 3\.11\), python3 \(<< 3\.12\)", fields), "%s: no python3 3.11 Depends" % deb)
    contents = run("dpkg-deb", "--contents", deb).stdout
    paths = {line.split()[5] for line in contents.splitlines()}
    modes = {line.split()[5]: line.split()[0] for line in contents.splitlines()}
    expect(modes.get("./etc/lumen/hub.toml") == "-rw-r-----", "%s: /etc/lumen/hub.toml is %s, not 0640"
           % (deb, modes.get("./etc/lumen/hub.toml")))
    missing = [p for p in NEEDED_FILES if p not in paths]
    expect(not missing, "%s lacks %s" % (deb, ", ".join(missing)))
    with tempfile.TemporaryDirectory() as tmp:
        run("dpkg-deb", "--control", deb, tmp)
        with open(os.path.join(tmp, "conffiles")) as f:
            expect(f.read().split() == ["/etc/lumen/hub.toml"], "%s: the conffile is not /etc/lumen/hub.toml" % deb)
        run("dpkg-deb", "--extract", deb, tmp + "/root")
        machines = elf_machines(tmp + "/root")
        foreign = {m: p for m, p in machines.items() if m != MACHINE[arch]}
        expect(not foreign, "%s carries machine code of another architecture: %s" % (deb, foreign))
        expect(MACHINE[arch] in machines, "%s carries no %s extension modules" % (deb, arch))
        unit = open(tmp + "/root/lib/systemd/system/lumen-hub.service").read()
        for line in ("Type=notify", "ExecStart=/opt/lumen/venv/bin/lumen hub --config /etc/lumen/hub.toml",
                     "ProtectSystem=strict", "PrivateTmp=yes", "StateDirectory=lumen", "NoNewPrivileges=yes",
                     "ProtectHome=yes", "LimitNOFILE=8192", "User=lumen", "CapabilityBoundingSet=",
                     "DevicePolicy=closed", "DeviceAllow=char-ttyACM rw", "SystemCallFilter=@system-service"):
            expect(re.search(r"^%s$" % re.escape(line), unit, re.M), "%s: the unit lacks %s" % (deb, line))
        expect(re.search(r"^WatchdogSec=\d+", unit, re.M), "%s: the unit has no WatchdogSec" % deb)
    print("check-deb: %s: fields, %d files, conffile, %s code only" % (os.path.basename(deb), len(paths), arch))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_and_stop(cmd, tmp, env, owner=None):
    """Run ``cmd`` (a ``lumen hub``) as systemd would: a notify socket that must see READY=1,
    then /api/state answers, then WATCHDOG=1; SIGINT (the unit's KillSignal) must end it with 0.
    Returns the seconds to READY=1."""
    sock_path = os.path.join(tmp, "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(sock_path)
    os.chmod(sock_path, 0o777)          # the lumen user sends to it, as to systemd's
    os.chmod(tmp, 0o755)
    sock.settimeout(300)                # an upper bound on waiting (qemu is slow), never a ruling on speed
    port = free_port()
    env = dict({"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "NOTIFY_SOCKET": sock_path, "WATCHDOG_USEC": "4000000",
                "PYTHONUNBUFFERED": "1", "LANG": "C.UTF-8"}, **env)
    cmd = cmd + ["--host", "127.0.0.1", "--port", str(port), "--no-mdns"]
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd, env=env, cwd="/", stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        ready = sock.recv(4096)
        expect(ready.startswith(b"READY=1"), "the hub's first notification was %r, not READY=1" % ready)
        took = time.monotonic() - t0
        with urllib.request.urlopen("http://127.0.0.1:%d/api/state" % port, timeout=60) as r:
            expect(r.status == 200, "/api/state answered %d" % r.status)
        expect(sock.recv(4096) == b"WATCHDOG=1", "no WATCHDOG=1 after READY=1")
        proc.send_signal(signal.SIGINT)
        rc = proc.wait(timeout=120)
        output = proc.stdout.read()
        expect(rc == 0, "the hub exited %d on SIGINT:\n%s" % (rc, output))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        sock.close()
    return took


def start_hub(tmp):
    """The installed hub as systemd starts it (user lumen, the packaged config), a temp record."""
    lumen = pwd.getpwnam("lumen")
    record = os.path.join(tmp, "record")
    os.mkdir(record)
    os.chown(record, lumen.pw_uid, lumen.pw_gid)
    # setpriv execs the hub itself (runuser would stay its parent and keep SIGINT from it)
    cmd = ["setpriv", "--reuid=lumen", "--regid=lumen", "--init-groups", "--", "/opt/lumen/venv/bin/lumen", "hub",
           "--config", "/etc/lumen/hub.toml", "--db", os.path.join(record, "games.sqlite3"),
           "--cards", os.path.join(record, "cards")]
    took = serve_and_stop(cmd, tmp, {"HOME": "/var/lib/lumen"})
    db = os.path.join(record, "games.sqlite3")
    expect(os.path.exists(db), "the hub wrote no record")
    expect(pwd.getpwuid(os.stat(db).st_uid).pw_name == "lumen", "the record is not the lumen user's")
    print("check-deb: the installed lumen hub (user lumen, /etc/lumen/hub.toml) was ready in %.1f s, answered "
          "/api/state, pinged the watchdog and stopped on SIGINT" % took)


def apt(*args):
    """apt-get, waiting while another apt on the machine holds its locks rather than failing
    (DPkg::Lock::Timeout covers dpkg's lock, not the archives' one)."""
    cmd = ("apt-get", "-y", "-qq", "-o", "DPkg::Lock::Timeout=900") + args
    deadline = time.monotonic() + 900
    while True:
        out = run(*cmd, check=False, env=dict(os.environ, DEBIAN_FRONTEND="noninteractive"))
        if out.returncode == 0:
            return out
        if "Could not get lock" not in out.stderr or time.monotonic() > deadline:
            raise Failed("%s exited %d:\n%s%s" % (" ".join(cmd), out.returncode, out.stdout, out.stderr))
        time.sleep(2)


def host_bytecode():
    """This machine's standard library bytecode: each .pyc with its size and time."""
    stdlib = sysconfig.get_paths()["stdlib"]
    found = {}
    for folder, _, files in os.walk(stdlib):
        for name in files:
            if name.endswith(".pyc"):
                path = os.path.join(folder, name)
                st = os.stat(path)
                found[path] = (st.st_size, st.st_mtime_ns)
    return found


def arm64_under_qemu(deb, version):
    """The arm64 package run on this machine: Debian's own arm64 Python 3.11 (fetched with a
    private apt state, the machine's untouched) and the package unpacked into one root, run by
    qemu-user; the hub must start, say READY=1, answer /api/state and ping the watchdog.

    qemu's ``-L root`` looks a path up in the root first and on this machine after, so a file
    the root lacks is this machine's: the arm64 Python, finding its standard library's bytecode
    missing from the root (Debian compiles it at install, not in the package), wrote its own
    into this machine's /usr/lib/python3.11, made from the root's sources: this machine's Python
    then found its bytecode stale and compiled its standard library at every start (~2 G
    instructions more for ``import fastapi``) until something compiled it again. The arm64 runs
    write no bytecode (their Python reads what the package compiled), and the check says if
    anything of this machine's changed."""
    if not shutil.which("qemu-aarch64-static"):
        apt("install", "--no-install-recommends", "qemu-user-static")
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("lists/partial", "archives/partial", "cache", "root", "record"):
            os.makedirs(os.path.join(tmp, d))
        open(os.path.join(tmp, "status"), "w").close()
        conf = os.path.join(tmp, "apt.conf")
        with open(conf, "w") as f:
            f.write('APT::Architecture "arm64"; APT::Architectures { "arm64"; };\n'
                    'Dir::State::Lists "%(t)s/lists"; Dir::State::status "%(t)s/status"; Dir::Cache "%(t)s/cache";\n'
                    'Dir::Cache::archives "%(t)s/archives"; Debug::NoLocking "true";\n' % {"t": tmp})
        env = dict(os.environ, APT_CONFIG=conf, DEBIAN_FRONTEND="noninteractive")
        run("apt-get", "-qq", "update", env=env)
        run("apt-get", "-qq", "-y", "--download-only", "--no-install-recommends", "install", "python3-minimal",
            "python3.11", "libpython3.11-stdlib", "libstdc++6", "libgcc-s1", env=env)
        archives = os.path.join(tmp, "archives")
        root = os.path.join(tmp, "root")
        for f in sorted(os.listdir(archives)):
            if f.endswith(".deb"):
                run("dpkg-deb", "--extract", os.path.join(archives, f), root)
        run("dpkg-deb", "--extract", deb, root)
        # argv[0] is the venv's python (its pyvenv.cfg found through qemu's -L root); the
        # symlink itself points at the host's /usr/bin/python3, which qemu would open
        qemu = ["qemu-aarch64-static", "-L", root, "-0", "/opt/lumen/venv/bin/python", root + "/usr/bin/python3.11"]
        before = host_bytecode()
        out = run(*qemu, "/opt/lumen/venv/bin/lumen", "--version",
                  env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1")).stdout
        expect(out == "lumen %s\n" % version, "arm64: lumen --version printed %r" % out)
        record = os.path.join(tmp, "record")
        took = serve_and_stop(qemu + ["/opt/lumen/venv/bin/lumen", "hub", "--config", root + "/etc/lumen/hub.toml",
                                      "--db", record + "/games.sqlite3", "--cards", record + "/cards"],
                              tmp, {"HOME": record, "PYTHONDONTWRITEBYTECODE": "1"})
        after = host_bytecode()
        changed = sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))
        expect(not changed, "arm64: the run under qemu changed %d of this machine's bytecode files (%s)"
               % (len(changed), ", ".join(changed[:5])))
    print("check-deb: the arm64 package under qemu-user (Debian's arm64 Python %s): lumen --version, and "
          "lumen hub ready in %.0f s, answered /api/state, pinged the watchdog, stopped on SIGINT" % ("3.11", took))


def dpkg_installed():
    return run("dpkg-query", "-W", "-f=${Status}", "lumen-hub", check=False).stdout.endswith(" installed")


def install_cycle(deb, version):
    if dpkg_installed() or run("dpkg-query", "-W", "lumen-hub", check=False).returncode == 0:
        apt("purge", "lumen-hub")                      # a run that failed half-way left it
    expect(not _user_exists(), "a lumen user exists that the package did not make: not touching it")
    if os.path.isdir("/var/lib/lumen"):
        expect(not os.listdir("/var/lib/lumen"), "/var/lib/lumen holds a record: not installing over it here")
    before = set()
    for line in run("dpkg-deb", "--contents", deb).stdout.splitlines():
        p = os.path.normpath(line.split()[5].lstrip("."))
        if os.path.lexists(p):
            before.add(p)
    apt("install", "--no-install-recommends", os.path.abspath(deb))
    expect(dpkg_installed(), "lumen-hub is not installed after apt-get install")
    out = run("/usr/bin/lumen", "--version").stdout
    expect(out == "lumen %s\n" % version, "lumen --version printed %r" % out)
    lumen = pwd.getpwnam("lumen")
    expect(lumen.pw_dir == "/var/lib/lumen" and lumen.pw_shell == "/usr/sbin/nologin", "the lumen user: %s" % (lumen,))
    expect("lumen" in grp.getgrnam("dialout").gr_mem, "lumen is not in dialout")
    st = os.stat("/var/lib/lumen")
    expect(st.st_uid == lumen.pw_uid and st.st_mode & 0o777 == 0o750, "/var/lib/lumen is not lumen's, 0750")
    expect(os.path.islink("/etc/systemd/system/multi-user.target.wants/lumen-hub.service"), "lumen-hub not enabled")
    expect(not os.path.lexists("/etc/systemd/system/multi-user.target.wants/lumen-kiosk.service"),
           "the kiosk is enabled: it must be off by default")
    if shutil.which("systemd-analyze"):
        out = run("systemd-analyze", "verify", "/lib/systemd/system/lumen-hub.service",
                  "/lib/systemd/system/lumen-kiosk.service", check=False)
        problems = [line for line in (out.stdout + out.stderr).splitlines() if "lumen" in line]
        expect(not problems, "systemd-analyze verify: %s" % "\n".join(problems))
    conf = os.stat("/etc/lumen/hub.toml")
    expect(conf.st_mode & 0o777 == 0o640 and conf.st_uid == 0 and grp.getgrgid(conf.st_gid).gr_name == "lumen",
           "/etc/lumen/hub.toml is not 0640 root:lumen (it may hold the broker's password)")
    security_scores("/lib/systemd/system")
    import unit_trial
    try:
        print(unit_trial.run(expect))
    except unit_trial.Unavailable as e:
        if os.environ.get("CI") == "true":
            raise Failed("the unit trial can't run on CI: %s" % e) from None
        print("check-deb: the unit trial was not run (%s)" % e)
    listed = [os.path.normpath(p) for p in run("dpkg", "-L", "lumen-hub").stdout.splitlines() if p.startswith("/")]
    with tempfile.TemporaryDirectory() as tmp:
        start_hub(tmp)
    out = run("dpkg", "--verify", "lumen-hub", check=False)
    expect(out.stdout.strip() == "", "the run changed the package's files:\n%s" % out.stdout)
    expect(not os.listdir("/var/lib/lumen"), "the test run wrote into /var/lib/lumen")

    apt("remove", "lumen-hub")
    expect(not os.path.exists("/opt/lumen/venv") and not os.path.lexists("/usr/bin/lumen"), "remove left the hub")
    expect(os.path.exists("/etc/lumen/hub.toml") and _user_exists() and os.path.isdir("/var/lib/lumen"),
           "remove must keep the config, the user and the record")
    apt("purge", "lumen-hub")
    expect(not _user_exists(), "purge left the lumen user")
    expect(not _group_exists(), "purge left the lumen group")
    left = [p for p in listed if p not in before and os.path.lexists(p)]
    left += [p for p in ("/etc/lumen", "/opt/lumen", "/var/cache/lumen-kiosk",
                         "/etc/systemd/system/multi-user.target.wants/lumen-hub.service",
                         "/var/lib/systemd/deb-systemd-helper-enabled/lumen-hub.service.dsh-also")
             if os.path.lexists(p)]
    expect(not left, "purge left %s" % ", ".join(left))
    expect(os.path.isdir("/var/lib/lumen"), "purge deleted the record's directory (it must keep it)")
    os.rmdir("/var/lib/lumen")          # empty: this check's own, not a store's record
    print("check-deb: installed, ran, removed (config, user and record kept), purged (only /var/lib/lumen kept)")


#: the most exposure ``systemd-analyze security`` may give each unit (issue 39; the scores when it
#: was set: 1.6 and 4.5). docs/raspberry-pi.md says what each remaining exposure is for
EXPOSURE = {"lumen-hub.service": 2.0, "lumen-kiosk.service": 5.0}


def security_scores(folder):
    """Each unit's ``systemd-analyze security --offline=true`` score, held at EXPOSURE."""
    if not shutil.which("systemd-analyze"):
        raise Failed("systemd-analyze is missing (Debian's systemd package: .ci/run installs it)")
    for unit, most in EXPOSURE.items():
        out = run("systemd-analyze", "security", "--offline=true", "--no-pager", os.path.join(folder, unit),
                  check=False)
        m = re.search(r"Overall exposure level for %s: (\d+\.\d+) (\w+)" % re.escape(unit), out.stdout + out.stderr)
        expect(m, "systemd-analyze security gave no score for %s:\n%s%s" % (unit, out.stdout, out.stderr))
        expect(float(m.group(1)) <= most, "%s is exposed %s (%s), over the %.1f it is held at:\n%s"
               % (unit, m.group(1), m.group(2), most, out.stdout))
        print("check-deb: systemd-analyze security %s: %s %s (held at %.1f)" % (unit, m.group(1), m.group(2), most))


def _user_exists():
    try:
        pwd.getpwnam("lumen")
        return True
    except KeyError:
        return False


def _group_exists():
    try:
        grp.getgrnam("lumen")
        return True
    except KeyError:
        return False


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir", help="where build-deb.sh put the packages")
    ap.add_argument("--arm64-qemu", action="store_true",
                    help="also run the arm64 package's hub under qemu-user (installs qemu-user-static; ~1 min)")
    ap.add_argument("--lintian", action="store_true", help="also run lintian on both (slow: ~30 s a package)")
    args = ap.parse_args()
    t0 = time.monotonic()
    version = project_version()
    host = run("dpkg", "--print-architecture").stdout.strip()
    try:
        for arch in ("amd64", "arm64"):
            deb = os.path.join(args.dir, "lumen-hub_%s_%s.deb" % (version, arch))
            expect(os.path.exists(deb), "no %s" % deb)
            check_package(deb, arch, version)
            if args.lintian:
                out = run("lintian", "--fail-on", "error,warning", deb, check=False)
                expect(out.returncode == 0, "lintian %s:\n%s%s" % (deb, out.stdout, out.stderr))
                print("check-deb: lintian %s: clean" % os.path.basename(deb))
        expect(os.geteuid() == 0, "installing needs root")
        install_cycle(os.path.join(args.dir, "lumen-hub_%s_%s.deb" % (version, host)), version)
        if args.arm64_qemu:
            arm64_under_qemu(os.path.join(args.dir, "lumen-hub_%s_arm64.deb" % version), version)
    except Failed as e:
        print("check-deb: FAILED: %s" % e, file=sys.stderr)
        return 1
    print("check-deb: all checks passed in %.0f s" % (time.monotonic() - t0))
    return 0


if __name__ == "__main__":
    sys.exit(main())
