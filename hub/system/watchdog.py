"""The hub's readiness and watchdog pings to systemd, as a task on the table's asyncio loop.

READY=1 goes once the display accepts connections (the unit's ``Type=notify``: units ordered
after the hub, such as the TV kiosk, start only then). WATCHDOG=1 follows every half
``WatchdogSec=``, sent from the loop itself, so a loop that hangs stops the pings, and only
while ``alive()`` holds (the pods' links thread is running): systemd then restarts the hub,
which resumes its game from the record. Without ``$NOTIFY_SOCKET`` the task ends at once.
"""

import asyncio

from hub.system import sdnotify

# a wildcard listen address is reached over loopback
_LOOPBACK = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


async def wait_serving(host, port, retry=0.05):
    """Return once something accepts TCP connections on ``host:port`` (the display's server,
    which binds its socket after the app's startup, where this task began)."""
    host = _LOOPBACK.get(host, host)
    while True:
        try:
            _, writer = await asyncio.open_connection(host, port)
        except OSError:
            await asyncio.sleep(retry)
            continue
        writer.close()
        try:
            await writer.wait_closed()
        except OSError:
            pass
        return


def systemd_notifier(host, port, alive, env=None):
    """A ``tasks`` entry for hub.web.server.serve: ``fn(display) -> awaitable``."""
    async def run(_display):
        if sdnotify.socket_address(env) is None:
            return
        await wait_serving(host, port)
        sdnotify.notify("READY=1\nSTATUS=serving the display on port %d" % port, env)
        period = sdnotify.watchdog_period(env)
        stalled = False
        try:
            if period is None:
                await asyncio.Event().wait()        # nothing more to say until the hub stops
                return
            while True:
                if alive():
                    sdnotify.notify("WATCHDOG=1\nSTATUS=serving the display on port %d" % port
                                    if stalled else "WATCHDOG=1", env)
                    stalled = False
                elif not stalled:       # no ping: systemd restarts the hub when the period runs out
                    sdnotify.notify("STATUS=the pods' links thread is not running", env)
                    stalled = True
                await asyncio.sleep(period / 2)
        except asyncio.CancelledError:
            sdnotify.notify("STOPPING=1", env)
            raise
    return run
