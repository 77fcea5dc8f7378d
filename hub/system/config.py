"""``lumen hub --config FILE``: the hub's settings in a TOML file (what the service's
``ExecStart`` line used to carry), flags on the command line still winning.

The file has one table, ``[hub]``, whose keys are ``lumen hub``'s long options with dashes
as underscores::

    [hub]
    db = "/var/lib/lumen/games.sqlite3"
    host = "0.0.0.0"
    port = 8000
    resume = true
    serial = ["/dev/lumen-pod-E66038B7133C7A2E"]
    decks = ["serin", "gangcheol"]

An unknown key, a key of the wrong type or a file that is not TOML is an error naming the
file, the key and what was expected; nothing starts.
"""

import tomllib


class ConfigError(Exception):
    pass


def read(path):
    """The ``[hub]`` table of ``path`` as a dict."""
    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except OSError as e:
        raise ConfigError("%s: cannot read the config file: %s" % (path, e.strerror or e)) from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("%s: not a TOML file: %s" % (path, e)) from None
    extra = sorted(set(data) - {"hub"})
    if extra:
        raise ConfigError("%s: unknown table(s) %s: the hub's settings go under [hub]" % (path, ", ".join(extra)))
    hub = data.get("hub", {})
    if not isinstance(hub, dict):
        raise ConfigError("%s: [hub] must be a table" % path)
    return hub


def apply(parser, args, argv, path):
    """Fill ``args`` (parsed from ``argv`` by ``parser``, the ``lumen hub`` subparser) with the
    file's values for every option the command line did not give. Returns ``args``."""
    values = read(path)
    actions = {a.dest: a for a in parser._actions if a.option_strings and a.dest not in ("help", "config")}
    given = _given(parser, argv)
    for key, value in values.items():
        action = actions.get(key)
        if action is None:
            raise ConfigError("%s: unknown setting %r (one of: %s)" % (path, key, ", ".join(sorted(actions))))
        value = _checked(path, key, action, value)
        if key not in given:
            setattr(args, key, value)
    return args


def _given(parser, argv):
    """The options ``argv`` names (long or short, ``--x=1`` too)."""
    by_flag = {flag: a.dest for a in parser._actions for flag in a.option_strings}
    out = set()
    for word in argv:
        flag = word.split("=", 1)[0]
        if flag in by_flag:
            out.add(by_flag[flag])
    return out


def _checked(path, key, action, value):
    where = "%s: %s" % (path, key)
    nargs, kind = action.nargs, action.type
    if action.const is True and action.nargs == 0:         # store_true
        if not isinstance(value, bool):
            raise ConfigError("%s must be true or false, not %r" % (where, value))
        return value
    if nargs in ("+", "*") or isinstance(nargs, int) or action.__class__.__name__ == "_AppendAction":
        if not isinstance(value, list):
            raise ConfigError("%s must be a list, e.g. [%r]" % (where, value))
        if isinstance(nargs, int) and len(value) != nargs:
            raise ConfigError("%s must list exactly %d value(s), not %d" % (where, nargs, len(value)))
        return [_scalar(where, kind, v, action.choices) for v in value]
    return _scalar(where, kind, value, action.choices)


def _scalar(where, kind, value, choices=None):
    value = _typed(where, kind, value)
    if choices is not None and value not in choices:
        raise ConfigError("%s must be one of %s, not %r" % (where, ", ".join(map(str, choices)), value))
    return value


def _typed(where, kind, value):
    if kind is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ConfigError("%s must be a whole number, not %r" % (where, value))
        return value
    if kind is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ConfigError("%s must be a number, not %r" % (where, value))
        return float(value)
    if not isinstance(value, str):
        raise ConfigError("%s must be a string, not %r" % (where, value))
    return value
