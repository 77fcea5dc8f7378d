"""One hub per record (issues 11.5, 28.6): an OS file lock on the database file itself.

Two hubs appending to one record diverge (each replays its own game and numbers its own
records), so ``lumen hub`` takes an exclusive, non-blocking ``flock`` on the database file
for as long as it runs. The lock belongs to the file (its device and inode), not to a name:
a hard link or a symlink to a record another hub holds is the same file, and is refused
with a message naming the holder's pid (read from ``/proc/locks``, which lists every lock
by device and inode). The kernel drops the lock when the holder dies, kill -9 included: no
stale lock to clean up. Readers (``lumen games``, ``export``, ``doctor``) take no lock.

The old lock file beside the record (``DB.lock``, with the holder's pid) is still taken too,
so a hub of an older version, which only knows that one, is kept out as well.

SQLite locks the same file with POSIX record locks, which ``flock`` does not disturb; but
closing *any* descriptor of a file drops the process's POSIX locks on it, so the lock's
descriptor is closed only after the record's connections (``release`` after ``Store.close``).
"""

import fcntl
import os

from hub.record.store import RecordUnwritable, StoreError


class RecordBusy(StoreError):
    def __init__(self, path, pid):
        self.path, self.pid = path, pid
        who = ("pid %d" % pid) if pid else "another process"
        super().__init__("다른 허브(%s)가 이 기록을 쓰고 있습니다: %s / another hub (%s) is using this record: %s "
                         "(one hub per record: stop it first, or give this one another --db)"
                         % (who, path, who, path))


class RecordLock:
    """``with RecordLock(db):`` or ``acquire()`` / ``release()``."""

    def __init__(self, db_path):
        self.db_path = db_path
        self.path = os.path.abspath(db_path) + ".lock"
        self.fd = None           # the database file itself: the lock that counts
        self.name_fd = None      # DB.lock: what older hubs look at

    def acquire(self):
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.db_path)), exist_ok=True)
            # O_CREAT on a name that does not exist yet makes the empty file SQLite then
            # initializes; through a symlink it opens (or makes) the file the link names
            # 0600 (issue 39): the record holds the hidden readies of the games in play
            fd = _open(self.db_path)
        except OSError as e:        # a read-only file system: say so, as the store would
            raise RecordUnwritable(self.db_path, e) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = holder_pid(fd)
            os.close(fd)
            raise RecordBusy(self.db_path, pid) from None
        try:
            name_fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        except OSError:
            name_fd = None          # a folder we may not add to: the record's own lock still holds
        if name_fd is not None:
            try:
                fcntl.flock(name_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:     # an older hub holds the name (it does not lock the file)
                pid = _read_pid(name_fd)
                os.close(name_fd)
                os.close(fd)
                raise RecordBusy(self.db_path, pid) from None
            os.ftruncate(name_fd, 0)
            os.pwrite(name_fd, b"%d\n" % os.getpid(), 0)
        self.fd, self.name_fd = fd, name_fd
        return self

    def follow(self, path):
        """Hold the file now at ``path`` instead (a damaged record was moved aside and a
        salvaged one put in its place): the new file is locked before the old one is let go."""
        fd = _open(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = holder_pid(fd)
            os.close(fd)
            raise RecordBusy(path, pid) from None
        old, self.fd = self.fd, fd
        if old is not None:
            os.close(old)

    def release(self):
        """Drop the lock (after the record's connections are closed: see the module's note)."""
        for attr in ("name_fd", "fd"):
            fd = getattr(self, attr)
            if fd is not None:
                os.close(fd)        # closing drops the lock; the files stay
                setattr(self, attr, None)

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


def _open(path):
    """The record's file for its lock, made (0600) if it is not there. A file this user may
    only read is opened read-only: a lock needs no more, and the hub's start then salvages
    it into a file it can write (hub/record/startup.py)."""
    try:
        return os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600)
    except PermissionError:
        if not os.path.exists(path):
            raise
        return os.open(path, os.O_RDONLY | os.O_CLOEXEC)


def holder_pid(fd):
    """The pid holding a ``flock`` on the file open at ``fd``, from ``/proc/locks`` (lines like
    ``1: FLOCK  ADVISORY  WRITE 4242 08:01:1234567 0 EOF``), or None."""
    st = os.fstat(fd)
    want = (os.major(st.st_dev), os.minor(st.st_dev), st.st_ino)
    try:
        with open("/proc/locks") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    for line in lines:
        parts = line.split()
        if "->" in parts or len(parts) < 6 or parts[1] != "FLOCK":
            continue            # a waiter, or a POSIX lock (SQLite's own)
        try:
            major, minor, ino = parts[5].split(":")
            if (int(major, 16), int(minor, 16), int(ino)) == want:
                return int(parts[4])
        except ValueError:
            continue
    return None


def _read_pid(fd):
    try:
        return int(os.pread(fd, 32, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None
