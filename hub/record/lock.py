"""One hub per record (issue 11.5): an OS file lock beside the database.

Two hubs appending to one record diverge (each replays its own game and numbers its own
records), so ``lumen hub`` takes an exclusive, non-blocking ``flock`` on ``DB.lock`` for as
long as it runs and writes its pid there; a second hub is refused with a message naming
that pid. The kernel drops the lock when the holder dies, kill -9 included: no stale lock
to clean up. Readers (``lumen games``, ``export``, ``doctor``) take no lock.
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
        self.fd = None

    def acquire(self):
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as e:        # a read-only file system: say so, as the store would
            raise RecordUnwritable(self.db_path, e) from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise RecordBusy(self.db_path, pid) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, b"%d\n" % os.getpid(), 0)
        self.fd = fd
        return self

    def release(self):
        if self.fd is not None:
            os.close(self.fd)        # closing drops the lock; the file stays (its pid is stale, harmless)
            self.fd = None

    def __enter__(self):
        return self.acquire()

    def __exit__(self, *exc):
        self.release()


def _read_pid(fd):
    try:
        return int(os.pread(fd, 32, 0).split()[0])
    except (OSError, ValueError, IndexError):
        return None
