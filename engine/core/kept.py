"""Bundled YAML kept parsed beside it (issue 36: a hub starts without PyYAML).

PyYAML's import is ~73 M instructions and the line-remembering parse of the 30 KB sample card
set ~80 M more (~0.4 s of a Raspberry Pi Zero's core together), and every hub's first game reads
bundled YAML: Lumen's profile, or the sample decks. A folder of bundled files may hold
``parsed.json``: the data of each of its ``*.yaml`` files with the SHA-256 of the text it came
from. A reader takes the data from there only while the file's text is that text, so the kept
form can only be stale in speed, never in content: a file edited since is parsed as YAML. Data
read from a kept form has no line numbers (plain dicts): the files kept are the bundled ones,
which pass their checks. ``python -m hub.profiles.keep`` writes every bundled folder's kept
form again (engine's sample set included); tests fail while one is stale.
"""

import hashlib
import json
import os
from collections.abc import Callable
from typing import Any

NAME = "parsed.json"
FORMAT = "lumen-parsed/1"


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read(folder: str) -> dict[str, Any]:
    """``{file name: {"sha256", "data"}}`` of the folder's kept form; {} if it has none or it is
    unreadable (then every file is parsed as YAML)."""
    try:
        with open(os.path.join(folder, NAME), encoding="utf-8") as f:
            kept = json.load(f)
    except (OSError, ValueError):
        return {}
    if not isinstance(kept, dict) or kept.get("format") != FORMAT or not isinstance(kept.get("files"), dict):
        return {}
    files: dict[str, Any] = kept["files"]
    return files


def data_of(kept: dict[str, Any], name: str, text: str) -> tuple[bool, Any]:
    """``(True, data)`` when ``kept`` holds the data of file ``name`` whose text is ``text``;
    ``(False, None)`` otherwise (parse the text)."""
    entry = kept.get(name)
    if isinstance(entry, dict) and entry.get("sha256") == digest(text) and "data" in entry:
        return True, entry["data"]
    return False, None


def yaml_files(folder: str) -> list[str]:
    return [n for n in sorted(os.listdir(folder)) if n.endswith(".yaml")]


def stale(folder: str, parse_text: Callable[[str, str], Any], read_text: Callable[[str], str]) -> list[str]:
    """The folder's YAML files whose kept data is missing or not their data, compared as JSON
    text (the same data in the same order: a profile's hash reads it in order).
    ``parse_text(text, path)`` gives a file's plain data, ``read_text(path)`` its text."""
    kept = read(folder)
    out = []
    for name in yaml_files(folder):
        path = os.path.join(folder, name)
        text = read_text(path)
        found, data = data_of(kept, name, text)
        if not found or json.dumps(data) != json.dumps(parse_text(text, path)):
            out.append(name)
    return out


def write(folder: str, parse_text: Callable[[str, str], Any], read_text: Callable[[str], str]) -> int:
    """Write the folder's kept form from its YAML files (atomically). Returns how many files."""
    files = {}
    for name in yaml_files(folder):
        path = os.path.join(folder, name)
        text = read_text(path)
        files[name] = {"sha256": digest(text), "data": parse_text(text, path)}
    body = json.dumps({"format": FORMAT, "files": files}, ensure_ascii=False, indent=1)
    tmp = os.path.join(folder, NAME + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(body + "\n")
    os.replace(tmp, os.path.join(folder, NAME))
    return len(files)
