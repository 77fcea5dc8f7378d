"""A TCP relay between a table and the broker that can be cut as a dead Wi-Fi link is:
silently (bytes vanish both ways, nobody is told: keepalives must notice), or loudly
(connections reset). New connections while cut go nowhere. ``restore`` closes what is
left of the old connections, so the client reconnects, as after a real outage."""

import socket
import threading


class NetCut:
    def __init__(self, target_port, host="127.0.0.1"):
        self.target = (host, target_port)
        self.srv = socket.socket()
        self.srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.srv.bind((host, 0))
        self.srv.listen(64)
        self.port = self.srv.getsockname()[1]
        self.is_cut = False
        self.conns = []
        self.lock = threading.Lock()
        self.closed = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self):
        while not self.closed:
            try:
                c, _ = self.srv.accept()
            except OSError:
                return
            if self.is_cut:               # a black hole: held open, never answered
                with self.lock:
                    self.conns.append(c)
                threading.Thread(target=self._sink, args=(c,), daemon=True).start()
                continue
            try:
                u = socket.create_connection(self.target)
            except OSError:
                c.close()
                continue
            with self.lock:
                self.conns += [c, u]
            for a, b in ((c, u), (u, c)):
                threading.Thread(target=self._pipe, args=(a, b), daemon=True).start()

    def _sink(self, a):
        try:
            while a.recv(65536):
                pass
        except OSError:
            pass

    def _pipe(self, a, b):
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                if not self.is_cut:
                    b.sendall(data)
        except OSError:
            pass
        _close(a)
        _close(b)

    def cut(self, silent=True):
        self.is_cut = True
        if not silent:
            self._drop_all()

    def restore(self):
        self._drop_all()
        self.is_cut = False

    def _drop_all(self):
        with self.lock:
            conns, self.conns = self.conns, []
        for s in conns:
            _close(s)

    def close(self):
        self.closed = True
        self._drop_all()
        self.srv.close()


def _close(s):
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    s.close()
