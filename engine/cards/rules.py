"""Rules options: the places where the rule texts are silent and we chose.

Each option is documented in docs/rulings.md with the scenario that pins it.
A scenario sets them under ``rules:``; unknown options are an error.
"""

from collections.abc import Mapping
from typing import Any

from engine.cards.model import Card, parse_card, raise_if
from engine.core.errors import ScenarioError

DEFAULT_VIRTUAL_SKILL = {
    # brief ruling 1: kind/position/speed of the standard virtual skill are not official;
    # default = a defense that guards, evades and offsets nothing (guide 3.10 WARNING)
    "kind": "defense", "guard": [], "evade": [], "offset": [],
}

DEFAULTS = {
    "fp_catch": True,              # brief ruling 3 (001 5.3.8): FP catch allowed
    "virtual_skill": DEFAULT_VIRTUAL_SKILL,
    "non_response_limit": 3,       # guide 3.10 step 4: the third non-response loses
    "combo_damage_step": 100,      # brief ruling 2 (001 5.3.7): -100 per combo position after the 1st
    "list_max": 14,                # guide 3.2 IMPORTANT
    "defense_over_battles": 3,     # guide 5.1.1
    "sudden_death_health": 1000,   # guide 5.1.2 step 2
    "sudden_death_turns": 3,       # guide 5.1.2 step 7
    "both_evade_result_fp": True,  # our ruling R3: in both_evade each attack applies its `evaded` result
    "ready_seconds": 10,           # guide 3.10: the hub's deadline (not used by the pure engine)
    "heal_above_start": False,     # our ruling R18: a heal never raises health above the starting health
}


class Rules:
    __slots__ = tuple(DEFAULTS) + ("virtual",)
    fp_catch: bool
    virtual_skill: dict[str, Any]
    non_response_limit: int
    combo_damage_step: int
    list_max: int
    defense_over_battles: int
    sudden_death_health: int
    sudden_death_turns: int
    both_evade_result_fp: bool
    ready_seconds: int
    heal_above_start: bool
    virtual: Card               # the standard virtual skill's card (guide 3.10 step 3)

    def __init__(self, **options: Any) -> None:
        for key in options:
            if key not in DEFAULTS:
                raise ScenarioError("unknown rules option %r (known: %s)" % (key, ", ".join(sorted(DEFAULTS))))
        for key, default in DEFAULTS.items():
            value = options.get(key, default)
            if key == "virtual_skill":
                if not isinstance(value, dict):
                    raise ScenarioError("rules.virtual_skill must be a card mapping")
            elif isinstance(default, bool):
                if not isinstance(value, bool):
                    raise ScenarioError("rules.%s must be true or false" % key)
            elif not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ScenarioError("rules.%s must be a non-negative integer" % key)
            setattr(self, key, value)
        if self.virtual_skill is DEFAULT_VIRTUAL_SKILL:
            self.virtual = _default_virtual()
            return
        self.virtual = _virtual_card(self.virtual_skill)

    def to_json(self) -> dict[str, Any]:
        return {key: getattr(self, key) for key in DEFAULTS if getattr(self, key) != DEFAULTS[key]}

    @classmethod
    def from_json(cls, d: Mapping[str, Any] | None) -> "Rules":
        return cls(**(d or {}))


def _virtual_card(virtual_skill: Mapping[str, Any]) -> Card:
    data = dict(virtual_skill)
    data.setdefault("id", "virtual-skill")
    data.setdefault("name", "표준 가상 기술")
    data.setdefault("name_en", "standard virtual skill")
    for key in ("results", "special", "effects"):
        if data.get(key):
            raise ScenarioError("rules.virtual_skill has no %s (guide 3.10: no effects, special judgments, FP changes)" % key)
    if data.get("damage"):
        raise ScenarioError("rules.virtual_skill deals no damage (guide 3.10)")
    card, problems = parse_card(data, "rules.virtual_skill")
    raise_if(problems)
    assert card is not None     # no problems: a card
    return card


_DEFAULT: list[Card] = []


def _default_virtual() -> Card:
    """The default virtual skill card, built once (a constant: cards are immutable)."""
    if not _DEFAULT:
        _DEFAULT.append(_virtual_card(DEFAULT_VIRTUAL_SKILL))
    return _DEFAULT[0]
