"""Every event kind and its fields, with their types: one TypedDict a kind.

An event stays a plain JSON dict (``engine.core.events.Event``); these declarations say which
keys each kind carries (``NotRequired``: only sometimes) and what their values are. They are
checked, not trusted: tests/engine/test_event_kinds.py validates every event of every scenario
and of bot games against them and reads every ``ev(...)`` call of the engine's source, so a new
field or kind must be declared here. The scenario checker (engine/scenarios/patterns.py) reads
them, through engine/core/event_fields.py, to refuse a pattern that could never match: a field
its kind never has, a value of the wrong type, a card id the scenario does not have.

``Annotated[str, CARD]`` and the like mark a string that names something of the game; the checker
knows which values exist (the scenario's card ids, trait ids, timing names).
"""

from typing import Annotated, Literal, NotRequired, TypedDict

#: what a marked string names
CARD = "card"           # a card id (None where a field allows it: the standard virtual skill)
SOURCE = "source"       # what an effect came from: a card id or a character's trait id
TIMING = "timing"       # a timing name of the effect vocabulary (engine/cards/effects.py)

Seat = Literal["a", "b"]
CardId = Annotated[str, CARD]
SourceId = Annotated[str, SOURCE]
Timing = Annotated[str, TIMING]
Zone = Literal["hand", "list", "side_deck", "break_zone", "lumen_zone", "battle_zone", "ultimate"]
Outcome = Literal["hit", "counter", "guard", "evade", "guarded", "evaded", "countered", "was_hit", "trade", "offset",
                  "both_defend", "both_evade"]
ResultKey = Literal["hit", "counter", "guarded", "evaded", "countered", "guard", "evade", "offset", "was_hit"]
Reason = Literal["evade", "guard", "hit", "counter", "counter_evade", "trade", "offset_attack", "offset_defense",
                 "both_defend", "both_evade"]
Position = Literal["high", "mid", "low"]
Text = dict[str, str]   # {"ko": ..., "en": ...}


class _Event(TypedDict):
    rule: str           # the rule applied: "guide 3.6.2.2", "guide 4.4 step 12", "ruling R45" ...


class _EffectEvent(_Event):
    by: SourceId
    by_name: NotRequired[Text]          # a trait's name (traits are not in the card table)


# ------------------------------------------------------------------ setup and turn

class SetupEvent(_Event):
    e: Literal["setup"]
    p: Seat
    hand: int
    list: int
    side: int


class HandsShownEvent(_Event):
    e: Literal["hands_shown"]
    p: Seat
    n: int


class ListRevealedEvent(_Event):
    e: Literal["list_revealed"]
    p: Seat
    n: int


class UltimateShownEvent(_Event):
    e: Literal["ultimate_shown"]
    p: Seat


class CoinTossEvent(_Event):
    e: Literal["coin_toss"]
    p: Seat


class TurnStartEvent(_Event):
    e: Literal["turn_start"]
    turn: int


class PhaseEvent(_Event):
    e: Literal["phase"]
    name_ko: str
    name_en: str


class ReadyStartEvent(_Event):
    e: Literal["ready_start"]


class ReadyLockedEvent(_Event):
    e: Literal["ready_locked"]
    p: Seat


class NonResponseEvent(_Event):
    e: Literal["non_response"]
    p: Seat
    count: int


class PickEvent(_Event):
    e: Literal["pick"]
    p: Seat
    picker: Seat
    card: CardId


class UnusableReadyEvent(_Event):
    e: Literal["unusable_ready"]
    p: Seat
    card: CardId


class NoLegalReadyEvent(_Event):
    e: Literal["no_legal_ready"]
    p: Seat


class VirtualSkillEvent(_Event):
    e: Literal["virtual_skill"]
    p: Seat


class GetEvent(_Event):
    e: Literal["get"]
    p: Seat
    card: CardId


class GetSkipEvent(_Event):
    e: Literal["get_skip"]
    p: Seat
    why_ko: str
    why_en: str


class PriorityEvent(_Event):
    e: Literal["priority"]
    p: Seat
    why_ko: str
    why_en: str


class DiscardEvent(_Event):
    e: Literal["discard"]
    p: Seat
    cards: list[CardId]
    limit: int


class HandLimitChangeEvent(_Event):
    e: Literal["hand_limit_change"]
    p: Seat
    limit: int


class TurnEndEvent(_Event):
    e: Literal["turn_end"]
    turn: int


class StalledEvent(_Event):
    e: Literal["stalled"]
    count: int


class DefenseOverEvent(_Event):
    e: Literal["defense_over"]


class SuddenDeathEvent(_Event):
    e: Literal["sudden_death"]
    health: int
    turns: int


class WinEvent(_Event):
    e: Literal["win"]
    p: Seat
    why_ko: str
    why_en: str


class DrawEvent(_Event):
    e: Literal["draw"]
    why_ko: str
    why_en: str


class GameOverEvent(_Event):
    e: Literal["game_over"]
    winner: Literal["a", "b", "draw"]


