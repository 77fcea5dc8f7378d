"""Events: what happened, which rule applied, and why, in Korean and English.

An event is a small dict: ``{"e": kind, "rule": "guide 3.6.2.1", ...params}``.
Card ids, not names, are stored; ``explain(event, cards)`` renders the one-line
reason in both languages (this is what the table display shows learners).
Marker events (``battle_end``, ``turn_end``, ``ready_start``, ``game_over``)
let callers pause at those points.
"""

import re
import string
from collections.abc import Callable, Mapping
from typing import Any, Protocol

#: an event: ``{"e": kind, "rule": "guide ...", ...fields}``, plain JSON; each kind's fields and
#: their types are declared in engine/core/event_kinds.py
Event = dict[str, Any]


class _Named(Protocol):
    def label(self, lang: str) -> str: ...


#: the card table events are explained against: id -> card (engine.cards.model.Card)
Cards = Mapping[str, _Named]
#: how one template field is filled from an event (``_FIELD``): the value or ``_MISSING``
_Getter = Callable[[Event, "Cards | None", str], Any]

POS_KO = {"high": "상단", "mid": "중단", "low": "하단"}
SEAT_KO = {"a": "1P", "b": "2P"}
SEAT_EN = {"a": "1P", "b": "2P"}

OUTCOME_KO = {
    "hit": "히트", "counter": "카운터", "guard": "방어", "evade": "회피",
    "guarded": "방어됨", "evaded": "회피됨", "countered": "카운터당함", "was_hit": "히트당함",
    "trade": "동시히트", "offset": "상쇄", "both_defend": "서로 수비", "both_evade": "서로 회피",
}
OUTCOME_EN = {
    "hit": "hit", "counter": "counter", "guard": "guard", "evade": "evade",
    "guarded": "guarded", "evaded": "evaded", "countered": "countered", "was_hit": "was hit",
    "trade": "trade", "offset": "offset", "both_defend": "both defend", "both_evade": "both evade",
}

# Why a battle ended the way it did: (ko, en) templates; {w} winner side, {l} loser side,
# {wc}/{lc} their cards, {pos} the attack position, {ws}/{ls} judgment speeds.
JUDGMENT_REASONS = {
    "evade": ("{w}의 {wc}이(가) {l}의 {lc}({pos})을(를) 회피했습니다: 회피 위치가 공격 위치와 일치합니다.",
              "{w}'s {wc} evades {l}'s {lc} ({pos}): its evade position matches the attack."),
    "guard": ("{w}의 {wc}이(가) {l}의 {lc}({pos})을(를) 방어했습니다: 방어 위치가 공격 위치와 일치합니다.",
              "{w}'s {wc} guards {l}'s {lc} ({pos}): its guard position matches the attack."),
    "hit": ("{w}의 {wc}({pos})이(가) 히트했습니다: {l}의 {lc}에 맞는 방어·회피·상쇄가 없습니다.",
            "{w}'s {wc} ({pos}) hits: {l}'s {lc} has no guard, evade or offset for it."),
    "counter": ("{w}의 {wc}(판정 속도 {ws})이(가) {l}의 {lc}(판정 속도 {ls})보다 빨라 카운터했습니다.",
                "{w}'s {wc} (speed {ws}) is faster than {l}'s {lc} (speed {ls}): counter."),
    "counter_evade": ("{w}의 {wc}이(가) 특수 판정으로 {l}의 {lc}({pos})을(를) 회피하며 공격에 성공해 카운터했습니다.",
                      "{w}'s {wc} evades {l}'s {lc} ({pos}) with its special judgment and lands: counter."),
    "trade": ("양쪽 공격의 판정 속도가 {ws}(으)로 같아 동시히트입니다.",
              "Both attacks judge at speed {ws}: trade."),
    "offset_attack": ("{w}의 {wc}이(가) 더 느리고 상쇄 위치가 {l}의 {lc}({pos})와(과) 일치해 상쇄됩니다.",
                      "{w}'s {wc} is slower and its offset position matches {l}'s {lc} ({pos}): offset."),
    "offset_defense": ("{w}의 {wc}의 상쇄 위치가 {l}의 {lc}({pos})와(과) 일치해 상쇄됩니다 (속도 비교 없음).",
                       "{w}'s {wc} offsets {l}'s {lc} ({pos}); a defense offset compares no speed."),
    "both_defend": ("두 플레이어 모두 수비 기술을 사용해 서로 수비(무승부)입니다.",
                    "Both players used a defense: both defend (draw)."),
    "both_evade": ("양쪽 공격이 서로를 회피해 서로 회피(무승부)입니다.",
                   "Each attack evades the other: both evade (draw)."),
}

