"""A profile game at a table: the session interface (what the pods and the display read),
the record (mode ``profile``, the start naming the profile and its hash, hidden picks with
commitments, resume by replay), the pods' HP/FP pages, and the store's public reads."""

import hashlib

import pytest

from hub.profiles import profile as profiles
from hub.record.store import Store
from hub.sessions.base import DecisionRefused, FakeClock, SessionError
from hub.sessions.profile import ProfileSession
from hub.sessions.table import Table


@pytest.fixture
def table():
    t = Table(Store(":memory:"), clock=FakeClock())
    yield t
    t.store.close()


def battlecon(table, **kw):
    return table.start("profile", "haneul", "bada", profile="battlecon", seed=5, priority="a", **kw)


def test_the_record_names_the_profile_and_its_hash(table):
    s = battlecon(table, names={"a": "민지", "b": "Alex"})
    g = table.store.game(s.game_id)
    assert g["mode"] == "profile"
    start = table.store.records(s.game_id, kinds=("start",))[0].body
    p = profiles.get("battlecon")
    assert start["profile"]["id"] == "battlecon" and start["profile"]["hash"] == p.hash
    assert start["profile"]["body"] == p.body                # the game resumes as it started, whatever the file says later
    assert start["characters"]["a"]["name"] == "하늘 (견본)" and start["card_set"]["id"] == "battlecon-sample"
    pub = table.games()[0]["start"]
    assert pub["profile"] == {"id": "battlecon", "hash": p.hash, "name": p.name} and pub["names"] == {"a": "민지", "b": "Alex"}
    # the match clock takes the profile's length while it does not run
    assert table.timer.duration_ms == 45 * 60_000
    table.start("tracker")
    assert table.timer.duration_ms == 30 * 60_000              # Lumen's profile: 30:00, as before


def test_the_pods_get_only_what_may_be_picked_and_its_names(table):
    s = battlecon(table)
    q = s.prompt("a")
    assert q.kind == "ready" and q.hidden and not q.locked
    assert q.options == ("haneul-dawn", "haneul-mirror", "haneul-flame")       # gale and stone are in the piles
    assert s.labels(q.options) == ["새벽", "거울", "불꽃"]
    table.submit("a", "ready", "haneul-flame", source="pod")
    assert s.prompt("a").options[:2] == ("haneul-arc", "charge") and "jab" not in s.prompt("a").options
    table.submit("a", "ready", "charge", source="pod")
    assert s.prompt("a").locked and s.prompt("b").kind == "ready"
    assert s.ready_status()["a"]["locked"] and not s.ready_status()["b"]["locked"]
    for c in ("bada-tide", "blast"):
        table.submit("b", "ready", c, source="pod")
    assert s.prompt("a").kind == "ante" and s.prompt("a").pass_value == "pass"     # 1P went first: it antes first
    assert s.labels(s.prompt("a").options) == ["앤티"]
    table.submit("a", "ante", "pass", source="pod")
    table.submit("b", "ante", "pass", source="pod")
    assert s.happenings()[0] == ("reveal",)
    assert s.prompt("a").kind == "end_turn" and s.labels(("done",)) == ["완료"]


def test_a_hidden_pick_only_from_its_own_pod(table):
    s = battlecon(table)
    with pytest.raises(DecisionRefused) as e:
        s.check_display_decision("a", "ready", "haneul-dawn")
    assert e.value.status == 403
    with pytest.raises(SessionError):
        table.submit("a", "ready", "haneul-dawn", source="display")
    s.check_display_decision("a", "priority", "a")       # a public decision may come from the judge's phone
    with pytest.raises(SessionError):
        table.submit("a", "ready", "jab", source="pod")  # in a discard pile: refused, nothing written
    assert not table.store.records(s.game_id, kinds=("input",))


