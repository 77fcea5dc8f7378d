"""The record's errors: what a store refuses or finds damaged, each naming what was wrong (in
Korean and English where a person reads it). Apart from the store so the modules the store
uses (its card tables) can raise them without importing the store."""


class StoreError(Exception):
    pass


class DamagedRecord(StoreError):
    """A record that can't be read back (a flipped byte, a torn page): names the game and seq."""


class DamagedSchema(DamagedRecord):
    """The file's tables are not the record's (one dropped or renamed): salvaged, never written."""


class RecordUnwritable(StoreError):
    """The record refused a write (full disk, read-only file, I/O error): nothing of the
    change was kept, so nothing of it may be applied or shown."""

    def __init__(self, path, cause):
        self.path, self.cause = path, str(cause)
        self.ko = "기록을 쓸 수 없습니다: %s: %s" % (path, _why_ko(self.cause))
        self.en = "the record can't be written: %s: %s" % (path, self.cause)
        super().__init__("%s / %s" % (self.ko, self.en))

    def to_json(self):
        return {"ko": self.ko, "en": self.en}


def _why_ko(cause):
    c = cause.lower()
    if "full" in c:
        return "디스크가 가득 찼습니다 (%s)" % cause
    if "readonly" in c or "read-only" in c or "unable to open" in c:
        return "읽기 전용이거나 열 수 없습니다 (%s)" % cause
    return cause