TEMPLATES = {
    # kind: (ko, en)
    "setup": ("{p}: 패 {hand}장, 리스트 {list}장, 사이드 덱 {side}장으로 준비했습니다.",
              "{p}: set up {hand} in hand, {list} in the list, {side} in the side deck."),
    "hands_shown": ("{p}의 초기 패 {n}장을 상대가 확인하고 돌려주었습니다.",
                    "{p}'s opening hand ({n} cards) was shown to the opponent and handed back."),
    "list_revealed": ("{p}의 리스트 {n}장을 앞면으로 공개했습니다.", "{p}'s list ({n} cards) is turned face up."),
    "ultimate_shown": ("{p}의 얼티밋 카드는 얼티밋 존에 앞면으로 놓여 있습니다.",
                       "{p}'s ultimate lies face up in the ultimate zone."),
    "coin_toss": ("코인 토스로 {p}이(가) 최초 우선권을 가집니다.", "Coin toss: {p} holds the first priority."),
    "turn_start": ("{turn}턴 시작.", "Turn {turn} begins."),
    "phase": ("{name_ko} 페이즈.", "{name_en} phase."),
    "ready_locked": ("{p}이(가) 레디를 선언했습니다.", "{p} declared ready."),
    "non_response": ("{p}이(가) 대응하지 않았습니다 ({count}회째): 패를 공개합니다.",
                     "{p} did not respond (time {count}): the hand is revealed."),
    "pick": ("{picker}이(가) {p}의 패에서 {card}을(를) 골라 레디한 것으로 취급합니다.",
             "{picker} picks {card} from {p}'s hand as {p}'s ready card."),
    "unusable_ready": ("{p}이(가) 사용 조건을 만족하지 못한 {card}을(를) 레디했습니다: 대응하지 않은 것으로 취급하고 패로 돌립니다.",
                       "{p} readied {card} without meeting its use condition: a non-response; it goes back to the hand."),
    "no_legal_ready": ("{p}의 패에 사용 조건을 만족하는 기술이 없어 레디할 수 없습니다.",
                       "{p} has no skill in hand whose use condition holds: nothing to ready."),
    "virtual_skill": ("{p}의 패에 레디할 기술이 없어 표준 가상 기술을 레디한 것으로 취급합니다.",
                      "{p} has nothing to ready: the standard virtual skill is readied."),
    "reveal": ("공개: 1P {a_card} / 2P {b_card}.", "Reveal: 1P {a_card} / 2P {b_card}."),
    "fp_speed": ("{p}의 FP {fp}: {card}의 속도 {ref} → 판정 속도 {speed}.",
                 "{p}'s FP {fp}: {card} speed {ref} -> judgment speed {speed}."),
    "fp_speed_floor": ("{p}의 {card}: 계산된 속도가 0 이하라 실제 속도는 1입니다.",
                       "{p}'s {card}: a computed speed of 0 or less counts as 1."),
    "fp_spent": ("양쪽 FP를 모두 소모해 0이 됩니다.", "Both players spend all FP: both at 0."),
    "judgment": ("판정: 1P {a_label} / 2P {b_label}. {reason_ko}", "Judgment: 1P {a_label_en} / 2P {b_label_en}. {reason_en}"),
    "result_fp": ("{p}: {card}의 판정 결과({key}) FP {delta:+d} → {fp}.",
                  "{p}: {card} result ({key}) FP {delta:+d} -> {fp}."),
    "damage": ("{p}이(가) {amount} 데미지를 받았습니다 ({card}): 체력 {health}.",
               "{p} takes {amount} damage ({card}): health {health}."),
    "health_loss": ("{p}이(가) 상쇄로 데미지 차이 {amount}만큼 체력을 잃었습니다: 체력 {health}.",
                    "{p} loses {amount} health, the offset damage difference: health {health}."),
    "offset_even": ("상쇄: 양쪽 데미지가 같아 체력 변화가 없습니다.", "Offset: equal damage, no health lost."),
    "nullify": ("{p}이(가) 패의 {card}을(를) 브레이크해 상대 그랩 {target}을(를) 무효로 했습니다.",
                "{p} breaks {card} from hand to nullify the grab {target}."),
    "redo_ready": ("그랩이 무효가 되어 같은 턴의 레디 페이즈를 다시 진행합니다.",
                   "The grab was nullified: the ready phase of this turn repeats."),
    "combo_start": ("{p}의 {card}이(가) 1콤보가 되어 콤보 타임을 시작합니다.",
                    "{p}'s {card} is the 1st combo: combo time begins."),
    "combo_first_only": ("양쪽 공격이 모두 콤보라 각자 1콤보만 처리하고 콤보 타임을 종료합니다.",
                         "Both attacks are combos: each processes only its 1st combo and combo time ends."),
    "combo_card": ("{p}의 {n}콤보: {card} (데미지 {base} - 보정 {cut} = {amount}).",
                   "{p}'s combo {n}: {card} (damage {base} - correction {cut} = {amount})."),
    "combo_end": ("콤보 타임 종료: 콤보 카드는 리스트로, 양쪽 FP는 0이 되고 배틀 페이즈를 종료합니다.",
                  "Combo time ends: combo cards go to the list, both FP become 0, the battle phase ends."),
    "catch": ("{p}이(가) {card}(속도 {speed})(으)로 캐치합니다 (FP {fp}): 양쪽 FP를 0으로 하고 자동 히트.",
              "{p} catches with {card} (speed {speed}) at FP {fp}: both FP to 0, automatic hit."),
    "move": ("{p}의 {card}: {src} → {dst}.", "{p}'s {card}: {src} -> {dst}."),
    "move_kept": ("{p}의 {card}은(는) 브레이크될 수 없어 {src}에 남습니다 (금지 효과가 우선합니다).",
                  "{p}'s {card} cannot be broken: it stays in the {src} (a prohibition wins)."),
    "break": ("{p}의 {card}이(가) {src}에서 브레이크되었습니다{why_ko}.", "{p}'s {card} is broken from {src}{why_en}."),
    "replenish": ("{p}이(가) 사이드 덱의 {card}을(를) 리스트에 보충했습니다.", "{p} replenishes {card} from the side deck to the list."),
    "discard": ("{p}이(가) 패 상한({limit}장)을 넘어 {cards}을(를) 버렸습니다 (패 → 리스트).",
                "{p} is over the hand limit ({limit}) and discards {cards} (hand -> list)."),
    "priority": ("우선권: {p} ({why_ko}).", "Priority: {p} ({why_en})."),
    "get": ("{p}이(가) {card}을(를) 패에 넣었습니다.", "{p} takes {card} into the hand."),
    "get_skip": ("{p}은(는) 겟을 하지 않습니다{why_ko}.", "{p} does not get{why_en}."),
    "stalled": ("정체된 배틀 {count}회 연속 (공격·데미지·FP 변동·효과 없음).",
                "{count} stalled battle(s) in a row (no attack, damage, FP change or effect)."),
    "defense_over": ("디펜스 오버: 양쪽 배틀 존의 기술을 브레이크합니다.", "Defense over: both battle-zone skills are broken."),
    "win": ("{p}의 승리 ({why_ko}).", "{p} wins ({why_en})."),
    "draw": ("무승부 ({why_ko}).", "Draw ({why_en})."),
    "sudden_death": ("양쪽 체력이 같은 처리 단위에서 0 이하: 서든 데스 (체력 {health}, FP 0, 우선권 유지, {turns}턴).",
                     "Both at 0 health in the same unit: sudden death (health {health}, FP 0, priority kept, {turns} turns)."),
    "battle_end": ("배틀 종료.", "Battle ends."),
    "battle_cut": ("그랩 무효: 남은 판정 효과·FP·데미지와 판정 후·사용 후·콤보·캐치는 처리하지 않고, 이 배틀은 끝납니다.",
                   "Grab nullified: the remaining judgment effects, FP and damage, after-judgment, after-use, combo "
                   "and catch are not processed; this battle ends."),
    # card effects (engine/cards/effects.py, engine/play/windows.py, engine/play/primitives.py)
    "effect": ("{p}: {by}의 {timing_ko} 효과를 처리합니다.", "{p}: {by}'s effect ({timing_en}) resolves."),
    "effect_pass": ("{p}이(가) {by}의 임의 효과를 사용하지 않았습니다: 이 타이밍에 다시 사용할 수 없습니다.",
                    "{p} passes {by}'s optional effect: it cannot be used again at this timing."),
    "effect_pass_hidden": ("{p}이(가) 비공개 유발 효과를 사용하지 않았습니다.", "{p} passes a hidden triggered effect."),
    "effect_nullified": ("{p}: {by}의 번호 붙은 효과는 무효가 되어 처리하지 않습니다 (기능은 적용).",
                         "{p}: {by}'s numbered effect is nullified (functions still apply)."),
    "effect_fp": ("{p}: {by}의 효과로 FP {delta:+d} → {fp}.", "{p}: {by}'s effect, FP {delta:+d} -> {fp}."),
    "speed_change": ("{p}의 {card}: {by}의 효과로 속도 {old} → {new}.", "{p}'s {card}: {by}'s effect, speed {old} -> {new}."),
    "speed_ignored": ("{p}의 {card}: 속도가 고정되어 {by}의 속도 변화는 적용되지 않습니다.",
                      "{p}'s {card}: its speed is fixed, {by}'s speed change does not apply."),
    "speed_fix": ("{p}의 {card}: {by}의 효과로 속도 {new}(으)로 고정합니다 (이후 FP·속도 변화 없음).",
                  "{p}'s {card}: {by}'s effect fixes its speed at {new} (no later FP or speed change)."),
    "fp_speed_fixed": ("{p}의 {card}: 속도가 {speed}(으)로 고정되어 FP {fp}은(는) 속도에 반영되지 않습니다 (FP는 소모).",
                       "{p}'s {card}: its speed is fixed at {speed}; FP {fp} does not change it (it is still spent)."),
    "function_on": ("{p}의 {card}: 이제 {by}의 기능이 적용됩니다{now_ko}.",
                    "{p}'s {card}: {by}'s function applies now{now_en}."),
    "function_off": ("{p}의 {card}: 이제 {by}의 기능이 적용되지 않습니다{now_ko}.",
                     "{p}'s {card}: {by}'s function no longer applies{now_en}."),
    "not_applied": ("{p}의 {card}: {by}의 효과는 먼저 적용된 효과와 모순되어 적용하지 않습니다.",
                    "{p}'s {card}: {by}'s effect contradicts one applied first and does not apply."),
    "treat_speed": ("{p}의 {card}: {by}의 효과로 콤보 연결에서 속도 {speed}(으)로 취급합니다.",
                    "{p}'s {card}: {by}'s effect, it counts as speed {speed} for combo links."),
    "damage_mod": ("{p}의 {card}: {by}의 효과로 데미지 {delta:+d} → {amount}.",
                   "{p}'s {card}: {by}'s effect, damage {delta:+d} -> {amount}."),
    "judgment_added": ("{p}의 {card}: {by}의 효과로 {judgment_ko} 판정을 얻습니다.",
                       "{p}'s {card}: {by}'s effect gives it a judgment: {judgment}."),
    "heal": ("{p}: {by}의 효과로 체력 {amount} 회복 → {health}.", "{p}: {by}'s effect heals {amount}: health {health}."),
    "effect_health_loss": ("{p}: {by}의 효과로 체력을 {amount} 잃었습니다 (데미지가 아님): 체력 {health}.",
                           "{p}: {by}'s effect, {p} loses {amount} health (not damage): health {health}."),
    "guard_damage": ("{p}이(가) 가드 데미지 {amount}을(를) 입었습니다 (자신이 입힌 데미지로 취급): 체력 {health}.",
                     "{p} takes {amount} guard damage (dealt by {p} to themselves): health {health}."),
    "effect_discard": ("{p}: {by}의 효과로 {card}을(를) 버립니다 (패 → 리스트).",
                       "{p}: {by}'s effect, {p} discards {card} (hand -> list)."),
    "return_changed": ("{p}의 {card}: 배틀 종료 시 {dst}(으)로 갑니다.", "{p}'s {card} will go to the {dst} at battle end."),
    "effect_nullify": ("{p}이(가) {by}의 효과로 {tp}의 {card}을(를) 무효로 했습니다 ({what_ko}).",
                       "{p} nullifies {tp}'s {card} with {by} ({what})."),
    "catch_granted": ("{p}: {by}의 효과로 속도 {max} 이하의 공격으로 캐치할 수 있습니다 (FP 캐치보다 먼저).",
                      "{p}: {by}'s effect, {p} may catch with an attack of speed {max} or less (before any FP catch)."),
    "catch_effect": ("{p}이(가) 효과 캐치로 {card}(속도 {speed})을(를) 사용합니다: 양쪽 FP를 0으로 하고 자동 히트.",
                     "{p} catches by effect with {card} (speed {speed}): both FP to 0, automatic hit."),
    "combo_granted": ("{p}: {by}의 효과로 이 배틀에서 콤보 타임에 들어갑니다.", "{p}: {by}'s effect starts combo time in this battle."),
    "combo_start_effect": ("{p}: 효과로 콤보 타임을 시작합니다. 조건을 만족한 두 장이 1콤보와 2콤보가 됩니다.",
                           "{p}: combo time by effect; two fitting cards become the 1st and 2nd combo."),
    "combo_illegal": ("{p}의 {card}: 앞 콤보 처리 후 더는 합법적으로 이을 수 없어 패로 돌아가고 콤보 타임을 종료합니다.",
                      "{p}'s {card} no longer links legally after the previous combo card: back to the hand, combo time ends."),
    "token": ("{p}: {by}의 효과로 {name} 토큰 {delta:+d} → {count}.", "{p}: {by}'s effect, {name} tokens {delta:+d} -> {count}."),
    "token_short": ("{p}: {name} 토큰이 {have}개라 {need}개를 소모할 수 없습니다.", "{p} has {have} {name} token(s) and cannot spend {need}."),
    "choice": ("{p}이(가) {by}의 효과에서 '{option}'을(를) 골랐습니다.", "{p} chooses \"{option}\" for {by}'s effect."),
    "special_use": ("{p}이(가) 특수 기술 {card}을(를) 공개하고 사용합니다: {dst}에 놓습니다.",
                    "{p} reveals and uses the special skill {card}: it goes to the {dst}."),
    "prohibited": ("{p}: {action_ko} (금지 효과가 우선합니다).", "{p} cannot {action_en} (a prohibition wins)."),
    "lasting": ("{p}: {by}의 효과가 {until_ko} 지속됩니다.", "{p}: {by}'s effect lasts {until_en}."),
    "lasting_end": ("{by}의 지속 효과가 끝났습니다.", "{by}'s lasting effect ends."),
    "hand_limit_change": ("{p}의 패 상한이 {limit}장이 되었습니다.", "{p}'s hand limit is now {limit}."),
    "turn_end": ("{turn}턴 종료.", "Turn {turn} ends."),
    "ready_start": ("레디 페이즈: 사용할 기술을 고르세요.", "Ready phase: choose your skill."),
    "game_over": ("게임 종료.", "Game over."),
    "at_time": ("시간 종료 후 판정: {verdict_ko}. 1P 체력 {health_a}/{start_a}, 대응하지 않음 {non_responses_a}회; "
                "2P 체력 {health_b}/{start_b}, 대응하지 않음 {non_responses_b}회.",
                "Decided at time: {verdict_en}. 1P health {health_a}/{start_a}, {non_responses_a} non-response(s); "
                "2P health {health_b}/{start_b}, {non_responses_b} non-response(s)."),
}