def test_hidden_picks_stay_out_of_the_public_record_until_the_reveal(table):
    s = battlecon(table)
    table.submit("a", "ready", "haneul-flame", source="pod")
    table.submit("a", "ready", "charge", source="pod")
    table.submit("b", "ready", "bada-squall", source="pod")
    for seat_view in (s.public_view()["seats"][x] for x in "ab"):
        assert seat_view["revealed"] is None and seat_view["priority_value"] is None
    for picked in ("haneul-flame", "charge", "bada-squall", "불꽃", "돌진", "스콜"):
        assert picked not in str(table.store.public_records(s.game_id))
        assert picked not in str(s.log_tail(40))
    # the judge log's commitments: H(game:seat:option:nonce), checked once revealed (below)
    table.submit("b", "ready", "blast", source="pod")
    table.submit("a", "ante", "pass", source="pod")
    table.submit("b", "ante", "pass", source="pod")
    recs = table.store.public_records(s.game_id)
    reveal = [r for r in recs if r["kind"] == "judge" and r["body"].get("event") == "reveal"][-1]
    picks = [r for r in recs if r["kind"] == "judge" and r["body"].get("event") == "pick"]
    assert len(picks) == 4 and sorted(reveal["body"]["reveals"]) == sorted(p["body"]["input_seq"] for p in picks)
    for p in picks:
        got = reveal["body"]["picks"][str(p["body"]["input_seq"])]
        h = hashlib.sha256(("%s:%s:%s:%s" % (s.game_id, got["seat"], got["value"], got["nonce"])).encode()).hexdigest()
        assert h == p["body"]["commitment"]
    inputs = [r for r in recs if r["kind"] == "input" and r["hidden"]]
    assert all(r["body"]["value"] in ("haneul-flame", "charge", "bada-squall", "blast") for r in inputs)   # public now


def test_resume_replays_the_record_with_hidden_picks_pending(table):
    s = battlecon(table)
    table.submit("a", "ready", "haneul-dawn", source="pod")
    table.submit("a", "ready", "hold", source="pod")
    table.submit("b", "ready", "bada-tide", source="pod")
    table.submit("b", "ready", "charge", source="pod")
    table.submit("a", "ante", "pass", source="pod")
    table.submit("b", "ante", "pass", source="pod")       # 5 against 5: a clash
    table.submit("a", "ready", "haneul-arc", source="pod")
    table.submit(None, "action", {"action": "adjust", "seat": "b", "counter": "life", "delta": -2}, source="display")
    again = ProfileSession.resume(table.store, s.game_id, clock=table.clock)
    assert again.game.to_json()["st"] == s.game.to_json()["st"] and again.game.log == s.game.log
    assert again.prompt("a").locked and again.prompt("b").kind == "ready"
    table2 = Table(table.store, clock=table.clock)
    table2.resume_current()
    table2.submit("b", "ready", "blast", source="pod")
    assert table2.session.game.st["leader"] == "a"
    reveal = [r for r in table.store.records(s.game_id, kinds=("judge",)) if r.body.get("event") == "reveal"][-1]
    assert [v["value"] for v in reveal.body["picks"].values()] == ["haneul-arc", "blast"]   # the restart's pending pick too


def test_a_pods_hp_and_fp_pages_enter_the_profiles_counters(table):
    s = battlecon(table)
    assert s.adjust_command("a", "hp_add", -300) == {"action": "adjust", "seat": "a", "counter": "life", "delta": -3}
    with pytest.raises(SessionError):
        s.adjust_command("a", "fp_add", 2)                # BattleCON keeps no second counter on the pod
    table.submit(None, "action", s.adjust_command("b", "hp_add", -600), source="pod")
    assert s.seat_status("b").health == 14 and s.seat_status("b").character == "바다 (견본)"
    y = table.start("profile", profile="yojeong", players=2, seed=1, priority="a")
    assert y.adjust_command("a", "fp_add", -3) == {"action": "adjust", "seat": "a", "counter": "cost", "delta": -3}
    assert y.adjust_command("a", "fp_set", 0) == {"action": "set", "seat": "a", "counter": "cost", "value": 0}
    table.submit(None, "action", y.adjust_command("a", "fp_add", -3), source="pod")
    assert y.seat_status("a") == (7, 20, 0, "요정전승")
    assert y.pod_mode == "tracker"                        # the pods show their HP and FP pages


