"""Issue 11.5: one hub per record. A second ``lumen hub`` on a record another hub holds
is refused with a message naming the holder's pid (two hubs on one file diverge)."""

from tests.faults.procs import lumen, stop, wait_for_line

SERVING = "table display"


def test_a_second_hub_on_the_same_record_is_refused_naming_the_first(tmp_path):
    db = str(tmp_path / "g.sqlite3")
    no_pod = str(tmp_path / "no-pod")
    first = lumen("hub", "--db", db, "--port", "0", "--serial", no_pod)
    try:
        found, lines = wait_for_line(first, SERVING)
        assert found, lines
        second = lumen("hub", "--db", db, "--resume", "--port", "0", "--serial", no_pod)
        found, lines = wait_for_line(second, SERVING)
        out = "\n".join(lines) + stop(second)
        assert not found, "the second hub started serving:\n" + out
        assert second.returncode not in (0, None), out
        assert "pid %d" % first.pid in out, out
        assert first.poll() is None, "the first hub keeps running"
    finally:
        stop(first)