# How a game still undecided at time was decided (ruling R-time, engine/api/at_time.py): {w} the winner
AT_TIME_VERDICTS = {
    "rules": ("규칙에 따라 이미 {w} 승리", "{w} had already won by the rules"),
    "health_fraction": ("시작 체력에 대한 남은 체력의 비율이 더 큰 {w} 승리",
                        "{w} wins with the larger share of their starting health"),
    "non_responses": ("체력 비율이 같아 대응하지 않음이 더 적은 {w} 승리",
                      "equal shares of health: {w} wins with fewer non-responses"),
    "draw": ("체력 비율도 대응하지 않음 횟수도 같아 무승부", "equal shares of health and non-responses: a drawn game"),
}

ZONE_KO = {"hand": "패", "list": "리스트", "side_deck": "사이드 덱", "break_zone": "브레이크 존",
           "lumen_zone": "루멘 존", "battle_zone": "배틀 존", "ultimate": "얼티밋 존"}
ZONE_EN = {"hand": "hand", "list": "list", "side_deck": "side deck", "break_zone": "break zone",
           "lumen_zone": "lumen zone", "battle_zone": "battle zone", "ultimate": "ultimate zone"}


ACTION_TEXT = {
    "gain_fp": ("FP를 얻을 수 없습니다", "gain FP"),
    "lose_fp": ("FP를 잃을 수 없습니다", "lose FP"),
    "heal": ("체력을 회복할 수 없습니다", "heal"),
    "speed_change": ("속도가 바뀔 수 없습니다", "have its speed changed"),
    "catch": ("캐치할 수 없습니다", "catch"),
    "draw": ("리스트에서 카드를 가져올 수 없습니다", "take cards from the list"),
    "break": ("카드가 브레이크되지 않습니다", "have cards broken"),
    "ready": ("그 기술을 레디할 수 없습니다", "ready that skill"),
}
UNTIL_TEXT = {"battle": ("이 배틀 동안", "for this battle"), "turn": ("이 턴 종료 시까지", "until this turn ends"),
              "next_turn": ("다음 턴 종료 시까지", "until the next turn ends")}


