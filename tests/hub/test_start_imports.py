"""What the hub's start does not import until it is needed (issue 36: start-up <= 1.3x a bare
``import fastapi``): the bots' search (engine/bots/__init__.py, one namespace whose names are
taken from their modules at first use) and the "idna" codec (hub/web/listen.py). Each case runs
in a fresh interpreter: what is in ``sys.modules`` is what is asked."""

from tests.fresh import run_json


def test_the_bots_namespace_is_whole_and_imports_a_module_at_its_first_name():
    got = run_json("import importlib\n"
                   "import engine.bots as bots\n"
                   "first = sorted(m for m in sys.modules if m.startswith('engine.bots.'))\n"
                   "seat_view = bots.seat_view\n"
                   "after_one = sorted(m for m in sys.modules if m.startswith('engine.bots.'))\n"
                   "where = {n: bots._WHERE[n] for n in bots.__all__}\n"
                   "same = all(getattr(bots, n) is getattr(importlib.import_module('engine.bots.' + m), a)\n"
                   "           for n, (m, a) in where.items())\n"
                   "from engine.bots import evaluate\n"
                   "try:\n"
                   "    bots.no_such_name\n"
                   "    missing = None\n"
                   "except AttributeError as e:\n"
                   "    missing = str(e)\n"
                   "print(json.dumps({'first': first, 'after_one': after_one, 'same': same,\n"
                   "                  'all_listed': sorted(bots.__all__) == sorted(bots._WHERE),\n"
                   "                  'in_dir': set(bots.__all__) <= set(dir(bots)),\n"
                   "                  'evaluate': evaluate.__name__, 'missing': missing}))\n")
    assert got["first"] == []
    assert got["after_one"] == ["engine.bots.knowledge"]
    assert got["same"] and got["all_listed"] and got["in_dir"]
    assert got["evaluate"] == "engine.bots.evaluate"
    assert "no_such_name" in got["missing"]


def test_the_hubs_bot_and_coach_are_made_without_the_search():
    """A table whose game seats no bot and is not coached never runs the search: its import
    waits for the first question (or the first fallback answer)."""
    got = run_json("import argparse\n"
                   "from hub.record.store import Store\n"
                   "from hub.sessions.table import Table\n"
                   "from hub.cli.hub import _bot_and_coach\n"
                   "t = Table(Store(':memory:'))\n"
                   "t.start('tracker', None, None, auto=True)\n"
                   "bot, coach = _bot_and_coach(t, argparse.Namespace(think_seconds=None, bot=None, level='strong',\n"
                   "                                                  coach=None))\n"
                   "made = 'engine.bots.search' in sys.modules\n"
                   "from engine import bots\n"
                   "print(json.dumps({'made': made, 'fallback': bots.fallback_answer.__module__}))\n")
    assert got == {"made": False, "fallback": "engine.bots.search"}


def test_a_listening_socket_is_opened_without_the_idna_codec_and_a_foreign_name_is_still_said():
    got = run_json("from hub.web.listen import PortBusy, listen_socket\n"
                   "opened = []\n"
                   "for host in ('127.0.0.1', 'localhost', ''):\n"
                   "    s = listen_socket(host, 0)\n"
                   "    opened.append(s.getsockname()[1] > 0)\n"
                   "    s.close()\n"
                   "ascii_only = 'encodings.idna' in sys.modules\n"
                   "try:\n"
                   "    listen_socket('테이블.invalid', 0)\n"
                   "    said = None\n"
                   "except PortBusy as e:\n"
                   "    said = str(e)\n"
                   "print(json.dumps({'opened': opened, 'idna': ascii_only, 'said': said,\n"
                   "                  'idna_after': 'encodings.idna' in sys.modules}))\n")
    assert got["opened"] == [True, True, True]
    assert got["idna"] is False
    assert "테이블.invalid" in got["said"] and "can't listen on" in got["said"]
    assert got["idna_after"] is True        # a name with other letters is IDNA-encoded, as before
