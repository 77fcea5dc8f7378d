"""Issue 36: pods are found by the kernel's device events, not by listing /dev every second: the
links' thread looks once at start and then only when a tty came or went (and once more a
second later, for the node's permissions); where no device events can be had it scans every
second as before. Tested with pyudev's real netlink monitor and a real kernel event (a
"change" written to a tty's uevent file in sysfs)."""

import asyncio

import pytest

from hub.pods import hotplug, link_thread
from hub.pods.pod_hub import PodHub
from hub.record.store import Store
from hub.sessions.table import Table

UEVENT = "/sys/class/tty/ttyS0/uevent"


def _writable():
    try:
        with open(UEVENT, "w") as f:
            f.write("change")
        return True
    except OSError:
        return False


async def _until(cond, what):
    for _ in range(6000):           # the bound only stops a broken test
        if cond():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("timed out waiting for %s" % what)


def _run(body):
    table = Table(Store(":memory:"))
    hub = PodHub(table, mode="tracker", out=lambda t: None)

    async def main():
        task = asyncio.create_task(hub.run(serial_devices=(), rescan=True))
        try:
            await _until(lambda: hub.links.running and hub.links.scans >= 1, "the first look for pods")
            await body(hub.links)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
    asyncio.run(main())


def test_the_thread_looks_for_pods_only_when_a_tty_came_or_went():
    if hotplug.open_monitor() is None:
        pytest.skip("no netlink device events here")
    if not _writable():
        pytest.skip("sysfs is read-only here: no kernel event can be made")

    async def body(links):
        assert links.hotplug is not None
        await _until(lambda: links.scans == 1 and links._next_scan == link_thread.NEVER, "the start's one look")
        with open(UEVENT, "w") as f:
            f.write("change")           # the kernel says a tty changed, as when a pod is plugged in
        await _until(lambda: links.scans == 3 and links._next_scan == link_thread.NEVER,
                     "a look at the event and one a second later, then none")
        assert links.hotplug.events >= 1
    _run(body)


def test_without_device_events_the_thread_scans_every_second(monkeypatch):
    monkeypatch.setattr(hotplug, "open_monitor", lambda source=None: None)

    async def body(links):
        assert links.hotplug is None
        await _until(lambda: links.scans >= 2, "a second look a second later")
        assert links._next_scan != link_thread.NEVER
    _run(body)