def ev(kind: str, rule: str, **params: Any) -> Event:
    params["e"] = kind
    params["rule"] = rule
    return params


#: the timings' English names (their Korean ones are the card texts' words: engine/cards/effects.py TIMINGS,
#: carried by the events as timing_ko); one table here, where events and card texts both read it
TIMING_EN = {
    "lumen": "In the lumen phase", "on_use": "On use", "before_judgment": "Before judgment",
    "on_evade": "On evade", "on_opponent_evade": "When evaded", "on_guard": "On guard",
    "on_opponent_guard": "When guarded", "on_hit": "On hit", "on_counter": "On counter",
    "on_opponent_hit": "When hit", "on_opponent_counter": "When countered", "on_offset": "On offset",
    "on_opponent_offset": "When offset", "on_combo": "On combo", "on_opponent_combo": "When the opponent combos",
    "on_catch": "On catch", "on_opponent_catch": "When the opponent catches", "after_judgment": "After judgment",
    "after_use": "After use", "get_entry": "On entering the get phase", "turn_end": "At turn end",
    "on_break": "When broken", "on_opponent_break": "When an opponent's card is broken",
}


def _name(cards: Cards | None, cid: str | None, lang: str) -> str:
    if cid is None:
        return "표준 가상 기술" if lang == "ko" else "the virtual skill"
    if cid == "?":      # a function acting from the side deck (hidden, guide 5.2.2)
        return "사이드 덱의 비공개 카드" if lang == "ko" else "a face-down side-deck card"
    card = cards.get(cid) if cards else None
    if card is None:
        return str(cid)
    return card.label(lang)     # English sentences: "낮은 자세 (Low Stance)" when the card has name_en


