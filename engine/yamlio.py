"""YAML loading that remembers line numbers, so errors can say file:line."""

import yaml

try:  # the C loader is much faster; fall back to pure Python where libyaml is missing
    _Base = yaml.CSafeLoader
except AttributeError:  # pragma: no cover
    _Base = yaml.SafeLoader


class LineDict(dict):
    """A dict that knows the line of itself and of each of its keys (1-based)."""

    __slots__ = ("line", "key_lines")

    def line_of(self, key):
        return self.key_lines.get(key, self.line)


class _Loader(_Base):  # type: ignore[misc,valid-type]  # the C loader or the Python one
    pass


def _construct_mapping(loader, node):
    loader.flatten_mapping(node)
    d = LineDict()
    d.line = node.start_mark.line + 1
    d.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in d:
            raise yaml.constructor.ConstructorError(
                None, None, "duplicate key %r" % (key,), key_node.start_mark)
        d[key] = loader.construct_object(value_node, deep=True)
        d.key_lines[key] = key_node.start_mark.line + 1
    return d


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_yaml(path):
    """Load one YAML (or JSON) file; mappings come back as LineDict.

    Raises yaml.YAMLError with the position on a syntax error.
    """
    with open(path, encoding="utf-8") as f:
        return yaml.load(f, Loader=_Loader)


def load_yaml_text(text):
    return yaml.load(text, Loader=_Loader)


def line_of(obj, key=None):
    """Best-effort line number of a mapping or one of its keys."""
    if isinstance(obj, LineDict):
        return obj.line_of(key) if key is not None else obj.line
    return None
