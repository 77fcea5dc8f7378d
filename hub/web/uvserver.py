"""uvicorn's server with a quieter main loop (issue 26: a seated idle table's cost).

uvicorn's ``Server.main_loop`` wakes ten times a second to see whether it should stop and,
every tenth time, to renew the ``Date`` header. Here it wakes once a second (the header's
own resolution) and at once when it is told to stop: ``should_exit`` is a property whose
setter wakes the loop, from a signal handler, another thread (``ServerHandle.stop``) or the
loop itself. Everything else is uvicorn's.
"""

import asyncio

import uvicorn


class Server(uvicorn.Server):
    TICKS_PER_WAKE = 10         # uvicorn's on_tick counts tenths of a second

    def __init__(self, config):
        self._exit = False
        self._loop = None
        self._wake = None
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
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + self.TICKS_PER_WAKE) % 864000
            if not self._exit:
                try:
                    await asyncio.wait_for(self._wake.wait(), self.TICKS_PER_WAKE / 10)
                except asyncio.TimeoutError:
                    pass
            should_exit = await self.on_tick(counter)