_JOSA = re.compile(r"([^\s(])(이\(가\)|을\(를\)|은\(는\)|와\(과\)|\(으\)로|\(이\)다)")
_PAIRS = {"이(가)": ("이", "가"), "을(를)": ("을", "를"), "은(는)": ("은", "는"), "와(과)": ("과", "와"),
          "(으)로": ("으로", "로")}
# how a trailing digit or letter is read aloud: does the reading end in a final consonant (batchim)?
_READ_BATCHIM = {"0": True, "1": True, "3": True, "6": True, "7": True, "8": True,
                 "2": False, "4": False, "5": False, "9": False, "L": True, "M": True, "N": True, "R": False}


def josa(text: str) -> str:
    """Pick the right Korean particle after each word: '세린이(가)' -> '세린이', '1P이(가)' -> '1P가'."""
    def fix(m: re.Match[str]) -> str:
        ch, tag = m.group(1), m.group(2)
        at = m.start(1)
        while ch in "'\"’”" and at > 0:     # "'1 빨라진다'을(를)": the particle follows the quoted word
            at -= 1
            ch = m.string[at]
        if ch == ")":   # '잽(속도 4)이(가)': the particle follows the word before the parenthesis
            open_at = m.string.rfind("(", 0, at)
            if open_at > 0:
                ch = m.string[open_at - 1]
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            jong = code % 28
            batchim = jong != 0 and not (tag == "(으)로" and jong == 8)   # ㄹ takes 로
        elif ch.upper() in _READ_BATCHIM:
            # 1 일, 7 칠, 8 팔, L 엘 end in ㄹ, which takes 로 like a Hangul ㄹ
            batchim = _READ_BATCHIM[ch.upper()] and not (tag == "(으)로" and ch.upper() in "178L")
        else:
            batchim = False
        if tag not in _PAIRS:
            return m.group(0)
        return m.group(1) + _PAIRS[tag][0 if batchim else 1]
    return _JOSA.sub(fix, text)


