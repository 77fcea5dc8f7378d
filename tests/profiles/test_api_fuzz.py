"""The standing API fuzz on a profile table (as tests/faults/test_api_fuzz.py for the Lumen
modes): schemathesis generates requests for the routes whose checks depend on the game (the
profile commands, the public decisions, starting games, the profiles' list); none may be
answered 5xx, and a refused one changes nothing (the public state, the record, the spent
action ids). Seeded and bounded."""

import warnings

import pytest

warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient`")

schemathesis = pytest.importorskip("schemathesis")
from hypothesis import HealthCheck, settings  # noqa: E402

from hub.web.app import create_app  # noqa: E402
from tests.faults.test_api_fuzz import fingerprint  # noqa: E402
from tests.web.conftest import AUTH, TOKEN, make_table  # noqa: E402


def _start(t):
    t.start("profile", "haneul", "bada", profile="battlecon", seed=5, priority="a")


PROFILE = make_table()
_start(PROFILE)
profile_api = schemathesis.openapi.from_asgi("/openapi.json", create_app(PROFILE, tick_interval=None)).include(
    path_regex=r"^/api/(state|profiles|control/(profile|decision|games))")
FUZZ = settings(max_examples=12, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))


@profile_api.parametrize()
@FUZZ
def test_profile_table_every_route_is_2xx_or_4xx_and_a_rejection_changes_nothing(case):
    s = PROFILE.session
    if s is None or s.mode != "profile" or s.winner is not None:
        _start(PROFILE)
    before = fingerprint(PROFILE)
    response = case.call(headers=dict(case.headers or {}, **AUTH))
    try:
        assert response.status_code < 500, "%s %s -> %d %s" % (
            case.method, case.formatted_path, response.status_code, response.text[:300])
        if response.status_code >= 400:
            assert fingerprint(PROFILE) == before, "%s %s was refused (%d) but changed the table" % (
                case.method, case.formatted_path, response.status_code)
            body = response.json()
            assert body.get("error") and body.get("detail"), body
    finally:
        if PROFILE.admin_token != TOKEN:
            PROFILE.admin_token = TOKEN
