"""No two hub modules import each other, not even inside a function (issue 32 item 3: the
record's store and its card tables did, through a function-level import; the tournament's
event and its corrections did too). Read from the source with ``ast``."""

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def hub_graph():
    mods = {}
    for p in (ROOT / "hub").rglob("*.py"):
        if "static" in p.parts:
            continue
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        mods[name[:-len(".__init__")] if name.endswith(".__init__") else name] = p
    edges = {}
    for name, p in mods.items():
        pkg = name if p.name == "__init__.py" else name.rsplit(".", 1)[0]
        out = set()
        for node in ast.walk(ast.parse(p.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = pkg.split(".")
                    base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
                for a in node.names:
                    full = "%s.%s" % (base, a.name)
                    out.add(full if full in mods else base)
            elif isinstance(node, ast.Import):
                out.update(a.name for a in node.names)
        edges[name] = {o for o in out if o in mods and o != name}
    return edges


def cycles(edges):
    sys.setrecursionlimit(max(10_000, sys.getrecursionlimit()))
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                comps.append(sorted(comp))
    for v in sorted(edges):
        if v not in index:
            visit(v)
    # a package's __init__ importing its own modules is not a cycle of those modules
    return [c for c in comps if not any(all(x == m or x.startswith(m + ".") for x in c) for m in c)]


def test_no_import_cycles_in_the_hub():
    assert cycles(hub_graph()) == []


def test_the_check_sees_a_cycle_hidden_in_a_function():
    edges = {"hub.x": {"hub.y"}, "hub.y": {"hub.x"}, "hub.z": set()}
    assert cycles(edges) == [["hub.x", "hub.y"]]
