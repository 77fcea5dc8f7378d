"""The request bodies' validators built at their route's first request (hub/web/common.py
``StrictModel``: ``defer_build``; issue 36: ~32 M instructions of the hub's start), as strict as
before, and without the warning pydantic says when FastAPI's deferred body adapter is built
outside FastAPI's own silence. Each case runs in a fresh interpreter: what is built when, and
which warnings are said, are what is asked."""

import pydantic.warnings
import pytest

from tests.fresh import run_json


def _run(code):
    return run_json(code, prelude="import json, sys, warnings\n")


def test_a_body_is_built_at_its_first_request_and_refuses_what_it_refused_before():
    got = _run("warnings.simplefilter('always')\n"
               "from fastapi.testclient import TestClient\n"
               "from hub.record.store import Store\n"
               "from hub.sessions.table import Table\n"
               "from hub.web.app import create_app\n"
               "from hub.web.routers.tracker import AdjustHealth, TrackerAction\n"
               "t = Table(Store(':memory:'))\n"
               "t.start('tracker', None, None, auto=True)\n"
               "app = create_app(t, tick_interval=None)\n"
               "at_start = TrackerAction.__pydantic_complete__ or AdjustHealth.__pydantic_complete__\n"
               "h = {'Authorization': 'Bearer ' + t.admin_token}\n"
               "def cmd(n, **c):\n"
               "    return {'action_id': 'deferred%02d' % n, 'command': dict({'action': 'adjust_health', 'seat': 'a'}, **c)}\n"
               "with warnings.catch_warnings(record=True) as said:\n"
               "    with TestClient(app) as c:\n"
               "        replies = [c.post('/api/control/tracker', headers=h, json=b) for b in (\n"
               "            cmd(1, delta=-300),\n"
               "            cmd(2, delta='-300'),\n"
               "            cmd(3, delta=-300, extra=1),\n"
               "            cmd(4, seat='c', delta=-300),\n"
               "            dict(cmd(5, delta=-300), more=1),\n"
               "            cmd(6, delta=-300))]\n"
               "print(json.dumps({'at_start': at_start,\n"
               "                  'codes': [r.status_code for r in replies],\n"
               "                  'refused': [r.json().get('detail', '') for r in replies[1:5]],\n"
               "                  'pydantic_said': [str(w.message)[:120] for w in said\n"
               "                                    if type(w.message).__module__.startswith('pydantic')]}))\n")
    assert got["at_start"] is False, "built at start: the deferral is gone"
    assert got["codes"] == [200, 422, 422, 422, 422, 200]
    assert "delta" in got["refused"][0]           # strict: a string is not an int
    assert "extra" in got["refused"][1]           # extra="forbid", inside the command
    assert "seat" in got["refused"][2] or "c" in got["refused"][2]
    assert "more" in got["refused"][3]            # extra="forbid", on the body
    assert got["pydantic_said"] == []


@pytest.mark.skipif(not hasattr(pydantic.warnings, "UnsupportedFieldAttributeWarning"),
                    reason="pydantic < 2.12 says no such warning, so there is nothing to silence")
def test_only_the_alias_message_is_silenced():
    """The filter names FastAPI's message only: any other pydantic warning is still said."""
    got = _run("from pydantic import Field, TypeAdapter\n"
               "from typing import Annotated\n"
               "with warnings.catch_warnings(record=True) as said:\n"
               "    warnings.simplefilter('always')\n"
               "    import hub.web.common as common\n"
               "    common._quiet_body_alias_warning()\n"
               "    TypeAdapter(Annotated[int, Field(alias='body')])\n"
               "    TypeAdapter(Annotated[int, Field(alias='body', frozen=True)])\n"
               "print(json.dumps([str(w.message)[:60] for w in said]))\n")
    assert len(got) == 1 and "'frozen'" in got[0], got
