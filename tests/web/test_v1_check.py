"""FastAPI's check that no route takes a pydantic.v1 model, made without importing pydantic.v1
(hub/web/v1_check.py, issue 36: 60 M instructions of the hub's start). Each case runs in a
fresh interpreter: whether pydantic.v1 is imported is what is asked."""

from tests.fresh import run_json


def test_the_hubs_app_and_the_tds_page_are_built_and_served_without_pydantic_v1(tmp_path):
    """Before: FastAPI imported pydantic.v1 at the first route parameter it declared."""
    got = run_json("from fastapi.testclient import TestClient\n"
                   "from hub.record.store import Store\n"
                   "from hub.sessions.table import Table\n"
                   "from hub.web.app import create_app\n"
                   "t = Table(Store(':memory:'))\n"
                   "t.start('tracker', None, None, auto=True)\n"
                   "app = create_app(t, tick_interval=None)\n"
                   "built = 'pydantic.v1' in sys.modules\n"
                   "with TestClient(app) as c:\n"
                   "    codes = [c.get(p).status_code for p in ('/api/state', '/api/games', '/openapi.json')]\n"
                   "    codes.append(c.post('/api/control/tracker', json={}).status_code)\n"
                   "from hub.tournament import web\n"
                   "print(json.dumps({'built': built, 'served': 'pydantic.v1' in sys.modules, 'codes': codes,\n"
                   "                  'td': 'pydantic.v1' in sys.modules}))\n")
    assert got == {"built": False, "served": False, "codes": [200, 200, 200, 401], "td": False}


def test_a_pydantic_v1_model_is_still_refused_as_fastapi_refuses_it():
    """The check is exact: once pydantic.v1 is imported (a v1 model can only exist then),
    FastAPI's own check runs and refuses the route."""
    got = run_json("from hub.web import v1_check\n"
                   "assert v1_check.install() and v1_check.install()      # once, however often asked\n"
                   "import warnings\n"
                   "warnings.simplefilter('ignore')\n"
                   "from fastapi import FastAPI\n"
                   "from pydantic import BaseModel, v1\n"
                   "class Old(v1.BaseModel):\n"
                   "    x: int\n"
                   "class New(BaseModel):\n"
                   "    x: int\n"
                   "app = FastAPI()\n"
                   "@app.post('/new')\n"
                   "def new(m: New): return m\n"
                   "try:\n"
                   "    @app.post('/old')\n"
                   "    def old(m: Old): return m\n"
                   "    refused = None\n"
                   "except Exception as e:\n"
                   "    refused = type(e).__name__ + ': ' + str(e)\n"
                   "print(json.dumps({'refused': refused}))\n")
    assert got["refused"] and "pydantic.v1 models are no longer supported" in got["refused"], got
