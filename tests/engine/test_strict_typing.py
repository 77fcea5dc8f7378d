"""The strict-typing list (pyproject.toml) only grows (issue 32, Home Assistant's way).

`strict = true` is a global mypy option; per module, mypy takes the flags it is made of. The
override that carries all of them is "the strict list": every module named there is checked as
`mypy --strict` checks it (tests/run.sh runs `python3 -m mypy` with this configuration). This test
fails when a module leaves the list or a flag is dropped; add modules, never remove one.
"""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

#: the per-module flags `--strict` turns on (the global ones, warn_unused_ignores,
#: warn_redundant_casts and strict_equality, are set in [tool.mypy] itself)
STRICT_FLAGS = ("disallow_untyped_defs", "disallow_incomplete_defs", "disallow_untyped_calls",
                "disallow_untyped_decorators", "disallow_any_generics", "disallow_subclassing_any",
                "warn_return_any", "no_implicit_reexport", "check_untyped_defs", "strict_equality",
                "extra_checks")

#: what the list held when it was made; it may hold more, never less
AT_LEAST = {"engine", "engine.core.*", "engine.api.*", "engine.cards.model", "engine.cards.lint", "engine.cards.rules",
            "engine.play.state", "engine.play.ordering", "engine.play.conditions", "engine.scenarios.patterns"}


def _config():
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def strict_list():
    """The modules of the override that sets every strict flag (there is one such override)."""
    found = [o for o in _config().get("overrides", []) if all(o.get(f) is True for f in STRICT_FLAGS)]
    assert len(found) == 1, "one [[tool.mypy.overrides]] must set every flag of %s to true" % (STRICT_FLAGS,)
    mods = found[0]["module"]
    return {mods} if isinstance(mods, str) else set(mods)


def test_the_strict_list_only_grows():
    missing = AT_LEAST - strict_list()
    assert not missing, "left the strict list: %s (the list only grows)" % ", ".join(sorted(missing))


def test_the_global_strict_flags_stay_on():
    cfg = _config()
    for flag in ("warn_unused_ignores", "warn_redundant_casts", "strict_equality"):
        assert cfg.get(flag) is True, flag


def test_every_name_on_the_list_is_a_module_that_exists():
    """A misspelt name would check nothing and pass."""
    for name in strict_list():
        base = ROOT / Path(*name.removesuffix(".*").split("."))
        if name.endswith(".*"):
            assert (base / "__init__.py").exists(), name
        else:
            assert base.with_suffix(".py").exists() or (base / "__init__.py").exists(), name
