"""The socket a web server listens on, bound before anything else starts (issue 34.6): a busy
port is said at once, in both languages, before URLs or a token are shown. Used by the hub
(hub/web/server.py) and the TD's page (hub/tournament/web.py)."""

import errno
import socket


class PortBusy(OSError):
    """The address can't be listened on (another hub, the packaged service, any program): said
    before anything is announced or started, so nobody is shown URLs or a token that lead nowhere."""

    def __init__(self, host: str, port: int, err: OSError) -> None:
        self.host, self.port = host, port
        busy = err.errno == errno.EADDRINUSE
        super().__init__(err.errno, "%s %s:%d: %s" % (
            "포트 사용 중 / port busy" if busy else "열 수 없는 주소 / can't listen on", host, port, err.strerror or err))
        self.busy = busy


def _host_arg(host: str) -> str | bytes | None:
    """``host`` as getaddrinfo is given it: an ASCII name or address as bytes, since a str is
    always run through the "idna" codec, whose import (stringprep, unicodedata) was ~1 ms of the
    hub's start (issue 36); a name with other letters as a str, so it is IDNA-encoded as before."""
    if not host:
        return None
    return host.encode("ascii") if host.isascii() else host


def listen_socket(host: str, port: int) -> socket.socket:
    """The server's listening socket, bound now (the server only listens on it): a busy port is
    known before the tasks start and the URLs are said. Port 0: a free one."""
    try:
        family, kind, proto, _, addr = socket.getaddrinfo(_host_arg(host), port, type=socket.SOCK_STREAM,
                                                         flags=socket.AI_PASSIVE)[0]
    except socket.gaierror as e:
        raise PortBusy(host, port, OSError(errno.EADDRNOTAVAIL, str(e))) from e
    sock = socket.socket(family, kind, proto)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)     # as uvicorn does: TIME_WAIT is not busy
        sock.bind(addr)
    except OSError as e:
        sock.close()
        raise PortBusy(host, port, e) from e
    sock.set_inheritable(True)
    return sock