def explain(event: Event, cards: Cards | None = None) -> dict[str, str]:
    """Render an event as {"ko": ..., "en": ...} one-line reasons (with the rule cited)."""
    return {"ko": _render(event, cards, "ko"), "en": _render(event, cards, "en")}


# How each template field is filled from an event: a field not named here is the event's own
# value. Each returns _MISSING when the event lacks what it needs (the template then fails and
# the text falls back to the event kind, as any missing field does).
_MISSING = object()


def _seat(key: str) -> _Getter:
    def get(event: Event, cards: Cards | None, lang: str) -> Any:
        v = event.get(key, _MISSING)
        if v is _MISSING:
            return v
        seats = SEAT_KO if lang == "ko" else SEAT_EN
        return seats[v] if v in seats else v
    return get


def _card_name(key: str) -> _Getter:
    def get(event: Event, cards: Cards | None, lang: str) -> Any:
        return _name(cards, event[key], lang) if key in event else _MISSING
    return get


def _by(event: Event, cards: Cards | None, lang: str) -> Any:
    if "by_name" in event:      # a trait: not a card, its name travels with the event
        return event["by_name"].get(lang) or event["by_name"].get("ko")
    return _name(cards, event["by"], lang) if "by" in event else _MISSING


def _timing_en(event: Event, cards: Cards | None, lang: str) -> Any:
    t = event.get("timing")
    if t is None:
        return _MISSING
    name = TIMING_EN.get(t)
    return name[0].lower() + name[1:] if name else str(t).replace("_", " ")


