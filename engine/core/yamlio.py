"""YAML loading that remembers line numbers, so errors can say file:line.

PyYAML is imported at the first load, not with the engine: its import is ~73 M instructions,
and a hub whose first game reads no YAML (hub/profiles/parsed.py) starts without it.
"""

import functools
from typing import Any


class LineDict(dict[Any, Any]):
    """A dict that knows the line of itself and of each of its keys (1-based)."""

    __slots__ = ("line", "key_lines")
    line: int
    key_lines: dict[Any, int]

    def line_of(self, key: Any) -> int:
        return self.key_lines.get(key, self.line)


#: the most nodes a document may hold once its aliases are expanded (issue 28.10): a card set of
#: 4,000 cards has ~2 x 10^5; a 394-byte alias bomb expands past 10^9 and froze a hub for 26 s
MAX_NODES = 1_000_000


@functools.lru_cache(maxsize=1)
def _loader() -> Any:
    """The loader class, made at the first load."""
    import yaml
    # the C loader is much faster; fall back to pure Python where libyaml is missing
    base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

    class _Loader(base):  # type: ignore[misc,valid-type]  # the C loader or the Python one
        aliased = True          # whether the text may hold an alias (a "*"): if not, nothing to expand

        def get_single_node(self) -> Any:
            node = super().get_single_node()
            if node is not None and self.aliased:
                _check_expansion(node)
            return node

    _Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    return _Loader


def _check_expansion(root: Any) -> None:
    """Refuse a document whose aliases expand it past MAX_NODES, or that refers to itself
    (every reader walks the data as a tree). Each node is counted once with the size of what
    it expands to, so the check costs the document's size, never its expansion."""
    import yaml
    size: dict[int, int] = {}   # id(node) -> expanded size; -1 while the node is being counted
    stack = [(root, False)]
    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            size[key] = 1 + sum(size[id(k)] for k in _children(node))
            if size[key] > MAX_NODES:
                raise yaml.composer.ComposerError(
                    None, None, "the document expands to more than %d nodes through its aliases (an alias bomb?)"
                    % MAX_NODES, node.start_mark)
            continue
        seen = size.get(key)
        if seen == -1:
            raise yaml.composer.ComposerError(None, None, "an alias refers to a node that contains it", node.start_mark)
        if seen is not None:
            continue
        size[key] = -1
        stack.append((node, True))
        stack.extend((k, False) for k in _children(node))


def _children(node: Any) -> Any:
    if node.id == "sequence":          # PyYAML's node kinds (yaml.SequenceNode.id, MappingNode.id)
        return node.value
    if node.id == "mapping":
        return [n for pair in node.value for n in pair]
    return ()


def _construct_mapping(loader: Any, node: Any) -> LineDict:
    loader.flatten_mapping(node)
    d = LineDict()
    d.line = node.start_mark.line + 1
    d.key_lines = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        if key in d:
            import yaml
            raise yaml.constructor.ConstructorError(
                None, None, "duplicate key %r" % (key,), key_node.start_mark)
        d[key] = loader.construct_object(value_node, deep=True)
        d.key_lines[key] = key_node.start_mark.line + 1
    return d


def load_yaml(path: Any) -> Any:
    """Load one YAML (or JSON) file; mappings come back as LineDict.

    Raises yaml.YAMLError with the position on a syntax error, or on a document whose
    aliases expand it past MAX_NODES.
    """
    with open(path, encoding="utf-8") as f:
        return load_yaml_text(f.read())


def load_yaml_text(text: str | bytes) -> Any:
    loader = _loader()(text)
    loader.aliased = not isinstance(text, str) or "*" in text
    try:
        return loader.get_single_data()
    finally:
        loader.dispose()


def line_of(obj: Any, key: Any = None) -> int | None:
    """Best-effort line number of a mapping or one of its keys."""
    if isinstance(obj, LineDict):
        return obj.line_of(key) if key is not None else obj.line
    return None
