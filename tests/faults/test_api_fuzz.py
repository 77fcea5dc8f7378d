"""The standing API fuzz (issue 11): schemathesis generates requests for every route of
the OpenAPI schema, valid and invalid, with the admin token; none may be answered 5xx, and
a rejected one (4xx) must change nothing (the public state, the record, the spent action
ids, the token). One table plays a referee game (every route), one a tracker game (the
routes whose checks depend on the mode). Seeded and bounded: the same cases on every run."""

import json
import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from tests.web.conftest import AUTH, TOKEN, make_table  # noqa: E402

from hub.web.app import create_app  # noqa: E402


def _table(mode):
    t = make_table()
    (t.start_referee(seed=5) if mode == "referee" else t.start_tracker(seed=5))
    return t


REFEREE, TRACKER = _table("referee"), _table("tracker")
referee_api = schemathesis.openapi.from_asgi("/openapi.json", create_app(REFEREE, tick_interval=None))
# the tracker table: the routes whose checks depend on the mode (the others are the same code)
tracker_api = schemathesis.openapi.from_asgi("/openapi.json", create_app(TRACKER, tick_interval=None)).include(
    path_regex=r"^/api/(state|control/(tracker|decision|timer|games))")
FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


COUNTS = {"requests": 0, "refused": 0, "unchanged": 0}


@pytest.fixture(scope="module", autouse=True)
def _figures():
    yield
    print("API fuzz: %(requests)d requests, 0 answered 5xx, %(refused)d refused, each leaving the table unchanged"
          % COUNTS)


def fingerprint(table):
    snap = table.snapshot()
    games = [(g["id"], g["records"], g["status"]) for g in table.store.games(100)]
    spent = table.store.db.execute("SELECT COUNT(*) FROM actions").fetchone()[0]
    return json.dumps({"snap": snap, "games": games, "spent": spent, "token": table.admin_token},
                      sort_keys=True, ensure_ascii=False, default=str)


def check(table, mode, case):
    s = table.session
    if s is None or s.mode != mode or (mode == "referee" and s.state.winner is not None) \
            or (mode == "tracker" and s.game.winner is not None):
        table.start_referee(seed=5) if mode == "referee" else table.start_tracker(seed=5)
    before = fingerprint(table)
    response = case.call(headers=dict(case.headers or {}, **AUTH))     # the token: reach the checks behind it
    COUNTS["requests"] += 1
    try:
        assert response.status_code < 500, "%s %s -> %d %s" % (
            case.method, case.formatted_path, response.status_code, response.text[:300])
        if response.status_code >= 400:
            assert fingerprint(table) == before, "%s %s was refused (%d) but changed the table" % (
                case.method, case.formatted_path, response.status_code)
            body = response.json()
            assert body.get("error") and body.get("detail"), body
            COUNTS["refused"] += 1
    finally:
        if table.admin_token != TOKEN:      # an accepted token change: the next case needs the token
            table.admin_token = TOKEN


@referee_api.parametrize()
@FUZZ
def test_referee_table_every_route_is_2xx_or_4xx_and_a_rejection_changes_nothing(case):
    check(REFEREE, "referee", case)


@tracker_api.parametrize()
@FUZZ
def test_tracker_table_every_route_is_2xx_or_4xx_and_a_rejection_changes_nothing(case):
    check(TRACKER, "tracker", case)
