"""What the profile tests share: a game of a bundled profile, answers with a clock that
moves, the seat's prompt as the pods get it."""

from hub.profiles import cards, profile
from hub.sessions.profile_game import ProfileGame


class Play:
    """A pure profile game and a millisecond clock for its inputs."""

    def __init__(self, pid, players=2, chars=None, seed=1, first="a", card_set="battlecon-sample", alts=None):
        self.profile = profile.get(pid)
        cs = cards.bundled()[card_set] if chars else None
        self.game = ProfileGame(self.profile, players, {s: cs.character(c) for s, c in (chars or {}).items()},
                                seed=seed, first=first, alts=alts)
        self.t = 0
        self.entries = []

    @property
    def st(self):
        return self.game.st

    def answer(self, seat, kind, value):
        self.t += 10
        out = self.game.answer(seat, kind, value, self.t)
        self.entries += out
        return out

    def cmd(self, **c):
        self.t += 10
        out = self.game.perform(c, self.t)
        self.entries += out
        return out

    def pair(self, seat, *cards_):
        for c in cards_:
            self.answer(seat, "ready", c)

    def antes_pass(self):
        """Both pass the ante, the leader first (seed 004 2.B)."""
        while self.st["phase"] == "ante":
            self.answer(self.st["ante"]["turn"], "ante", "pass")

    def beat(self, a, b, end=True):
        """Both pick their pair, pass the antes; ``end``: both pods confirm the beat's end."""
        self.pair("a", *a)
        self.pair("b", *b)
        self.antes_pass()
        if end and self.st["phase"] == "resolve":
            self.end()

    def end(self):
        for s in self.game.playing():
            if self.st["phase"] in ("resolve", "play") and s not in self.st["confirmed"]:
                self.answer(s, "end_turn", "done")

    def texts(self):
        return [e["text_ko"] for e in self.entries]
