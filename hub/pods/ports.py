"""The transports a pod link runs over: a real pod's USB serial port, a simulated pod's
pty, and the scan that finds pods among the serial ports."""

import os


class SerialPort:
    """A real pod on a USB serial port (pyserial). pyserial raises when the pod is
    unplugged and does not reopen by itself: ``PodHub`` rescans and reopens."""

    def __init__(self, device):
        import serial   # pyserial
        self.device = device
        self.name = device
        self.s = serial.Serial(device, 115200, timeout=0, write_timeout=0.5)
        self.s.reset_input_buffer()

    def fileno(self):
        return self.s.fileno()

    def vouches(self, board_id):
        """Whether this USB device's own serial number is ``board_id`` (MicroPython's rp2 port
        gives a pod's USB serial number as its board id in hex): a replugged pod, not a device
        that only says its id (issue 39)."""
        serial = usb_serial(self.device)
        return bool(serial) and serial.lower() == str(board_id).lower()

    def read(self):
        n = self.s.in_waiting
        return self.s.read(n or 1)

    def write(self, data):
        self.s.write(data)

    def write_nowait(self, data):
        """Write what the port takes now, without waiting (pyserial keeps its fd
        non-blocking): the bytes written. 0 where there is no fd to write to."""
        fd = getattr(self.s, "fd", None)
        if fd is None:
            return 0
        try:
            return os.write(fd, data)
        except BlockingIOError:
            return 0

    def close(self):
        try:
            self.s.close()
        except Exception:
            pass


class SimPort:
    """A simulated pod (hub/pods/sim.py SimPod): the real firmware on a pty."""

    def __init__(self, pod, name=None):
        self.pod = pod
        self.name = name or "sim:%s" % pod.board_id

    def vouches(self, board_id):
        """A simulated pod is the pod its simulation was made as (the hub made it)."""
        return str(board_id).lower() == str(self.pod.board_id).lower()

    def fileno(self):
        return self.pod.fileno()

    def read(self):
        data = self.pod.read()
        if not data and self.pod.proc.poll() is not None:
            raise OSError("simulated pod %s exited" % self.pod.board_id)
        return data

    def write(self, data):
        self.pod.write(data)

    def write_nowait(self, data):
        """Write what the pty takes now, without waiting: the bytes written. A subclass that
        watches or changes what is written gets it all through its write (the links' thread)."""
        if type(self).write is not SimPort.write:
            return 0
        try:
            return os.write(self.pod.master, data)
        except BlockingIOError:
            return 0

    def close(self):
        pass


def find_pod_ports():
    """Serial ports that look like pods: MicroPython on a Raspberry Pi RP2040/RP2350
    (USB VID 0x2E8A), or the stable names our udev rule makes.

    The hub calls this every second while it looks for pods, so on Linux it is one listing
    of /dev: a USB serial device's ids are read from sysfs once per appearance (pyserial's
    full ``comports()`` looks at every ttyS* too: ~4.5 M instructions a scan, most of an
    idle table's cost before issue 16)."""
    found = []
    names = _dev_names()
    if names is None:               # not Linux: pyserial's own scan
        try:
            from serial.tools import list_ports
            found = [p.device for p in list_ports.comports() if p.vid == RPI_VID]
        except Exception:   # no pyserial tools on this system
            pass
        names = []
    else:
        seen = set()
        for n in names:
            if n.startswith(USB_SERIAL):
                path = "/dev/" + n
                key = _identity(path)
                if key is None:
                    continue
                seen.add(key)
                if key not in _VIDS:
                    _VIDS[key] = _usb_vid(path)
                if _VIDS[key] == RPI_VID:
                    found.append(path)
        for key in [k for k in _VIDS if k not in seen]:
            del _VIDS[key]          # unplugged: a device that comes back is looked at again
    for n in names:
        if n.startswith("lumen-pod-"):
            path = os.path.realpath(os.path.join("/dev", n))
            if path not in found:
                found.append(path)
    return found


RPI_VID = 0x2E8A
USB_SERIAL = ("ttyACM", "ttyUSB")     # how Linux names USB CDC-ACM and USB-serial devices
_VIDS: dict = {}                          # (path, device number, change time) -> USB VID or None


def _dev_names():
    if not os.path.isdir("/sys/class/tty"):
        return None
    try:
        return sorted(os.listdir("/dev"))
    except OSError:
        return []


def _identity(path):
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (path, st.st_rdev, st.st_ctime_ns)


def usb_serial(path):
    """The USB serial number of the device behind a serial port (sysfs), or None."""
    try:
        from serial.tools.list_ports_linux import SysFS
        return SysFS(os.path.realpath(path)).serial_number
    except Exception:       # no pyserial, not Linux, not a USB device
        return None


def _usb_vid(path):
    try:
        from serial.tools.list_ports_linux import SysFS
        return SysFS(path).vid
    except Exception:       # no pyserial, or sysfs without the USB ids: not a pod we can tell
        return None
