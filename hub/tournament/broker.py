"""A local Mosquitto broker for one event, with its own config, or the address of an
existing one.

``lumen tournament run`` starts ``mosquitto -c <event dir>/broker/mosquitto.conf``:
one listener, no anonymous clients, a password per user (the TD, one per table,
read-only spectators, each their own), every client's id bound to its user name
(``use_username_as_clientid``: nobody takes another's session), an ACL so that only
table N can publish under table N's name and only the TD publishes the room's state, a
message size limit, and persistence on (retained state and queued QoS 1 messages survive
a broker restart).
"""

import os
import pwd
import secrets
import shutil
import signal
import socket
import subprocess
import time
from urllib.parse import unquote, urlsplit

MOSQUITTO = os.environ.get("LUMEN_MOSQUITTO") or shutil.which("mosquitto") or "/usr/sbin/mosquitto"
MOSQUITTO_PASSWD = shutil.which("mosquitto_passwd") or "/usr/bin/mosquitto_passwd"


class BrokerError(RuntimeError):
    pass


def available():
    """Why Mosquitto cannot run here, or None if it can."""
    if not os.path.exists(MOSQUITTO):
        return "mosquitto is not installed (apt-get install mosquitto)"
    if not os.path.exists(MOSQUITTO_PASSWD):
        return "mosquitto_passwd is not installed (apt-get install mosquitto)"
    return None


def table_user(table):
    return "table-%d" % int(table)


def parse_url(url):
    """``mqtt://[user:password@]host[:port]`` -> (host, port, user, password)."""
    u = urlsplit(url)
    if u.scheme not in ("mqtt", "tcp"):
        raise BrokerError("a broker address looks like mqtt://host:1883, not %r" % (url,))
    if not u.hostname:
        raise BrokerError("the broker address %r has no host" % (url,))
    return (u.hostname, u.port or 1883, unquote(u.username) if u.username else None,
            unquote(u.password) if u.password else None)


def make_url(host, port, user=None, password=None):
    auth = ""
    if user:
        auth = user + (":" + password if password else "") + "@"
    return "mqtt://%s%s:%d" % (auth, host, port)


def free_port(host="127.0.0.1"):
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


#: spectator accounts made for an event (one per screen or person watching: each its own
#: user, since a user's client id is its name: two sharing one would take turns)
SPECTATORS = ("spectator", "spectator-2", "spectator-3", "spectator-4")
#: the largest message the broker passes on (a room's standings of 200 players is ~40 KB):
#: a table retaining 16 MB of "status" once made the TD's page poll 16.8 MB a second
MESSAGE_LIMIT = 256 * 1024


def acl(users):
    """The ACL: who may publish and read what (issue 28.2/28.9: no patterns, which apply to
    every user, spectators included; each table its own lines)."""
    out = ["# written by lumen tournament: who may publish and read what",
           "# the TD publishes the room (pairings, clock, standings, acknowledgements)",
           "user td", "topic readwrite lumen/#", ""]
    for u in sorted(users):
        if u in SPECTATORS:
            out += ["# a spectator only reads", "user %s" % u, "topic read lumen/#", ""]
    tables = sorted((u for u in users if u.startswith("table-")), key=lambda u: int(u.split("-")[1]))
    for u in tables:
        # a table reads the room and writes only under its own name (lumen/EVENT/table-N/...)
        out += ["user %s" % u, "topic read lumen/#", "topic readwrite lumen/+/%s/#" % u, ""]
    return "\n".join(out)


def make_credentials(tables):
    """Passwords for the TD, tables 1..tables and the spectators."""
    creds = {"td": secrets.token_urlsafe(16)}
    for u in SPECTATORS:
        creds[u] = secrets.token_urlsafe(9)
    for t in range(1, tables + 1):
        creds[table_user(t)] = secrets.token_urlsafe(12)
    return creds


