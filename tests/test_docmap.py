"""The module maps stay true: every module of engine/ is in docs/engine.md's table and every
module of hub/ in docs/hub.md's, and neither names a module that is gone (a newcomer
reads the map first: issue 25).

A doc's table rows are ``| file(s) | one job |`` (engine) or ``| package | module(s) | one
job |`` (hub, a blank package cell continuing the package above); a module is listed when
its file name stands in backticks in the module cell of its own package's rows.
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NAME = re.compile(r"`([\w./]+\.py)`")


def modules(package):
    """Module paths relative to the package folder ("pods/pod_hub.py", "battle.py"), without
    ``__init__``/``__main__`` files (a package's own doc is its docstring)."""
    base = ROOT / package
    return sorted(str(p.relative_to(base)) for p in base.rglob("*.py")
                  if p.name not in ("__init__.py", "__main__.py") and "static" not in p.parts)


def listed(doc, with_package):
    """The module paths a doc's tables list (relative to the package folder)."""
    out = set()
    package = ""
    for line in (ROOT / "docs" / doc).read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if with_package:
            if len(cells) < 3:
                continue
            head = re.findall(r"`([\w/]+/)`", cells[0])
            if head:
                package = head[0]
            elif cells[0]:
                package = ""
            names = cells[1]
        else:
            names = cells[0]
        for name in NAME.findall(names):
            out.add(name if "/" in name and not with_package else package + name)
    return out


def test_every_engine_module_is_on_the_engine_map():
    have, doc = set(modules("engine")), listed("engine.md", with_package=False)
    assert not have - doc, "docs/engine.md's table misses %s" % ", ".join(sorted(have - doc))
    assert not doc - have, "docs/engine.md's table names modules that do not exist: %s" % ", ".join(sorted(doc - have))


def test_every_hub_module_is_on_the_hub_map():
    have, doc = set(modules("hub")), listed("hub.md", with_package=True)
    assert not have - doc, "docs/hub.md's table misses %s" % ", ".join(sorted(have - doc))
    assert not doc - have, "docs/hub.md's table names modules that do not exist: %s" % ", ".join(sorted(doc - have))


def test_the_press_walkthrough_starts_where_a_press_starts():
    """docs/hub.md's "one button press" starts in the module that reads the button (issue 25:
    it named firmware/main.py, which only calls app.run())."""
    text = (ROOT / "docs" / "hub.md").read_text(encoding="utf-8")
    walk = text[text.index("## One button press"):]
    first = walk[walk.index("1. "):walk.index("2. ")]
    for path in re.findall(r"`(firmware/[\w/]+\.py)`", first):
        assert (ROOT / path).exists(), path
    assert "firmware/buttons.py" in first
