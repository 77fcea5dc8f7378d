"""systemd's notify protocol (sd_notify(3)), on a plain unix datagram socket.

systemd gives a ``Type=notify`` service the socket's address in ``$NOTIFY_SOCKET`` and, with
``WatchdogSec=``, the watchdog period in ``$WATCHDOG_USEC``. Outside systemd (a terminal, the
tests, ``lumen demo``) the variable is absent and every call here does nothing.
"""

import os
import socket


def socket_address(env=None):
    """The notify socket's address from ``$NOTIFY_SOCKET``, or None. A leading ``@`` names
    a socket in the abstract namespace (sd_notify(3)); other forms (vsock) are not used here."""
    addr = (os.environ if env is None else env).get("NOTIFY_SOCKET", "")
    if addr.startswith("@"):
        return "\0" + addr[1:]
    if addr.startswith("/"):
        return addr
    return None


def notify(state, env=None):
    """Send ``state`` (e.g. ``"READY=1"``, ``"WATCHDOG=1"``, several lines at once) to systemd.
    Returns whether it was sent: False without a notify socket, or when the send failed (a
    service manager that went away must not take the hub down with it)."""
    addr = socket_address(env)
    if addr is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as s:
            s.connect(addr)
            s.sendall(state.encode("utf-8"))
        return True
    except OSError:
        return False


def watchdog_period(env=None):
    """The watchdog period in seconds that systemd asks for (``$WATCHDOG_USEC``), or None when
    there is none or it is meant for another process (``$WATCHDOG_PID``)."""
    env = os.environ if env is None else env
    try:
        usec = int(env.get("WATCHDOG_USEC", ""))
    except ValueError:
        return None
    pid = env.get("WATCHDOG_PID")
    if usec <= 0 or (pid and pid != str(os.getpid())):
        return None
    return usec / 1e6
