"""The bundled profiles and card sets, kept parsed beside their YAML (issue 36: the hub's start;
the mechanism is engine/core/kept.py's).

A bundled file is read as text as before (size and kind checked) and its data taken from the
folder's ``parsed.json`` only while the text is the one it was parsed from; the profile or card
checker (``parse``) runs on the data either way.

``python -m hub.profiles.keep`` writes every bundled folder's kept form again (these and the
engine's sample set) after an edit; tests/profiles/test_parsed.py fails while one is stale.
"""

import os

from engine import kept
from engine.cards import plain
from hub.profiles.schema import parse_yaml, read_text


def by_id(folder, parse, error, limit):
    """Every ``*.yaml`` of a bundled folder as ``parse(data, path)``, by the parsed thing's ``id``:
    the data from the folder's kept form where the file's text is the one it was made from."""
    forms = kept.read(folder)
    out = {}
    for name in kept.yaml_files(folder):
        path = os.path.join(folder, name)
        text = read_text(path, error, limit)
        found, data = kept.data_of(forms, name, text)
        x = parse(data if found else parse_yaml(text, path, error), path)
        out[x.id] = x
    return out


def _io(error, limit):
    return (lambda text, path: plain(parse_yaml(text, path, error))), (lambda path: read_text(path, error, limit))


def stale(folder, error, limit):
    """The folder's files whose kept form is missing or not the data of their text."""
    return kept.stale(folder, *_io(error, limit))


def write(folder, error, limit):
    """Write the folder's kept form from its YAML files."""
    return kept.write(folder, *_io(error, limit))