def test_a_four_seat_game_and_its_refusals(table):
    y = table.start("profile", profile="yojeong", players=4, seed=1, priority="b",
                    names={"a": "가", "b": "나", "c": "다", "d": "라"})
    assert y.seats == ("a", "b", "c", "d") and y.side_of("c") == "a" and y.side_of("d") == "b"
    assert y.prompt("b").kind == "end_turn" and y.prompt("a").kind == "none"
    shown = y.display_state(table.names)
    assert set(shown["seats"]) == {"a", "b", "c", "d"} and shown["seats"]["d"]["player"] == "라"
    with pytest.raises(SessionError):
        table.start("profile", profile="battlecon", players=4)
    with pytest.raises(SessionError):
        table.start("profile", profile="lumen")            # Lumen's profile is the tracker's: start("tracker")
    with pytest.raises(SessionError):
        table.start("profile", "nobody", profile="battlecon")


def test_replay_of_an_exported_profile_game(table, tmp_path):
    import json
    from hub.record.export import export_game
    from hub.sessions.replay import replay_export
    s = table.start("profile", profile="gundam", seed=2, priority="a")
    table.submit("a", "end_turn", "done", source="pod")
    table.submit(None, "action", {"action": "set", "seat": "a", "counter": "deck", "value": 0}, source="display")
    data = json.loads(json.dumps(export_game(table.store, s.game_id, table.store.game(s.game_id))))
    ok, msg = replay_export(data, out=lambda line: None)
    assert ok, msg


def test_the_players_own_card_file(table, tmp_path):
    """The issue's "players' own card entries": a card data file (lumen hub --profile-cards), its
    names on the pods and its priorities deciding who leads; then known to the table by id."""
    from hub.profiles import cards
    f = tmp_path / "ours.yaml"
    f.write_text("""format: lumen-profile-cards/1
kind: battlecon
set: {id: ours, name: {ko: 우리 카드, en: our cards}}
bases:
  - {id: b1, part: base, name: 첫째, range: [1, 1], power: 3, priority: 3, discard: 1}
  - {id: b2, part: base, name: 둘째, range: [1, 2], power: 2, priority: 2, discard: 2}
  - {id: b3, part: base, name: 셋째, range: [1, 1], power: 4, priority: 1}
characters:
  - id: kim
    name: 김
    cards:
      - {id: k1, part: style, name: 가, power: 0, priority: 0, discard: 1}
      - {id: k2, part: style, name: 나, power: 0, priority: 0, discard: 2}
      - {id: k3, part: style, name: 다, power: 1, priority: 2}
  - id: lee
    name: 이
    cards:
      - {id: l1, part: style, name: 라, power: 0, priority: 0, discard: 1}
      - {id: l2, part: style, name: 마, power: 0, priority: 0, discard: 2}
      - {id: l3, part: style, name: 바, power: 1, priority: 1}
""", encoding="utf-8")
    cs = cards.load(str(f))
    s = table.start("profile", "kim", "lee", profile="battlecon", card_set=cs, seed=1, priority="a")
    assert s.labels(s.prompt("a").options) == ["다"] and "ours" in table.card_sets
    for seat, c in (("a", "k3"), ("a", "b3"), ("b", "l3"), ("b", "b3")):
        table.submit(seat, "ready", c, source="pod")
    table.submit("a", "ante", "pass", source="pod")
    table.submit("b", "ante", "pass", source="pod")
    assert s.game.st["leader"] == "a"                        # 2+1 against 1+1
    again = table.start("profile", "이", "김", profile="battlecon", card_set="ours", seed=1)
    assert again.game.characters["a"]["id"] == "lee"          # by id, or by Korean name


def test_a_pod_at_a_seat_the_next_game_does_not_have_is_asked_nothing(table):
    """After a 2-on-2 game, 3P's and 4P's pods stay seated; the next two-seat game asks them nothing."""
    from hub.pods.pod_hub import PodHub
    hub = PodHub(table)
    table.start("profile", profile="yojeong", players=4, seed=1, priority="c")
    assert hub.current("c")[0].kind == "choose"                       # 3P's turn: its pod ends it
    table.start("tracker")
    assert hub.current("c")[0].kind == "none" and hub.current("a")[0].kind == "ready"
    hub.push("c")                                                     # no pod there: nothing to send, no error
