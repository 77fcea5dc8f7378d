"""The card library's refusal, apart from the library (hub/library/sets.py), so the app can
register its error handler at start without importing the library (hub/web/app.py)."""

from engine import josa


class LibraryError(Exception):
    """A refused library action. ``code`` is the API error code (not_found, invalid, read_only,
    conflict); ``problems`` lists the checker's findings as JSON; ``ko``/``en`` say it in words."""

    def __init__(self, code, en, ko, problems=()):
        super().__init__(en)
        self.code, self.en, self.ko = code, en, josa(ko)
        self.problems = list(problems)