def _option(event: Event, cards: Cards | None, lang: str) -> Any:
    """A choice's option as the card says what it does ("1 faster"), not its name in the card file."""
    opt = event.get("option", _MISSING)
    by = event.get("by")
    card = cards.get(by) if cards and isinstance(by, str) and opt is not _MISSING else None
    said = getattr(card, "option_text", None)
    text = said(opt, lang) if said is not None else None
    return text or opt


def _token_name(event: Event, cards: Cards | None, lang: str) -> Any:
    if "token_name" in event:
        return event["token_name"].get(lang) or event["token_name"].get("ko")
    return event.get("name", _MISSING)


def _cards(event: Event, cards: Cards | None, lang: str) -> Any:
    if "cards" in event:
        return ", ".join(_name(cards, c, lang) for c in event["cards"])
    return _MISSING


def _mapped(key: str, table_ko: Mapping[str, str], table_en: Mapping[str, str] | None = None,
            out: str | None = None) -> _Getter:
    """``key`` through a (ko, en) table; for a derived field ``out`` the event's own ``out``
    when it has no ``key``."""
    def get(event: Event, cards: Cards | None, lang: str) -> Any:
        v = event.get(key, _MISSING)
        if v is _MISSING:
            return v if out is None else event.get(out, _MISSING)
        return (table_ko if lang == "ko" or table_en is None else table_en).get(v, v)
    return get


def _pair(key: str, table: Mapping[str, tuple[str, str]], index: int, out: str) -> _Getter:
    """``action`` -> ``action_ko`` / ``action_en`` (a table of (ko, en)); the event's own
    ``out`` field when it has no ``key``."""
    def get(event: Event, cards: Cards | None, lang: str) -> Any:
        if key in event:
            v = event[key]
            return table.get(v, (v, v))[index]
        return event.get(out, _MISSING)
    return get


def _or_empty(key: str) -> _Getter:
    def get(event: Event, cards: Cards | None, lang: str) -> Any:
        return event.get(key, "")
    return get


_FIELD: dict[str, _Getter] = {
    "p": _seat("p"), "picker": _seat("picker"), "winner": _seat("winner"), "tp": _seat("tp"),
    "card": _card_name("card"), "target": _card_name("target"), "a_card": _card_name("a_card"),
    "b_card": _card_name("b_card"), "by": _by, "name": _token_name, "cards": _cards,
    "timing_en": _timing_en, "option": _option,
    "key": _mapped("key", OUTCOME_KO, OUTCOME_EN), "src": _mapped("src", ZONE_KO, ZONE_EN),
    "dst": _mapped("dst", ZONE_KO, ZONE_EN),
    "action_ko": _pair("action", ACTION_TEXT, 0, "action_ko"), "action_en": _pair("action", ACTION_TEXT, 1, "action_en"),
    "until_ko": _pair("until", UNTIL_TEXT, 0, "until_ko"), "until_en": _pair("until", UNTIL_TEXT, 1, "until_en"),
    "what_ko": _mapped("what", {"card": "카드", "effects": "효과"}, out="what_ko"),
    "judgment_ko": _mapped("judgment", {"evade": "회피", "guard": "방어", "offset": "상쇄"}, out="judgment_ko"),
    "why_ko": _or_empty("why_ko"), "why_en": _or_empty("why_en"),
    "name_ko": _or_empty("name_ko"), "name_en": _or_empty("name_en"),
}