class LocalBroker:
    """A Mosquitto process with its config, password file and ACL in ``folder``."""

    def __init__(self, folder, credentials, port=None, host="127.0.0.1"):
        self.folder = os.path.abspath(folder)
        self.credentials = dict(credentials)
        self.host = host
        self.port = port or free_port(host if host != "0.0.0.0" else "127.0.0.1")
        self.proc = None
        self.adopted = None              # pid of our broker left running by a TD that was killed
        self.conf = os.path.join(self.folder, "mosquitto.conf")
        self.pid_path = os.path.join(self.folder, "mosquitto.pid")

    def running_pid(self):
        """The pid of a Mosquitto already running with this folder's config (a TD killed with
        -9 leaves its broker running: the restarted TD adopts it, the hubs never notice)."""
        try:
            with open(self.pid_path) as f:
                pid = int(f.read().strip())
            with open("/proc/%d/cmdline" % pid, "rb") as f:
                cmd = f.read().split(b"\0")
        except (OSError, ValueError):
            return None
        return pid if self.conf.encode() in cmd else None

    def adopt(self):
        """Use the broker already running for this folder, if there is one; returns its pid."""
        pid = self.running_pid()
        if pid is not None:
            self.adopted = pid
        return pid

    def write_config(self):
        os.makedirs(os.path.join(self.folder, "data"), exist_ok=True)
        pw = os.path.join(self.folder, "passwd")
        # 0600 from the start (issue 39): the passwords are in clear until mosquitto_passwd hashes them
        with os.fdopen(os.open(pw, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
            os.fchmod(f.fileno(), 0o600)
            for user, password in sorted(self.credentials.items()):
                f.write("%s:%s\n" % (user, password))
        r = subprocess.run([MOSQUITTO_PASSWD, "-U", pw], capture_output=True, text=True)
        if r.returncode:
            raise BrokerError("mosquitto_passwd failed: %s" % (r.stderr or r.stdout).strip())
        with open(os.path.join(self.folder, "acl"), "w") as f:
            f.write(acl(self.credentials))
        with open(self.conf, "w") as f:
            f.write("\n".join([
                "# written by lumen tournament for this event",
                "per_listener_settings false",
                # run as whoever started us (as root mosquitto would switch to its own user,
                # who cannot read this folder)
                "user %s" % pwd.getpwuid(os.getuid()).pw_name,
                "allow_anonymous false",
                "password_file %s" % pw,
                "acl_file %s" % os.path.join(self.folder, "acl"),
                "listener %d %s" % (self.port, self.host),
                # a client's id is its user name, whatever it asks for (issue 28.2): a spectator's
                # password can't take the TD's session or kick a table's hub off
                "use_username_as_clientid true",
                "message_size_limit %d" % MESSAGE_LIMIT,
                "persistence true",
                "persistence_location %s/" % os.path.join(self.folder, "data"),
                "autosave_interval 2",
                "max_queued_messages 10000",
                "max_inflight_messages 100",
                "pid_file %s" % self.pid_path,
                "log_dest file %s" % os.path.join(self.folder, "mosquitto.log"),
                "log_type error",
                "log_type warning",
                "log_type notice",
                "",
            ]))

    def start(self, timeout=20.0):
        self.write_config()
        self.proc = subprocess.Popen([MOSQUITTO, "-c", self.conf], stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        self._wait_listening(timeout)
        return self

    def _wait_listening(self, timeout):
        deadline = time.monotonic() + timeout
        host = "127.0.0.1" if self.host == "0.0.0.0" else self.host
        while True:
            if self.proc.poll() is not None:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                raise BrokerError("mosquitto exited (%s): %s" % (self.proc.returncode, err.strip()[-500:]))
            try:
                with socket.create_connection((host, self.port), timeout=1):
                    return
            except OSError:
                if time.monotonic() > deadline:
                    raise BrokerError("mosquitto did not listen on port %d within %.0f s" % (self.port, timeout))
                time.sleep(0.02)

    def url(self, user="td"):
        host = "127.0.0.1" if self.host == "0.0.0.0" else self.host
        return make_url(host, self.port, user, self.credentials.get(user))

    @property
    def pid(self):
        return self.proc.pid if self.proc else self.adopted

    def stop(self):
        """A clean stop (SIGTERM: mosquitto saves its persistence file)."""
        if self.adopted:
            try:
                os.kill(self.adopted, signal.SIGTERM)
            except OSError:
                pass
            self.adopted = None
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def kill(self):
        """kill -9: what a crash or a pulled plug does."""
        if self.adopted:
            try:
                os.kill(self.adopted, signal.SIGKILL)
            except OSError:
                pass
            self.adopted = None
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def restart(self, hard=False, timeout=20.0):
        (self.kill if hard else self.stop)()
        return self.start(timeout)

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()
