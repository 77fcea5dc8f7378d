"""Pods found by the kernel's device events (issue 36): the links' thread watches a udev
netlink socket and looks for pods only when a tty came or went, instead of listing /dev every
second (a seated idle table's steady cost).

The events come from udevd once it has made the device node and its links (source ``udev``,
where udevd runs: a Raspberry Pi, a desktop), else straight from the kernel (source
``kernel``: a container or a system without udevd; the node may still be getting its
permissions, so the thread looks again a second later). Where neither can be opened (pyudev
missing, not Linux, no netlink), ``open_monitor`` returns None and the thread scans every
second as before."""

import logging
import os

log = logging.getLogger("lumen.pods")

#: where udevd listens when it runs: its events carry a device once it is ready to open
UDEV_CONTROL = "/run/udev/control"


class Hotplug:
    """A netlink monitor of tty devices: ``fileno()`` for the thread's poller; ``drain()``
    reads every event waiting and says how many there were."""

    def __init__(self, monitor, source):
        self.monitor, self.source = monitor, source
        self.events = 0

    def fileno(self):
        return self.monitor.fileno()

    def drain(self):
        n = 0
        while True:
            try:
                device = self.monitor.poll(timeout=0)
            except OSError:
                break
            if device is None:
                break
            n += 1
        self.events += n
        return n

    def close(self):
        try:
            self.monitor.stop()
        except Exception:       # already stopped, or its socket gone with the process
            pass


def open_monitor(source=None):
    """A started Hotplug, or None where device events can't be had (the thread then scans);
    ``LUMEN_HOTPLUG=off`` asks for the scan (a comparison, or a system whose events mislead)."""
    if os.environ.get("LUMEN_HOTPLUG") == "off":
        return None
    try:
        import pyudev
    except ImportError:
        return None
    source = source or ("udev" if os.path.exists(UDEV_CONTROL) else "kernel")
    try:
        monitor = pyudev.Monitor.from_netlink(pyudev.Context(), source=source)
        monitor.filter_by("tty")
        monitor.start()
    except Exception as e:      # no netlink here (another OS, a sandbox): the scan it is
        log.info("no device events (%s): looking for pods every second", e)
        return None
    return Hotplug(monitor, source)