class AtTimeEvent(_Event):
    e: Literal["at_time"]
    winner: Literal["a", "b", "draw"]
    decided_by: Literal["rules", "health_fraction", "non_responses", "draw"]
    health_a: int
    start_a: int
    non_responses_a: int
    health_b: int
    start_b: int
    non_responses_b: int


# ------------------------------------------------------------------ the battle (guide 4.4)

class RevealEvent(_Event):
    e: Literal["reveal"]
    a_card: CardId | None               # None: the standard virtual skill (guide 3.10 step 3)
    b_card: CardId | None


class FpSpeedEvent(_Event):
    e: Literal["fp_speed"]
    p: Seat
    card: CardId
    fp: int
    ref: int
    speed: int


class FpSpeedFloorEvent(_Event):
    e: Literal["fp_speed_floor"]
    p: Seat
    card: CardId


class FpSpeedFixedEvent(_Event):
    e: Literal["fp_speed_fixed"]
    p: Seat
    card: CardId
    fp: int
    speed: int


class FpSpentEvent(_Event):
    e: Literal["fp_spent"]


class JudgmentEvent(_Event):
    e: Literal["judgment"]
    a: Outcome
    b: Outcome
    reason: Reason
    w: NotRequired[Seat]                # the side that won the judgment, when one did
    l: NotRequired[Seat]
    wc: NotRequired[CardId | None]
    lc: NotRequired[CardId | None]
    pos: NotRequired[Position]          # the attack position that decided it
    ws: NotRequired[int]                # judged speeds (a counter; ws alone: a trade)
    ls: NotRequired[int]


class ResultFpEvent(_Event):
    e: Literal["result_fp"]
    p: Seat
    card: CardId | None
    key: ResultKey
    delta: int
    fp: int


class DamageEvent(_Event):
    e: Literal["damage"]
    p: Seat                             # who takes it
    amount: int
    card: CardId | None                 # the card that deals it
    health: int                         # health after it


class HealthLossEvent(_Event):
    e: Literal["health_loss"]
    p: Seat
    amount: int
    health: int


class OffsetEvenEvent(_Event):
    e: Literal["offset_even"]


class NullifyEvent(_Event):
    e: Literal["nullify"]
    p: Seat
    card: CardId
    target: CardId


class RedoReadyEvent(_Event):
    e: Literal["redo_ready"]


class BattleCutEvent(_Event):
    e: Literal["battle_cut"]
    p: Seat


class ComboStartEvent(_Event):
    e: Literal["combo_start"]
    p: Seat
    card: CardId


class ComboFirstOnlyEvent(_Event):
    e: Literal["combo_first_only"]


class ComboCardEvent(_Event):
    e: Literal["combo_card"]
    p: Seat
    card: CardId
    n: int
    base: int
    cut: int
    amount: int


class ComboEndEvent(_Event):
    e: Literal["combo_end"]


class CatchEvent(_Event):
    e: Literal["catch"]
    p: Seat
    card: CardId
    speed: int
    fp: int


class MoveEvent(_Event):
    e: Literal["move"]
    p: Seat
    card: CardId
    src: Zone
    dst: Zone


class MoveKeptEvent(_Event):
    e: Literal["move_kept"]
    p: Seat
    card: CardId
    src: Zone


class BreakEvent(_Event):
    e: Literal["break"]
    p: Seat
    card: CardId
    src: Zone
    why_ko: NotRequired[str]
    why_en: NotRequired[str]


class ReplenishEvent(_Event):
    e: Literal["replenish"]
    p: Seat
    card: CardId


class BattleEndEvent(_Event):
    e: Literal["battle_end"]


# ------------------------------------------------------------------ card effects

class EffectEvent(_EffectEvent):
    e: Literal["effect"]
    p: Seat
    n: int                              # the entry's place in its card's effects: list (1-based)
    timing: Timing
    timing_ko: str


class EffectPassEvent(_EffectEvent):
    e: Literal["effect_pass"]
    p: Seat


class EffectPassHiddenEvent(_Event):
    e: Literal["effect_pass_hidden"]
    p: Seat


class EffectNullifiedEvent(_EffectEvent):
    e: Literal["effect_nullified"]
    p: Seat


class EffectFpEvent(_EffectEvent):
    e: Literal["effect_fp"]
    p: Seat
    delta: int
    fp: int


class SpeedChangeEvent(_EffectEvent):
    e: Literal["speed_change"]
    p: Seat
    card: CardId
    old: int
    new: int


class SpeedIgnoredEvent(_EffectEvent):
    e: Literal["speed_ignored"]
    p: Seat
    card: CardId


class SpeedFixEvent(_EffectEvent):
    e: Literal["speed_fix"]
    p: Seat
    card: CardId
    old: int
    new: int


class FunctionOnEvent(_EffectEvent):
    e: Literal["function_on"]
    p: Seat
    card: CardId
    speed: NotRequired[int]             # the card's values read live then (ruling R45)
    damage: NotRequired[int | None]


class FunctionOffEvent(_EffectEvent):
    e: Literal["function_off"]
    p: Seat
    card: CardId
    speed: NotRequired[int]
    damage: NotRequired[int | None]


class NotAppliedEvent(_EffectEvent):
    e: Literal["not_applied"]
    p: Seat
    card: CardId


