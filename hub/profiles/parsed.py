"""The bundled profiles and card sets, kept parsed beside their YAML (issue 36: the hub's start;
the mechanism is engine/core/kept.py's).

A bundled file is read as text as before (size and kind checked) and its data taken from the
folder's ``parsed.json`` only while the text is the one it was parsed from; the profile or card
checker (``parse``) runs on the data either way.

``python -m hub.profiles.parsed`` writes every bundled folder's kept form again (these and the
engine's sample set) after an edit; tests/profiles/test_parsed.py fails while one is stale.
"""

import os

from engine import kept
from engine.cards import plain
from hub.profiles.schema import parse_yaml, read_text

yaml_files = kept.yaml_files


def by_id(folder, parse, error, limit):
    """Every ``*.yaml`` of a bundled folder as ``parse(data, path)``, by the parsed thing's ``id``:
    the data from the folder's kept form where the file's text is the one it was made from."""
    forms = kept.read(folder)
    out = {}
    for name in yaml_files(folder):
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


def folders():
    """The hub's bundled folders, each with its error and size limit."""
    from hub.profiles import cards, profile
    from hub.profiles.schema import MAX_CARDS_BYTES, MAX_PROFILE_BYTES
    return [(profile.DATA, profile.ProfileError, MAX_PROFILE_BYTES), (cards.DATA, cards.CardSetError, MAX_CARDS_BYTES)]


def engine_io():
    """How the engine's sample folders' files are read and parsed (engine/cards/decks.py)."""
    from engine import load_yaml_text

    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    return (lambda text, path: plain(load_yaml_text(text))), read


def main():
    from engine.cards import KEPT_FOLDERS
    for folder, error, limit in folders():
        print("%s: %d files" % (os.path.join(folder, kept.NAME), write(folder, error, limit)))
    for folder in sorted(KEPT_FOLDERS):
        print("%s: %d files" % (os.path.join(folder, kept.NAME), kept.write(folder, *engine_io())))


if __name__ == "__main__":
    main()
