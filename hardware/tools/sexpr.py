"""KiCad's S-expression files (.kicad_sch, .kicad_sym, .kicad_pcb, .net): read
and write. Runs on any Python 3.9+ (Debian's /usr/bin/python3 runs the board
scripts, the project's venv the tests).

    tree = parse(text)          # ["kicad_sch", ["version", "20211123"], ...]
    find(tree, "symbol")        # direct children whose head is "symbol"
    dump(tree)                  # back to text; Str values are quoted

An atom reads back as ``str``, a quoted string as ``Str`` (a str subclass),
so a writer keeps ``(at 1 2)`` and ``(property "Value" "10k")`` apart.
"""

from __future__ import annotations


class Str(str):
    """A quoted string in the file."""


def parse(text: str) -> list:
    stack: list[list] = [[]]
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "(":
            stack.append([])
            i += 1
        elif c == ")":
            done = stack.pop()
            stack[-1].append(done)
            i += 1
        elif c == '"':
            j = i + 1
            out = []
            while text[j] != '"':
                if text[j] == "\\":
                    j += 1
                    out.append({"n": "\n", "t": "\t"}.get(text[j], text[j]))
                else:
                    out.append(text[j])
                j += 1
            stack[-1].append(Str("".join(out)))
            i = j + 1
        elif c.isspace():
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '()"':
                j += 1
            stack[-1].append(text[i:j])
            i = j
    if len(stack) != 1 or len(stack[0]) != 1:
        raise ValueError("unbalanced S-expression")
    return stack[0][0]


def _atom(v) -> str:
    if isinstance(v, Str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, float):
        s = f"{v:.6f}".rstrip("0").rstrip(".")
        return "0" if s in ("-0", "") else s
    return str(v)


def dump(tree, indent: int = 0) -> str:
    """KiCad-like layout: a list that fits in 100 columns stays on one line."""
    if not isinstance(tree, list):
        return _atom(tree)
    flat = "(" + " ".join(dump(x, 0) for x in tree) + ")"
    if len(flat) + 2 * indent <= 100 and "\n" not in flat:
        return flat
    pad = "  " * indent
    head = []
    rest = []
    for x in tree:
        (rest if rest or isinstance(x, list) else head).append(x)
    lines = ["(" + " ".join(_atom(x) for x in head)]
    for x in rest:
        lines.append(pad + "  " + dump(x, indent + 1))
    return "\n".join(lines) + "\n" + pad + ")"


def find(tree: list, head: str) -> list[list]:
    return [x for x in tree if isinstance(x, list) and x and x[0] == head]


def first(tree: list, head: str, default=None):
    for x in tree:
        if isinstance(x, list) and x and x[0] == head:
            return x
    return default


def value(tree: list, head: str, default=None):
    """The first argument of the child ``(head value ...)``."""
    x = first(tree, head)
    return x[1] if x is not None and len(x) > 1 else default


def props(tree: list) -> dict[str, str]:
    """A symbol's ``(property "Name" "value" ...)`` children as a dict."""
    return {str(p[1]): str(p[2]) for p in find(tree, "property")}
