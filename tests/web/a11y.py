"""axe-core in a page (Deque's accessibility engine, from npm as pinned by
tests/web/axe/package-lock.json; tests/run.sh installs it): injected through Selenium into the
page as it is, run, and its violations returned. Where node_modules is missing a user's clone
skips in one line; CI (CI=true) must run it."""

import json
import os
from pathlib import Path

import pytest

AXE = Path(__file__).resolve().parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
#: what must never be found (axe's impact levels): a page a person cannot use, or barely
BLOCKING = ("critical", "serious")


def source():
    if not AXE.exists():
        why = "axe-core is not installed (cd tests/web/axe && npm ci)"
        if os.environ.get("CI") == "true":
            pytest.fail("the accessibility checks cannot run in CI: " + why)
        pytest.skip(why)
    return AXE.read_text(encoding="utf-8")


def violations(driver, script=None):
    """axe's violations on the page as it is now: ``[{id, impact, help, nodes: [{target, summary}]}]``."""
    if not driver.execute_script("return !!window.axe"):
        driver.execute_script(script or source())
    driver.set_script_timeout(120)
    found = driver.execute_async_script(
        "var done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(function (r) { done(JSON.stringify(r.violations)); },"
        " function (e) { done(JSON.stringify({error: String(e)})); });")
    out = json.loads(found)
    if isinstance(out, dict):
        raise AssertionError("axe-core failed: %s" % out["error"])
    return [{"id": v["id"], "impact": v["impact"], "help": v["help"],
             "nodes": [{"target": n["target"], "summary": (n.get("failureSummary") or "")[:300]} for n in v["nodes"]]}
            for v in out]


def blocking(found):
    return [v for v in found if v["impact"] in BLOCKING]


def describe(found):
    """One line per violation and its first nodes, for an assertion message."""
    return "\n".join("%s (%s, %d nodes): %s; %s" % (v["id"], v["impact"], len(v["nodes"]), v["help"],
                                                    " | ".join("%s %s" % (n["target"], n["summary"]) for n in v["nodes"][:3]))
                     for v in found)
