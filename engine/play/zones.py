"""Card moves between zones, with the rules that redirect them (guide 3.2, 3.3.3, 3.9).

- A card moving to a full list (14) is broken instead (guide 3.2 IMPORTANT).
- A special skill may only be in the side deck, lumen zone, ultimate zone or
  break zone: moving it to the hand or list breaks it instead (guide 3.3.3).
- Breaking an attack or defense from the hand, list, lumen zone or battle zone
  lets its owner replenish one attack/defense from the side deck to the list
  (guide 3.9.1); never for a special, never from the side deck or ultimate zone.
- Discard means hand -> list (guide 3.9.2).
- Whatever raised the hand above its limit is followed by a discard down to the
  limit (guide 3.3.1, brief ruling 5): a ``hand_limit`` task.
- A prohibition on breaking a player's cards binds these rules too (guide 5.6.3 item 1,
  issue 23): a move that would be replaced by a break does not happen (``_kept``).

The caller removes the card from its source zone first and names that zone.
Follow-up decisions (replenish, discard) are queued as tasks on the context.
"""

from engine.core.events import ev
from engine.play.cardfx import running_effect, allowed, fx_index, sync_limits

REPLENISH_FROM = frozenset(("hand", "list", "lumen_zone", "battle_zone"))


def moved(st):
    """A card moved in a battle with effects: the functions that act on the current cards, and what
    their conditions read, may have changed (engine/play/livefx.py ``_stamp``)."""
    bt = st.battle
    if bt is not None and bt.fx is not None:
        bt.fx["m"] += 1


def take(zone, card_id):
    """Remove one copy of card_id from a zone list (ValueError if absent)."""
    zone.remove(card_id)
    return card_id


def break_card(st, ctx, p, card_id, src, why=None, replenish=True):
    """Send a card to the break zone and queue the replenish it allows (never for a special,
    guide 3.3.3)."""
    pl = st.players[p]
    pl.break_zone.append(card_id)
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
    ctx.emit(ev("break", "guide 3.9.1", p=p, card=card_id, src=src, **(why or {})))
    card = st.cards[card_id]
    if replenish and src in REPLENISH_FROM and card.kind != "special":
        ctx.task({"t": "replenish", "p": p})
    if st.fxon:
        ix = fx_index(st)
        if ix.breaks:
            broke(st, ctx, {"p": p, "card": card_id, "from": src}, ix)


def _kept(st, ctx, p, card_id, src):
    """A move the rules replace by a break (a full list, a special out of its zones) when p's
    cards cannot be broken (guide 5.6.3 item 1): neither happens and the card stays where it was;
    a card used in the battle goes back to the hand, where used cards go by default (guide 3.5.3
    "배틀 종료 시 사용한 카드는 기본적으로 패로 돌아가지만")."""
    if src == "battle_zone" and st.cards[card_id].kind != "special":
        to_hand(st, ctx, p, card_id, src, "guide 3.5.3")
        return
    getattr(st.players[p], src).append(card_id)
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
    ctx.emit(ev("move_kept", "guide 5.6.3", p=p, card=card_id, src=src))


def broke(st, ctx, brk, ix):
    """A card was broken (issue 23, guide 5.4): the effects it triggers (on_break,
    on_opponent_break). Interrupts (끼어들기) resolve at once: a task right after the break's
    replenish ("즉시 브레이크와 보충을 처리한 뒤"). The others wait for the end of the unit the break
    happened in ("일반 유발 효과는 현재 처리 단위 뒤에 처리하고"): the effect being resolved, else
    the rule's action (a task after every task that action raised)."""
    if ix.break_int:
        ctx.task({"t": "triggers", "ev": [brk], "int": True})
    if not ix.break_norm:
        return
    w = st.fx
    if w is not None and w["cur"] is not None:
        w["cur"].setdefault("trig", []).append(brk)
        return
    later(st, [brk])


def later(st, brks):
    """Queue breaks whose ordinary triggers wait for the end of the current unit."""
    tasks = st.tasks
    if tasks and tasks[-1]["t"] == "triggers" and not tasks[-1]["int"]:
        tasks[-1]["ev"].extend(brks)
    else:
        tasks.append({"t": "triggers", "ev": list(brks), "int": False})


def to_list(st, ctx, p, card_id, src, rule="guide 5.3.4"):
    card = st.cards[card_id]
    pl = st.players[p]
    if card.kind == "special":
        if not allowed(st, ctx, p, "break"):
            _kept(st, ctx, p, card_id, src)
            return
        break_card(st, ctx, p, card_id, src, {"why_ko": " (특수 기술은 리스트에 갈 수 없음)",
                                              "why_en": " (a special cannot go to the list)"}, replenish=False)
        return
    if len(pl.list) >= st.rules.list_max:
        if not allowed(st, ctx, p, "break"):
            _kept(st, ctx, p, card_id, src)
            return
        break_card(st, ctx, p, card_id, src, {"why_ko": " (리스트가 %d장이라 대신 브레이크)" % st.rules.list_max,
                                              "why_en": " (the list holds %d: broken instead)" % st.rules.list_max})
        return
    pl.list.append(card_id)
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
    ctx.emit(ev("move", rule, p=p, card=card_id, src=src, dst="list"))


def to_hand(st, ctx, p, card_id, src, rule="guide 5.3.4"):
    card = st.cards[card_id]
    if card.kind == "special":
        if not allowed(st, ctx, p, "break"):
            _kept(st, ctx, p, card_id, src)
            return
        break_card(st, ctx, p, card_id, src, {"why_ko": " (특수 기술은 패에 갈 수 없음)",
                                              "why_en": " (a special cannot go to the hand)"}, replenish=False)
        return
    pl = st.players[p]
    pl.hand.append(card_id)
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
    ctx.emit(ev("move", rule, p=p, card=card_id, src=src, dst="hand"))
    # while a card effect resolves, the discard waits until the effect is done (guide 3.3.1;
    # engine/play/windows.py checks the hand limit after each effect)
    if len(pl.hand) > pl.hand_limit and not running_effect(st.fx):
        ctx.task({"t": "hand_limit", "p": p})


def replenish_options(st, p):
    cards = st.cards
    return [cid for cid in dict.fromkeys(st.players[p].side_deck) if cards[cid].kind != "special"]


def do_replenish(st, ctx, p, card_id):
    """Side deck -> list; into a full list the card is broken instead, no further replenish."""
    pl = st.players[p]
    if len(pl.list) >= st.rules.list_max and not allowed(st, ctx, p, "break"):
        return              # it cannot be broken instead: it stays in the side deck (guide 5.6.3 item 1)
    take(pl.side_deck, card_id)
    if len(pl.list) >= st.rules.list_max:
        break_card(st, ctx, p, card_id, "side_deck",
                   {"why_ko": " (보충할 리스트가 %d장이라 대신 브레이크)" % st.rules.list_max,
                    "why_en": " (the list holds %d: the replenish card is broken instead)" % st.rules.list_max},
                   replenish=False)
        return
    pl.list.append(card_id)
    if st.fxon:
        moved(st)
        sync_limits(st, ctx)
    ctx.emit(ev("replenish", "guide 3.9.1", p=p, card=card_id))


def discard(st, ctx, p, cards, limit):
    pl = st.players[p]
    for cid in cards:
        take(pl.hand, cid)
    ctx.emit(ev("discard", "guide 3.3.1", p=p, cards=list(cards), limit=limit))
    for cid in cards:
        to_list(st, ctx, p, cid, "hand")
