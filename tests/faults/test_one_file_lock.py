"""Issue 28.6: the one-hub lock is the database file's (its device and inode), not its
name. A second ``lumen hub`` on a hard link or a symlink to a record another hub holds is
refused, naming the holder's pid: two hubs on one file would both accept writes and diverge."""

import os

import pytest

from tests.faults.procs import lumen, stop, wait_for_line

SERVING = "table display"


@pytest.mark.parametrize("how", ["hard link", "symlink", "symlink to the folder"])
def test_a_second_hub_through_another_name_of_the_record_is_refused(tmp_path, how):
    db = tmp_path / "g.sqlite3"
    no_pod = str(tmp_path / "no-pod")
    first = lumen("hub", "--db", str(db), "--port", "0", "--serial", no_pod)
    try:
        found, lines = wait_for_line(first, SERVING)
        assert found, lines
        if how == "hard link":
            other = tmp_path / "elsewhere" / "same.sqlite3"
            other.parent.mkdir()
            os.link(db, other)
        elif how == "symlink":
            other = tmp_path / "link.sqlite3"
            other.symlink_to(db)
        else:
            (tmp_path / "linked").symlink_to(tmp_path, target_is_directory=True)
            other = tmp_path / "linked" / "g.sqlite3"
        second = lumen("hub", "--db", str(other), "--resume", "--port", "0", "--serial", no_pod)
        found, lines = wait_for_line(second, SERVING)
        out = "\n".join(lines) + stop(second)
        assert not found, "a second hub serves the same record through a %s:\n%s" % (how, out)
        assert second.returncode not in (0, None), out
        assert "pid %d" % first.pid in out, out
        assert first.poll() is None, "the first hub keeps running"
    finally:
        stop(first)
