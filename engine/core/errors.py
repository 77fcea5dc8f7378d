"""Error types. Every message names what was wrong and where, so a player can fix the file."""

from collections.abc import Iterable


class LumenError(Exception):
    """Base class for all engine errors."""


class Problem:
    """One problem found in an input file: where it is and what is wrong."""

    __slots__ = ("file", "line", "card", "field", "message")

    def __init__(self, message: str, file: str | None = None, line: int | None = None, card: str | None = None,
                 field: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.card = card
        self.field = field

    def __str__(self) -> str:
        where = ""
        if self.file:
            where = str(self.file)
            if self.line:
                where += ":%d" % self.line
            where += ": "
        subject = ""
        if self.card:
            subject += "card %s: " % self.card
        if self.field:
            subject += "%s: " % self.field
        return where + subject + self.message

    def __repr__(self) -> str:
        return "Problem(%r)" % str(self)


class CardError(LumenError):
    """A card, character or deck definition is invalid. Carries every problem found."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


class IllegalDecision(LumenError):
    """An answer that the engine did not ask for or that is not among the legal options.

    The state is never changed when this is raised.
    """


class ScenarioError(LumenError):
    """A scenario file is malformed (unknown key, bad value)."""
