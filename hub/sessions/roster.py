"""The character roster for tracker mode (brief section 6).

This is the roster exactly as the community phone calculator has it: Korean
names as printed in the brief's table, an unofficial English romanisation,
starting health, hand limits by health band and the token counters each
character keeps on the table.  Official card texts are not available to us, so
nothing here goes beyond what the table says; the tracker shows the traits as
flags and automates only what the table states as a rule (요한's +1 token).

Health bands (guide 3.3.1, brief 4.2 and 6) are fixed health values, even for
characters that start at 4500 or 5500::

    health > 4000 -> hand_limits[0]      (the 5000-4001 band)
    health > 3000 -> hand_limits[1]      (4000-3001)
    health > 2000 -> hand_limits[2]      (3000-2001)
    health > 1000 -> hand_limits[3]      (2000-1001)
    otherwise     -> hand_limits[4]      (1000 or less)

A character starting at 5500 is simply in the first band above 5000, one at
4500 starts in it too.
"""

from dataclasses import dataclass

from engine.cards import hand_limit as engine_hand_limit

#: Lower edges of the hand-limit bands: health above BAND_FLOORS[i] -> limit i.
BAND_FLOORS = (4000, 3000, 2000, 1000)
DEFAULT_LIMITS = (6, 7, 8, 9, 9)

# trait kinds (what the tracker can compute or automate for a trait)
TOKEN_FULL = "token_full"          # 울프: flag when one counter reaches a value
TOKENS_ALL_AT = "tokens_all_at"    # 타오: flag when every counter is at a value
STANCE_ALL = "stance_all"          # 리타: a stance value that means all three
FIRST_DROP_BONUS = "first_drop_bonus"  # 요한: +N token when health first drops to <= X
HEALTH_AT_MOST = "health_at_most"  # 무영: on while health <= X
TOGGLE = "toggle"                  # 키메라: switched on/off by the player


class UnknownCharacter(LookupError):
    """No roster character has this id or name."""


@dataclass(frozen=True)
class TokenSpec:
    """One token counter on a character (brief section 6, "tokens (start/max)").

    ``name`` (Korean) is the key the tracker stores the count under; ``max``
    None means unbounded.  Counters never go below 0.
    """

    name: str
    name_en: str
    start: int
    max: int | None

    def to_json(self):
        return {"name": self.name, "name_en": self.name_en, "start": self.start, "max": self.max}


@dataclass(frozen=True)
class Trait:
    """What the tracker knows about a character's trait card (guide 3.3.2).

    Only the behaviour stated in the brief's roster table is modelled:
    ``kind`` says how the tracker computes whether it is on, ``token`` and
    ``value`` parametrise it, ``bonus`` is a token amount (요한) or a hand-limit
    increase while on (키메라).
    """

    kind: str
    name: str
    name_en: str
    note_ko: str
    note_en: str
    token: str | None = None
    value: int | None = None
    bonus: int = 0

    def to_json(self):
        return {"kind": self.kind, "name": self.name, "name_en": self.name_en,
                "note_ko": self.note_ko, "note_en": self.note_en,
                "token": self.token, "value": self.value, "bonus": self.bonus}


@dataclass(frozen=True)
class Stance:
    """A stance choice (리타): ``covers`` lists the basic stances it stands for."""

    name: str
    name_en: str
    covers: tuple[str, ...]


@dataclass(frozen=True)
class Character:
    """One roster entry.  ``id`` is ASCII and stable; ``name`` is the Korean
    name exactly as in the brief's table; ``name_en`` is an unofficial
    romanisation for the English UI."""

    id: str
    name: str
    name_en: str
    start_health: int = 5000
    hand_limits: tuple[int, ...] = DEFAULT_LIMITS
    tokens: tuple[TokenSpec, ...] = ()
    stances: tuple[Stance, ...] = ()
    trait: Trait | None = None

    def hand_limit(self, health, trait_on=False):
        """Hand limit at ``health`` (guide 3.3.1; fixed bands, module docstring).

        ``trait_on`` adds a toggle trait's bonus (키메라: +1 while its trait is on).
        """
        limit = engine_hand_limit(self.health_bands, self.hand_limits, health)
        if trait_on and self.trait is not None and self.trait.kind == TOGGLE:
            limit += self.trait.bonus
        return limit

    @property
    def health_bands(self):
        """The bands in the engine's character format (brief 4.2):
        ``[start, 4000, 3000, 2000, 1000]`` pairs with ``hand_limits``."""
        return (self.start_health,) + BAND_FLOORS

    def token_spec(self, name):
        """The counter called ``name`` (Korean or English, case-insensitive);
        None picks the only counter of a one-counter character."""
        if name is None:
            return self.tokens[0] if len(self.tokens) == 1 else None
        if not isinstance(name, str):
            return None
        for spec in self.tokens:
            if name == spec.name or name.casefold() == spec.name_en.casefold():
                return spec
        return None

    def stance(self, name):
        """The stance called ``name`` (Korean or English), or None."""
        if not isinstance(name, str):
            return None
        for st in self.stances:
            if name == st.name or name.casefold() == st.name_en.casefold():
                return st
        return None

    def to_json(self):
        return {
            "id": self.id, "name": self.name, "name_en": self.name_en,
            "start_health": self.start_health, "hand_limits": list(self.hand_limits),
            "health": list(self.health_bands),
            "tokens": [t.to_json() for t in self.tokens],
            "stances": [{"name": s.name, "name_en": s.name_en, "covers": list(s.covers)} for s in self.stances],
            "trait": self.trait.to_json() if self.trait else None,
        }