def _now(lang: str) -> _Getter:
    """A live read's values (engine/play/livefx.py): " (속도 6, 데미지 600)" / " (speed 6, damage 600)"."""
    words = ("속도", "데미지") if lang == "ko" else ("speed", "damage")

    def get(event: Event, cards: Cards | None, _lang: str) -> Any:
        parts = ["%s %s" % (w, event[k]) for w, k in zip(words, ("speed", "damage")) if event.get(k) is not None]
        return " (%s)" % ", ".join(parts) if parts else ""
    return get


def _verdict(index: int) -> _Getter:
    def get(event: Event, cards: Cards | None, lang: str) -> Any:
        pair = AT_TIME_VERDICTS.get(event.get("decided_by", ""))
        if pair is None:
            return _MISSING
        return pair[index].format(w=SEAT_KO.get(event.get("winner", ""), ""))
    return get


_FIELD["verdict_ko"] = _verdict(0)
_FIELD["verdict_en"] = _verdict(1)
_FIELD["now_ko"] = _now("ko")
_FIELD["now_en"] = _now("en")


def _judgment_fields(event: Event, cards: Cards | None, lang: str, f: dict[str, Any]) -> None:
    f["a_label"] = OUTCOME_KO[event["a"]]
    f["b_label"] = OUTCOME_KO[event["b"]]
    f["a_label_en"] = OUTCOME_EN[event["a"]]
    f["b_label_en"] = OUTCOME_EN[event["b"]]
    seats = SEAT_KO if lang == "ko" else SEAT_EN
    r = JUDGMENT_REASONS[event["reason"]]
    w, l = event.get("w", ""), event.get("l", "")
    pos: Any = event.get("pos")
    g = {"w": seats.get(w, ""), "l": seats.get(l, ""),
         "wc": _name(cards, event.get("wc"), lang), "lc": _name(cards, event.get("lc"), lang),
         "pos": (POS_KO if lang == "ko" else {}).get(pos, pos),
         "ws": event.get("ws"), "ls": event.get("ls")}
    f["reason_ko"] = r[0].format(**g) if lang == "ko" else ""
    f["reason_en"] = r[1].format(**g) if lang == "en" else ""


def _compile(tmpl: str) -> tuple[str, tuple[str, ...], tuple[tuple[str, _Getter], ...]]:
    """A template, the fields it takes as they are in the event and those filled by _FIELD."""
    names = tuple(dict.fromkeys(name for _, name, _, _ in _FORMATTER.parse(tmpl) if name))
    return (tmpl, tuple(n for n in names if n not in _FIELD),
            tuple((n, _FIELD[n]) for n in names if n in _FIELD))


_FORMATTER = string.Formatter()
_COMPILED = {kind: {"ko": _compile(t[0]), "en": _compile(t[1])} for kind, t in TEMPLATES.items()}


def _render(event: Event, cards: Cards | None, lang: str) -> str:
    """One language's sentence: only the fields its template names are looked up (the
    templates are parsed once, at import)."""
    kind: str = event["e"]
    spec = _COMPILED.get(kind)
    if spec is None:
        text = kind
    else:
        tmpl, plain, derived = spec[lang]
        f: dict[str, Any] = {}
        for name in plain:
            if name in event:
                f[name] = event[name]
        for name, get in derived:
            v = get(event, cards, lang)
            if v is not _MISSING:
                f[name] = v
        if kind == "judgment":
            _judgment_fields(event, cards, lang, f)
        try:
            text = tmpl.format_map(f)
        except (KeyError, ValueError, IndexError):
            text = kind
        if lang == "ko" and "(" in text:      # every particle tag has a "("
            text = josa(text)
    rule = event.get("rule")
    if rule:
        text += " [%s]" % (rule if lang == "en" else rule.replace("guide", "가이드"))
    return text
