"""``lumen hub --config FILE``: the hub's settings from a TOML file (stdlib tomllib).

The file's ``[hub]`` table holds ``lumen hub``'s long options, dashes as underscores
(``light_pixels = 16``, ``no_mdns = true``, ``serial = ["/dev/lumen-pod-A"]``); an option
given on the command line overrides the file. The Debian package's /etc/lumen/hub.toml is one
(hub/deploy/hub.toml). A key that is not one of these, or a value of the wrong kind, is an
error that names the file and the key: the hub does not start on a half-read config.
"""

import tomllib

# key -> (kind, what the value must be, in the error message)
_STR, _INT, _BOOL, _STRS, _PAIR = "str", "int", "bool", "list of str", "pair"
KEYS = {
    "db": _STR, "host": _STR, "port": _INT, "serial": _STRS, "mode": _STR, "decks": _PAIR,
    "resume": _BOOL, "durable": _BOOL, "cards": _STR, "table": _STR, "light": _STR,
    "light_pixels": _INT, "no_mdns": _BOOL, "broker": _STR, "event": _STR,
}
_MODES = ("referee", "tracker")


class ConfigError(Exception):
    pass


def _check(path, key, value):
    kind = KEYS[key]
    where = "%s: [hub] %s" % (path, key)
    if kind == _BOOL and not isinstance(value, bool):
        raise ConfigError("%s must be true or false, not %r" % (where, value))
    if kind == _INT and (isinstance(value, bool) or not isinstance(value, int)):
        raise ConfigError("%s must be a whole number, not %r" % (where, value))
    if kind == _STR:
        if key == "table" and isinstance(value, int) and not isinstance(value, bool):
            value = str(value)              # table = 12 is --table 12
        if not isinstance(value, str):
            raise ConfigError("%s must be a string, not %r" % (where, value))
        if key == "mode" and value not in _MODES:
            raise ConfigError("%s must be one of %s, not %r" % (where, ", ".join(_MODES), value))
    if kind in (_STRS, _PAIR):
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise ConfigError("%s must be a list of strings, not %r" % (where, value))
        if kind == _PAIR and len(value) != 2:
            raise ConfigError("%s must name two decks (1P, 2P), not %d" % (where, len(value)))
    return value


def load(path):
    """The ``[hub]`` table of ``path`` as argparse defaults (dest -> value), checked."""
    try:
        with open(path, "rb") as f:
            doc = tomllib.load(f)
    except OSError as e:
        raise ConfigError("cannot read the config file %s: %s" % (path, e.strerror or e)) from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError("%s is not valid TOML: %s" % (path, e)) from None
    unknown = sorted(set(doc) - {"hub"})
    if unknown:
        raise ConfigError("%s: unknown table(s) %s (the settings go in [hub])" % (path, ", ".join(unknown)))
    table = doc.get("hub", {})
    if not isinstance(table, dict):
        raise ConfigError("%s: hub must be a table ([hub])" % path)
    bad = sorted(set(table) - set(KEYS))
    if bad:
        raise ConfigError("%s: unknown key(s) in [hub]: %s (known: %s)" % (path, ", ".join(bad), ", ".join(KEYS)))
    return {key: _check(path, key, value) for key, value in table.items()}


def reparse(build_parser, argv, path):
    """Parse ``argv`` again with the file's settings as the ``hub`` command's defaults, so
    flags given override them. ``--serial`` adds up (argparse's append onto a default list),
    so the file's ports count only when none is given on the command line."""
    settings = load(path)
    serial = settings.pop("serial", None)
    args = build_parser(hub_defaults=settings).parse_args(argv)
    if args.serial is None and serial:
        args.serial = serial
    return args
