"""Running the app: the URLs to show, serving until stopped, or a server in a thread."""

import logging
import threading
import time

from hub.web import guard, lan
from hub.web.listen import PortBusy, listen_socket  # noqa: F401 (hub.cli, tests: web.PortBusy)
from hub.web.uvserver import Server
from hub.web.app import create_app

log = logging.getLogger("lumen.web")


def urls(table, host, port):
    """The display URL(s) and the admin URL (the token in the fragment never reaches a server log).
    With ``host`` 0.0.0.0 the LAN addresses come from the interfaces (hub/web/lan.py), never
    from the hostname (Debian and Raspberry Pi OS resolve it to 127.0.1.1)."""
    u = lan.display_urls(host, port, table.name)
    out = {"display": u["local"], "lan_all": u["lan"], "mdns": u["mdns"]}
    if u["lan"]:
        out["lan"] = u["lan"][0]
    out["admin"] = out.get("lan", out["display"]) + "#admin=" + table.admin_token
    out["docs"] = out["display"] + "docs"
    out["cards"] = out.get("lan", out["display"]) + "cards"
    return out


def token_lines(table, admin_url, terminal=None):
    """What the log says of the admin token (issue 39): where it is kept, never the token;
    the token and the admin page's address with it go to the person at the terminal only
    (``hub.system.logs.to_terminal``: ``terminal``, default the process's own, if a TTY)."""
    from hub.system.logs import to_terminal
    tokens = getattr(table, "tokens", None)
    source, path = getattr(tokens, "source", "memory"), getattr(tokens, "path", None)
    page = admin_url.split("#", 1)[0]
    shown = to_terminal("관리자 토큰 / admin token: %s\n관리자 화면 / admin page: %s" % (table.admin_token, admin_url),
                        terminal)
    if source == "file" and path:
        where = "관리자 토큰 파일 / the admin token is kept in: %s (0600%s)" % (
            path, "" if shown else "; 예: sudo cat 로 읽기 / read it with e.g. sudo cat")
    elif source == "override":
        where = "관리자 토큰 / admin token: --token 또는 LUMEN_ADMIN_TOKEN 값 / the one given with --token or LUMEN_ADMIN_TOKEN"
    else:
        where = "관리자 토큰 / admin token: 이번 실행에만 있음 / made for this run only (the record is in memory)"
    return [where, "관리자 화면 / admin page: %s#admin=TOKEN%s" % (page, "" if shown else " (토큰으로 로그인 / log in with the token)")]


def announce(table, host, port, out=print, mdns=None, terminal=None):
    """The addresses, said to ``out`` (the log); the admin token to the terminal only."""
    u = urls(table, host, port)
    out("테이블 화면 / table display: %s" % u["display"])
    for address in u["lan_all"]:
        out("휴대폰 (같은 네트워크) / phones on the same network: %s" % address)
    if mdns:
        out("이름으로 / by name (mDNS): http://%s:%d/" % (mdns, port))
    if host in lan.WILDCARD and not u["lan_all"]:
        out("네트워크 주소가 없습니다: 휴대폰은 연결할 수 없습니다 / no network address: phones cannot connect")
    for line in token_lines(table, u["admin"], terminal):
        out(line)
    out("API 문서 / API docs: %s" % u["docs"])
    out("카드 편집기·덱 / card editor, decks: %s" % u["cards"])


def serve(table, host="127.0.0.1", port=8000, *, bots=False, tick_interval=0.1, tasks=(), log_level="warning",
          out=print, routers=(), mdns=True, library=None, sock=None):
    """Serve the display for ``table`` until stopped (Ctrl-C). Blocks. ``out=None`` prints nothing.
    On every interface (``host`` 0.0.0.0) the hub also announces ``lumen-<table>.local`` by mDNS
    unless ``mdns`` is false. ``library``: the card library (hub.library.sets.CardLibrary) the
    card editor and the table's decks use."""
    if sock is None:
        sock = listen_socket(host, port)    # PortBusy before anything is said or started
    app = create_app(table, tick_interval=tick_interval, bots=bots, tasks=tasks, routers=routers, library=library)
    app.state.listen = (host, port)
    announcer = None
    if mdns and host in lan.WILDCARD:
        announcer = lan.Announcer(table.name, port)
        try:
            if not announcer.start():
                announcer = None
        except Exception as e:          # no multicast here: phones can still use the address
            log.warning("mDNS announcement failed: %s", e)
            announcer = None
    if out:
        announce(table, host, port, out, mdns=announcer.name if announcer else None)
    try:
        try:
            server = app.state.hub.server = Server(guard.server_config(app, host, port, log_level=log_level))
            sock = app.state.guard.listener(sock)       # the accept gate (hub/web/accept_gate.py)
            server.run(sockets=[sock])
        except KeyboardInterrupt:
            pass
    finally:
        sock.close()
        if announcer is not None:
            announcer.stop()


class ServerHandle:
    """A server running in a thread (tests, embedding). ``url``, ``port``, ``hub``,
    ``call(fn, *args)`` runs on the server's loop, ``stop()`` shuts it down."""

    def __init__(self, server, thread, app, host, port):
        self.server, self.thread, self.app = server, thread, app
        self.hub = app.state.hub
        self.host, self.port = host, port
        self.url = "http://%s:%d" % (host, port)

    def call(self, fn, *args, **kw):
        return self.hub.call(fn, *args, **kw)

    def stop(self, timeout=10):
        self.server.should_exit = True
        self.thread.join(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


def start_in_thread(table, port=0, host="127.0.0.1", *, tick_interval=0.1, bots=False, timeout=15, conn_guard=None,
                    **kw):
    """Start the server in a daemon thread; port 0 picks a free port. Returns a ServerHandle.
    ``conn_guard``: the front guard's caps (hub.web.guard.ConnectionGuard), for tests."""
    sock = listen_socket(host, port)        # PortBusy before any task starts
    actual = sock.getsockname()[1]
    app = create_app(table, tick_interval=tick_interval, bots=bots, **kw)
    config = guard.server_config(app, host, actual, lifespan="on", guard=conn_guard)
    server = app.state.hub.server = Server(config)
    app.state.listen = (host, actual)
    sock = app.state.guard.listener(sock)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="lumen-web", daemon=True)
    thread.start()
    deadline = time.monotonic() + timeout
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            server.should_exit = True
            sock.close()
            raise RuntimeError("the web server did not start")
        time.sleep(0.02)
    return ServerHandle(server, thread, app, host, actual)