def _counter(start, maximum, name="토큰", name_en="tokens"):
    return TokenSpec(name, name_en, start, maximum)


_RITA_BASIC = ("가디언", "어쌔신", "팔라딘")

#: Players who do not pick a character: no tokens, 5000 health, default limits.
GENERIC = Character("generic", "일반", "Generic")

#: The roster in the order of the brief's table, then the generic character.
ROSTER = (
    Character("nia", "니아", "Nia"),
    Character("root", "루트", "Root"),
    Character("delphi", "델피", "Delphi", tokens=(_counter(3, 3),)),
    Character("keith", "키스 더 래빗", "Keith the Rabbit"),
    Character("wolf", "울프", "Wolf", tokens=(_counter(0, 5, "하울링", "Howling"),),
              trait=Trait(TOKEN_FULL, "특성", "trait",
                          "하울링 5개: 특성으로 전부 소모", "Howling at 5: the trait spends them all",
                          token="하울링", value=5)),
    Character("viola", "비올라", "Viola", tokens=(_counter(0, 3),)),
    Character("lev", "레브", "Lev", tokens=(_counter(0, 6),)),
    Character("tao", "타오", "Tao", tokens=(_counter(0, 4, "양", "Yang"), _counter(0, 4, "음", "Yin")),
              trait=Trait(TOKENS_ALL_AT, "조화", "Harmony",
                          "양과 음이 모두 4개", "Yang and Yin both at 4", value=4)),
    Character("rita", "리타", "Rita", hand_limits=(6, 7, 8, 9, 10),
              stances=(Stance("가디언", "Guardian", ("가디언",)),
                       Stance("어쌔신", "Assassin", ("어쌔신",)),
                       Stance("팔라딘", "Paladin", ("팔라딘",)),
                       Stance("빛의 루멘", "Lumen of Light", _RITA_BASIC)),
              trait=Trait(STANCE_ALL, "빛의 루멘", "Lumen of Light",
                          "가디언·어쌔신·팔라딘 모두", "Guardian, Assassin and Paladin at once")),
    Character("rin", "린", "Rin", tokens=(_counter(0, None),)),
    Character("johan", "요한", "Johan", tokens=(_counter(3, 5),),
              trait=Trait(FIRST_DROP_BONUS, "특성", "trait",
                          "체력이 처음 2000 이하가 되면 토큰 +1",
                          "+1 token when health first drops to 2000 or less",
                          token="토큰", value=2000, bonus=1)),
    Character("jezebel", "이제벨", "Jezebel", tokens=(_counter(0, None),)),
    Character("iomong", "이오몽", "Iomong"),
    Character("chimera", "키메라", "Chimera", hand_limits=(5, 5, 5, 6, 6), tokens=(_counter(0, 9),),
              trait=Trait(TOGGLE, "특성", "trait",
                          "특성이 켜져 있는 동안 패 상한 +1", "hand limit +1 while the trait is on",
                          bonus=1)),
    Character("muyeong", "무영", "Muyeong", start_health=4500, tokens=(_counter(3, 5),),
              trait=Trait(HEALTH_AT_MOST, "특성", "trait",
                          "체력 2500 이하에서 특성 켜짐", "trait on while health is 2500 or less",
                          value=2500)),
    Character("fuenf_soldat", "핀프 & 솔다트", "Fünf & Soldat", start_health=5500, tokens=(_counter(4, 4),)),
    Character("cmyk", "CMYK", "CMYK", hand_limits=(10, 10, 10, 10, 10), tokens=(_counter(10, 10),)),
    Character("minyeongi", "미녕이", "Minyeongi"),
    GENERIC,
)

_BY_KEY = {}
for _c in ROSTER:
    _BY_KEY[_c.id] = _c
    _BY_KEY[_c.name] = _c
    _BY_KEY[_c.name_en.casefold()] = _c


def get(key):
    """The character with this id, Korean name or English name.

    Raises :class:`UnknownCharacter` naming the key when there is none.
    """
    if isinstance(key, Character):
        key = key.id
    if isinstance(key, str):
        c = _BY_KEY.get(key) or _BY_KEY.get(key.strip()) or _BY_KEY.get(key.strip().casefold())
        if c is not None:
            return c
    raise UnknownCharacter("unknown character %r (known: %s)" % (key, ", ".join(c.id for c in ROSTER)))
