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

    def read(self):
        n = self.s.in_waiting
        return self.s.read(n or 1)

    def write(self, data):
        self.s.write(data)

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

    def fileno(self):
        return self.pod.fileno()

    def read(self):
        if self.pod.proc.poll() is not None:
            raise OSError("simulated pod %s exited" % self.pod.board_id)
        return self.pod.read()

    def write(self, data):
        self.pod.write(data)

    def close(self):
        pass


def find_pod_ports():
    """Serial ports that look like pods: MicroPython on a Raspberry Pi RP2040/RP2350
    (USB VID 0x2E8A), or the stable names our udev rule makes."""
    found = []
    try:
        from serial.tools import list_ports
        for p in list_ports.comports():
            if p.vid == 0x2E8A:
                found.append(p.device)
    except Exception:   # no pyserial tools on this system
        pass
    if os.path.isdir("/dev"):
        for n in sorted(os.listdir("/dev")):
            if n.startswith("lumen-pod-"):
                path = os.path.realpath(os.path.join("/dev", n))
                if path not in found:
                    found.append(path)
    return found
