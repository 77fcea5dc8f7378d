"""``lumen demo`` (text version): one complete seeded game between two built-in bots
with the sample decks, printed turn by turn with the rule behind every result."""

from engine.bots import Bot, play
from engine.decks import load_sample
from engine.events import explain
from engine.game import apply, new_game

QUIET_EVENTS = {"move", "ready_start", "battle_end", "fp_spent", "phase"}


def run_text_demo(seed=1, lang="ko", games=1, quiet=False, out=print):
    cs, decks = load_sample()
    names = sorted(decks)
    da, db = decks[names[1]], decks[names[0]]
    results = []
    for g in range(games):
        gseed = seed + g
        if not quiet:
            title = "루멘콘덴서 데모 — 샘플 덱 (비공식)" if lang == "ko" else "Lumen Condenser demo — sample decks (unofficial)"
            out("== %s: 1P %s vs 2P %s (seed %d) ==" % (title, da.character.name, db.character.name, gseed))
        st, events = new_game(cs.cards, da.as_game_deck(), db.as_game_deck(), seed=gseed)
        bots = {"a": Bot(gseed * 2 + 1, "greedy"), "b": Bot(gseed * 2 + 2, "greedy")}

        def show(state, evs, req=None, kind=None, value=None):
            if quiet:
                return
            for e in evs:
                if e["e"] in QUIET_EVENTS:
                    continue
                text = explain(e, state.cards)[lang]
                if e["e"] == "turn_start":
                    pa, pb = state.players["a"], state.players["b"]
                    out("")
                    out("-- %s  [1P HP %d FP %+d 패 %d | 2P HP %d FP %+d 패 %d | 우선권 %s]" % (
                        text, pa.health, pa.fp, len(pa.hand), pb.health, pb.fp, len(pb.hand),
                        "1P" if state.priority == "a" else "2P") if lang == "ko" else
                        "-- %s  [1P HP %d FP %+d hand %d | 2P HP %d FP %+d hand %d | priority %s]" % (
                        text, pa.health, pa.fp, len(pa.hand), pb.health, pb.fp, len(pb.hand),
                        "1P" if state.priority == "a" else "2P"))
                else:
                    out("   " + text)

        show(st, events)
        st = play(st, bots, apply, on_step=show)
        results.append(st.winner)
        label = {"a": "1P %s" % da.character.name, "b": "2P %s" % db.character.name, "draw": "무승부/draw"}[st.winner]
        if lang == "ko":
            out("게임 %d: 승자 %s (%d턴, 1P 체력 %d, 2P 체력 %d)" % (g + 1, label, st.turn, st.players["a"].health, st.players["b"].health))
        else:
            out("game %d: winner %s (%d turns, 1P health %d, 2P health %d)" % (g + 1, label, st.turn, st.players["a"].health, st.players["b"].health))
    return 0
