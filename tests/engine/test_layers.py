"""The engine is a stack of layers (docs/engine.md, issue 32): core -> cards -> play -> api ->
bots, scenarios. A module imports only its own layer and those before it, no two modules import
each other (counting imports inside functions: a cycle hidden in a function is still a cycle),
callers outside the engine use the public namespaces only, and no private ``_name`` is imported
from another module. Read from the source with ``ast``: nothing is imported to check it."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("core", "cards", "play", "api", "bots", "scenarios")
# bots and scenarios both sit on api; neither imports the other
PEERS = {("bots", "scenarios"), ("scenarios", "bots")}
PUBLIC = ("engine", "engine.cards", "engine.bots", "engine.scenarios")


def _module_name(path):
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def engine_modules():
    return {_module_name(p): p for p in (ROOT / "engine").rglob("*.py")}


def imports_of(path, known):
    """(line, imported module, names) of every import in the file, inside functions too."""
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for a in node.names:
                full = "%s.%s" % (node.module, a.name)
                out.append((node.lineno, full if full in known else node.module, a.name))
        elif isinstance(node, ast.ImportFrom) and node.level:
            out.append((node.lineno, "." * node.level + (node.module or ""), None))
        elif isinstance(node, ast.Import):
            for a in node.names:
                out.append((node.lineno, a.name, None))
    return out


def layer_of(module):
    parts = module.split(".")
    return parts[1] if len(parts) > 2 and parts[1] in LAYERS else None


def engine_graph():
    mods = engine_modules()
    graph = {}
    for name, path in mods.items():
        graph[name] = {(line, target) for line, target, _ in imports_of(path, mods)
                       if target.startswith("engine") and target != name}
    return mods, graph


def test_no_relative_imports_in_the_engine():
    """Absolute imports only: a module's layer reads off its import lines."""
    mods = engine_modules()
    rel = ["%s:%d %s" % (mods[n].relative_to(ROOT), line, t) for n, p in mods.items()
           for line, t, _ in imports_of(p, mods) if t.startswith(".")]
    assert not rel, rel


def test_no_module_imports_a_layer_above_its_own():
    mods, graph = engine_graph()
    bad = []
    for name, targets in graph.items():
        mine = layer_of(name)
        if mine is None:
            continue                    # engine/__init__.py: the namespace re-exports the api
        for line, target in targets:
            theirs = layer_of(target)
            if target == "engine" or (theirs is not None and ((mine, theirs) in PEERS
                                                               or LAYERS.index(theirs) > LAYERS.index(mine))):
                bad.append("%s:%d imports %s" % (mods[name].relative_to(ROOT), line, target))
    assert not bad, "upward imports:\n" + "\n".join(bad)


def test_no_import_cycles_even_inside_functions():
    mods, graph = engine_graph()
    edges = {n: {t for _, t in ts if t in mods} for n, ts in graph.items()}
    # Tarjan's strongly connected components
    index, low, stack, on, comps = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
    # a package's __init__ re-exporting its own modules is not a cycle of its modules
    comps = [c for c in comps if not any(m.count(".") == 1 and all(x.startswith(m + ".") or x == m for x in c)
                                         for m in c)]
    assert not comps, "import cycles: %s" % comps


def _outside_files():
    for base in ("hub", "bench", "hardware", "firmware"):
        for p in (ROOT / base).rglob("*.py"):
            if "static" not in p.parts:
                yield p


def test_the_hub_and_the_benches_use_only_the_public_namespaces():
    """``engine``, ``engine.cards``, ``engine.bots``, ``engine.scenarios`` and their submodules
    imported as modules (``from engine.cards import effects``): never a name out of an inner module."""
    mods = engine_modules()
    bad = []
    for p in _outside_files():
        for line, target, name in imports_of(p, mods):
            if not target.startswith("engine"):
                continue
            if target in PUBLIC or (name is None and target in mods):
                continue
            if target in mods and target.rsplit(".", 1)[0] in PUBLIC and name is not None and \
                    "%s.%s" % (target.rsplit(".", 1)[0], name) == target:
                continue                # from engine.cards import effects: a module of a namespace
            bad.append("%s:%d imports %s from %s" % (p.relative_to(ROOT), line, name, target))
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("base", ["engine", "hub", "bench"])
def test_no_private_name_is_imported_from_another_module(base):
    """A ``_name`` is its module's own: another module of the engine, the hub or the benches that
    needs it needs a public name (issue 32: hub/web imported ``_err``, ``_Strict``, ``_ready`` ...)."""
    mods = engine_modules()
    bad = []
    for p in (ROOT / base).rglob("*.py"):
        if "static" in p.parts:
            continue
        for line, target, name in imports_of(p, mods):
            if name and name.startswith("_") and not name.startswith("__") and \
                    target.split(".")[0] in ("engine", "hub", "bench"):
                bad.append("%s:%d imports %s from %s" % (p.relative_to(ROOT), line, name, target))
    assert not bad, "\n".join(bad)


def test_the_namespaces_export_what_they_say():
    import engine
    import engine.bots
    import engine.cards
    import engine.scenarios
    for ns in (engine, engine.cards, engine.bots, engine.scenarios):
        missing = [n for n in ns.__all__ if not hasattr(ns, n)]
        assert not missing, (ns.__name__, missing)
    assert (ROOT / "engine" / "py.typed").exists()
