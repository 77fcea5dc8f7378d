"""Fixtures for the fault suite: a tiny file system that fills up, a read-only one."""

import os
import subprocess

import pytest


def _mount_tmpfs(path, size):
    if os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=%s" % size, "tmpfs", str(path)], capture_output=True)
    return r.returncode == 0


@pytest.fixture
def tiny_fs(tmp_path):
    """A directory on a tmpfs of a few hundred KB: a full disk, for real."""
    d = tmp_path / "tiny"
    d.mkdir()
    if not _mount_tmpfs(d, "384k"):
        if os.environ.get("CI") == "true":
            pytest.fail("CI runs as root and must be able to mount a tmpfs")
        pytest.skip("needs root to mount a tiny tmpfs")
    yield d
    subprocess.run(["umount", "-l", str(d)], check=False)


def fill(directory):
    """Fill the file system under ``directory`` to the last byte."""
    fd = os.open(os.path.join(directory, "filler"), os.O_WRONLY | os.O_CREAT, 0o644)
    try:
        for size in (65536, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                pass
    finally:
        os.close(fd)


@pytest.fixture
def read_only_dir(tmp_path):
    """A directory whose file system is remounted read-only after the test fills it:
    yields (dir, make_read_only)."""
    d = tmp_path / "ro"
    d.mkdir()
    if _mount_tmpfs(d, "8m"):
        def make_ro():
            subprocess.run(["mount", "-o", "remount,ro", str(d)], check=True)
        yield d, make_ro
        subprocess.run(["umount", "-l", str(d)], check=False)
        return
    if os.environ.get("CI") == "true":
        pytest.fail("CI runs as root and must be able to mount a tmpfs")
    if os.geteuid() == 0:
        pytest.skip("root without mount: a read-only file can't be made")

    def make_ro_chmod():
        for f in os.listdir(d):
            os.chmod(d / f, 0o444)
        os.chmod(d, 0o555)
    yield d, make_ro_chmod
    os.chmod(d, 0o755)
