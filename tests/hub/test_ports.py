"""Finding pods among the serial ports, every second, cheaply (issue 16): one listing of
/dev per scan; a USB serial device's ids are read once per appearance."""

from hub.pods import ports


def test_a_devices_usb_ids_are_read_once_per_appearance(monkeypatch):
    devices = {"ttyACM0": ("ttyACM0", 1), "ttyUSB0": ("ttyUSB0", 1)}
    vids = {"/dev/ttyACM0": ports.RPI_VID, "/dev/ttyUSB0": 0x0403}
    lookups = []
    monkeypatch.setattr(ports, "_VIDS", {})
    monkeypatch.setattr(ports, "_dev_names", lambda: sorted(list(devices) + ["ttyS0", "null"]))
    monkeypatch.setattr(ports, "_identity", lambda path: devices.get(path[5:]))
    monkeypatch.setattr(ports, "_usb_vid", lambda path: lookups.append(path) or vids[path])
    for _ in range(5):
        assert ports.find_pod_ports() == ["/dev/ttyACM0"]
    assert sorted(lookups) == ["/dev/ttyACM0", "/dev/ttyUSB0"]       # once each, never ttyS*
    # unplugged, then a pod plugged in under the other name: looked at again
    del devices["ttyACM0"]
    assert ports.find_pod_ports() == []
    devices["ttyUSB0"] = ("ttyUSB0", 2)
    vids["/dev/ttyUSB0"] = ports.RPI_VID
    assert ports.find_pod_ports() == ["/dev/ttyUSB0"]
    assert lookups[-1] == "/dev/ttyUSB0" and len(lookups) == 3


def test_the_scan_on_this_machine_agrees_with_pyserial():
    from serial.tools import list_ports
    want = [p.device for p in list_ports.comports() if p.vid == ports.RPI_VID]
    assert [d for d in ports.find_pod_ports() if not d.startswith("/dev/lumen-pod-")] == want