class TreatSpeedEvent(_EffectEvent):
    e: Literal["treat_speed"]
    p: Seat
    card: CardId
    speed: int


class DamageModEvent(_EffectEvent):
    e: Literal["damage_mod"]
    p: Seat
    card: CardId
    delta: int
    amount: int


class JudgmentAddedEvent(_EffectEvent):
    e: Literal["judgment_added"]
    p: Seat
    card: CardId
    judgment: Literal["evade", "guard", "offset"]


class HealEvent(_EffectEvent):
    e: Literal["heal"]
    p: Seat
    amount: int
    health: int


class EffectHealthLossEvent(_EffectEvent):
    e: Literal["effect_health_loss"]
    p: Seat
    amount: int
    health: int


class GuardDamageEvent(_Event):
    e: Literal["guard_damage"]
    p: Seat
    amount: int
    health: int


class EffectDiscardEvent(_EffectEvent):
    e: Literal["effect_discard"]
    p: Seat
    card: CardId


class ReturnChangedEvent(_Event):
    e: Literal["return_changed"]
    p: Seat
    card: CardId
    dst: Zone


class EffectNullifyEvent(_EffectEvent):
    e: Literal["effect_nullify"]
    p: Seat
    tp: Seat                            # whose card is nullified
    card: CardId
    what: Literal["card", "effects"]


class CatchGrantedEvent(_EffectEvent):
    e: Literal["catch_granted"]
    p: Seat
    max: int


class CatchEffectEvent(_Event):
    e: Literal["catch_effect"]
    p: Seat
    card: CardId
    speed: int


class ComboGrantedEvent(_EffectEvent):
    e: Literal["combo_granted"]
    p: Seat


class ComboStartEffectEvent(_Event):
    e: Literal["combo_start_effect"]
    p: Seat


class ComboIllegalEvent(_Event):
    e: Literal["combo_illegal"]
    p: Seat
    card: CardId


class TokenEvent(_EffectEvent):
    e: Literal["token"]
    p: Seat
    name: str                           # the token's id
    delta: int
    count: int
    token_name: NotRequired[Text]


class TokenShortEvent(_Event):
    e: Literal["token_short"]
    p: Seat
    name: str
    have: int
    need: int
    token_name: NotRequired[Text]


class ChoiceEvent(_EffectEvent):
    e: Literal["choice"]
    p: Seat
    option: str


class SpecialUseEvent(_Event):
    e: Literal["special_use"]
    p: Seat
    card: CardId
    src: Zone
    dst: Zone
    timing: Timing


class ProhibitedEvent(_EffectEvent):
    e: Literal["prohibited"]
    p: Seat
    action: Literal["gain_fp", "lose_fp", "heal", "speed_change", "catch", "draw", "break", "ready"]


class LastingEvent(_EffectEvent):
    e: Literal["lasting"]
    p: Seat
    until: Literal["battle", "turn", "next_turn"]


class LastingEndEvent(_EffectEvent):
    e: Literal["lasting_end"]
    p: Seat


KINDS: tuple[type, ...] = (
    SetupEvent, HandsShownEvent, ListRevealedEvent, UltimateShownEvent, CoinTossEvent, TurnStartEvent,
    PhaseEvent, ReadyStartEvent, ReadyLockedEvent, NonResponseEvent, PickEvent, UnusableReadyEvent,
    NoLegalReadyEvent, VirtualSkillEvent, GetEvent, GetSkipEvent, PriorityEvent, DiscardEvent,
    HandLimitChangeEvent, TurnEndEvent, StalledEvent, DefenseOverEvent, SuddenDeathEvent, WinEvent, DrawEvent,
    GameOverEvent, AtTimeEvent, RevealEvent, FpSpeedEvent, FpSpeedFloorEvent, FpSpeedFixedEvent, FpSpentEvent,
    JudgmentEvent, ResultFpEvent, DamageEvent, HealthLossEvent, OffsetEvenEvent, NullifyEvent, RedoReadyEvent,
    BattleCutEvent, ComboStartEvent, ComboFirstOnlyEvent, ComboCardEvent, ComboEndEvent, CatchEvent,
    MoveEvent, MoveKeptEvent, BreakEvent, ReplenishEvent, BattleEndEvent, EffectEvent, EffectPassEvent,
    EffectPassHiddenEvent, EffectNullifiedEvent, EffectFpEvent, SpeedChangeEvent, SpeedIgnoredEvent,
    SpeedFixEvent, FunctionOnEvent, FunctionOffEvent, NotAppliedEvent, TreatSpeedEvent, DamageModEvent,
    JudgmentAddedEvent, HealEvent, EffectHealthLossEvent, GuardDamageEvent, EffectDiscardEvent,
    ReturnChangedEvent, EffectNullifyEvent, CatchGrantedEvent, CatchEffectEvent, ComboGrantedEvent,
    ComboStartEffectEvent, ComboIllegalEvent, TokenEvent, TokenShortEvent, ChoiceEvent, SpecialUseEvent,
    ProhibitedEvent, LastingEvent, LastingEndEvent,
)
