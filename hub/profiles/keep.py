"""``python -m hub.profiles.keep``: every bundled folder's YAML kept parsed again (engine/core/kept.py):
the hub's profiles and card sets (hub/profiles/parsed.py) and the engine's sample set. Run it after
editing one of those files and commit the ``parsed.json`` it writes; tests/profiles/test_parsed.py
fails until then (the hub reads the edited file as YAML meanwhile: nothing is lost)."""

import os

from engine import kept, load_yaml_text
from engine.cards import KEPT_FOLDERS, plain
from hub.profiles import cards, parsed, profile
from hub.profiles.schema import MAX_CARDS_BYTES, MAX_PROFILE_BYTES


def folders():
    """The hub's bundled folders, each with its error and size limit."""
    return [(profile.DATA, profile.ProfileError, MAX_PROFILE_BYTES), (cards.DATA, cards.CardSetError, MAX_CARDS_BYTES)]


def engine_io():
    """How the engine's sample folders' files are read and parsed (engine/cards/decks.py)."""
    def read(path):
        with open(path, encoding="utf-8") as f:
            return f.read()
    return (lambda text, path: plain(load_yaml_text(text))), read


def main():
    for folder, error, limit in folders():
        print("%s: %d files" % (os.path.join(folder, kept.NAME), parsed.write(folder, error, limit)))
    for folder in sorted(KEPT_FOLDERS):
        print("%s: %d files" % (os.path.join(folder, kept.NAME), kept.write(folder, *engine_io())))


if __name__ == "__main__":
    main()
