"""One session interface (issue 25): referee and tracker games answer the same members, and
nothing outside hub/sessions/ asks which mode a game is in."""

import io
import json
import re
from pathlib import Path

import orjson
import pytest

from hub.record.store import Store
from hub.sessions.base import DecisionRefused, SeatPrompt, SeatStatus, SessionError
from hub.sessions.lazy_message import LazyMessage
from hub.sessions.table import Table
from hub.system import logs

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(params=["referee", "tracker"])
def table(request, tmp_path):
    t = Table(Store(str(tmp_path / "g.sqlite3")))
    t.auto_setup = True                 # as while pods serve the table: setups answered by deck order
    t.start(request.param, seed=3)
    yield t
    t.store.close()


def test_both_modes_answer_the_same_interface(table):
    s = table.session
    assert s.winner is None and s.turn >= 1 and s.priority in ("a", "b")
    for seat in ("a", "b"):
        st = s.seat_status(seat)
        assert isinstance(st, SeatStatus) and st.health > 0 and isinstance(st.character, str)
        q = s.prompt(seat)
        assert isinstance(q, SeatPrompt) and q.kind == "ready" and q.hidden   # the game waits for readies
    shown = s.display_state({"a": "민지"})
    assert shown["seats"]["a"]["player"] == "민지" and set(shown["seats"]) == {"a", "b"}
    assert isinstance(s.log_tail(5), list) and isinstance(s.version, int)
    with pytest.raises(SessionError):
        s.check_display_decision("a", "ready", "some-card")      # a hidden ready only on the pod
    before = s.version
    table.submit("a", "ready", s.prompt("a").options[0] if s.prompt("a").options else True, source="pod")
    assert s.version > before and s.prompt("a").locked and s.prompt("b").kind == "ready"


def test_a_pods_health_entry_is_the_trackers_input_and_refused_by_the_referee(table):
    s = table.session
    if s.takes_actions:
        assert s.adjust_command("a", "hp_add", -300) == {"action": "adjust_health", "seat": "a", "delta": -300}
        assert s.adjust_command("b", "fp_set", 0) == {"action": "reset_fp", "seat": "b"}
        table.submit(None, "action", s.adjust_command("a", "hp_add", -300), source="pod")
        assert s.seat_status("a").health == 4700
    else:
        with pytest.raises(SessionError):
            s.adjust_command("a", "hp_add", -300)


def test_the_reveal_is_a_happening_the_pods_hear(table):
    s = table.session
    for seat in ("a", "b"):
        q = s.prompt(seat)
        table.submit(seat, "ready", q.options[0] if q.options else True, source="pod")
    assert s.happenings()[0] == ("reveal",)
    assert not s.prompt("a").locked and not s.prompt("b").locked     # nobody waits on a locked ready


def test_the_display_may_not_give_a_hidden_decision():
    t = Table(Store(":memory:"))
    t.auto_setup = True
    t.start("referee", seed=1)
    with pytest.raises(DecisionRefused) as e:
        t.session.check_display_decision("a", "ready", "x")
    assert e.value.status == 403


def test_no_mode_branch_outside_the_session_layer():
    """Callers read the session interface; `mode` is data (recorded, shown), never a branch."""
    pattern = re.compile(r"""\bmode\s*[!=]=|[!=]=\s*["'](referee|tracker)["']|\.mode\s+in\b""")
    hits = []
    for path in (ROOT / "hub").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith("hub/sessions/"):
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line.split("#")[0]):
                hits.append("%s:%d: %s" % (rel, n, line.strip()))
    assert not hits, "mode branches outside hub/sessions/:\n" + "\n".join(hits)


def test_a_lazy_message_read_around_its_methods_fails_loudly():
    built = []
    m = LazyMessage({"t": "you", "requests": []}, "view", lambda: built.append(1) or {"x": 1})
    with pytest.raises(TypeError):
        orjson.dumps(m)                 # orjson reads the dict's storage: the unbuilt view is refused
    assert json.loads(json.dumps(m)) == {"t": "you", "requests": [], "view": {"x": 1}} and built == [1]
    assert orjson.loads(orjson.dumps(m))["view"] == {"x": 1}      # built now: any reader sees it


def test_the_log_is_journald_friendly_under_systemd():
    out = io.StringIO()
    log = logs.setup(stream=out, journal=True)
    log.getChild("pods").warning("pod link lost: %s", "ttyACM0")
    logs.say()("테이블 화면 / table display: http://127.0.0.1:8000/")
    assert out.getvalue().splitlines() == ["<4>lumen.pods: pod link lost: ttyACM0",
                                           "<6>테이블 화면 / table display: http://127.0.0.1:8000/"]
    out = io.StringIO()
    logs.setup(stream=out, journal=False)
    logs.say()("hello")
    assert out.getvalue() == "hello\n"
    logs.setup()
