"""uvicorn's server with a quiet main loop (issues 26, 36: a seated idle table's cost).

uvicorn's ``Server.main_loop`` wakes ten times a second to see whether it should stop and,
every tenth time, to renew the ``Date`` header. Here the loop sleeps until it is told to stop
(``should_exit`` is a property whose setter wakes it, from a signal handler, another thread
(``ServerHandle.stop``) or the loop itself), and the ``Date`` header is renewed by one timer
handle a second (the header's own resolution): no task, future or coroutine step a second.
Everything else is uvicorn's.
"""

import asyncio
import time
from email.utils import formatdate

from hub.web.uvicorn_lean import Server as UvicornServer


class Server(UvicornServer):
    def __init__(self, config):
        self._exit = False
        self._loop = None
        self._wake = None
        self._date_timer = None
        super().__init__(config)

    @property
    def should_exit(self):
        return self._exit

    @should_exit.setter
    def should_exit(self, value):
        self._exit = value
        loop, wake = self._loop, self._wake
        if value and loop is not None and wake is not None and not loop.is_closed():
            try:
                loop.call_soon_threadsafe(wake.set)
            except RuntimeError:        # the loop closed meanwhile
                pass

    async def main_loop(self):
        self._loop, self._wake = asyncio.get_running_loop(), asyncio.Event()
        if await self.on_tick(0):       # uvicorn's first tick: the headers, an exit asked already
            return
        self._date_timer = self._loop.call_later(self._next_second(), self._renew_date)
        try:
            while not self._exit:
                await self._wake.wait()
                self._wake.clear()
        finally:
            self._date_timer.cancel()

    @staticmethod
    def _next_second():
        return 1.0 - time.time() % 1.0 + 0.001

    def _renew_date(self):
        """``on_tick``'s once-a-second part, without its coroutine: the Date header."""
        date = [(b"date", formatdate(time.time(), usegmt=True).encode())] if self.config.date_header else []
        self.server_state.default_headers = date + self.config.encoded_headers
        self._date_timer = self._loop.call_later(self._next_second(), self._renew_date)
