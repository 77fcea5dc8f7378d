"""A real ``lumen hub`` process for the kill -9 tests, started the way the Pi's service
starts it (``python3 -m hub.cli hub --db ... --resume``), with no pods plugged in.

The helpers wait for events (the display answering, a file appearing) with generous upper
bounds; nothing here depends on how fast the machine is."""

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class HubProcess:
    def __init__(self, db, *args, env=None, port=None):
        self.db = db
        self.port = port or free_port()
        self.url = "http://127.0.0.1:%d" % self.port
        e = dict(os.environ, PYTHONUNBUFFERED="1")
        e.pop("LUMEN_ADMIN_TOKEN", None)
        e.update(env or {})
        self.proc = subprocess.Popen([sys.executable, "-m", "hub.cli", "hub", "--db", db, "--port", str(self.port),
                                      *args],
                                     cwd=ROOT, env=e, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        self.wait_up()

    def wait_up(self, timeout=60):
        end = time.monotonic() + timeout
        while True:
            if self.proc.poll() is not None:
                raise AssertionError("lumen hub exited (%s): %s" % (self.proc.returncode, self.proc.stdout.read()))
            try:
                self.get("/api/state")
                return
            except (OSError, urllib.error.URLError):
                pass
            if time.monotonic() > end:
                self.kill()
                raise AssertionError("lumen hub did not answer on %s" % self.url)
            time.sleep(0.05)

    def request(self, method, path, body=None, token=None):
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", "Bearer " + token)
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")

    def get(self, path):
        status, body = self.request("GET", path)
        assert status == 200, (path, status, body)
        return body

    def post(self, path, body, token):
        body = dict(body, action_id="k-" + os.urandom(8).hex())
        status, out = self.request("POST", path, body, token)
        assert status == 200, (path, status, out)
        return out

    def kill(self):
        """kill -9: no shutdown handler runs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)
        self.proc.stdout.close()

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
                return
        self.proc.stdout.close()
