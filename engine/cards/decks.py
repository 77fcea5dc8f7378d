"""Card sets and decks from YAML, with deck-building checks (guide 4.5).

A card set file holds ``set:``, ``characters:`` and ``cards:``; a deck file
holds ``deck:`` naming its card set (a path relative to the deck file), a
character, 20 skill cards and 0-1 ultimate. ``check_path`` validates any mix
of these files and returns every problem with file:line, card id and field.
"""

import os
from collections import Counter
from functools import lru_cache

from engine.cards.model import ProblemCollector, parse_card, parse_character
from engine.core import kept
from engine.core.errors import CardError, Problem
from engine.core.yamlio import load_yaml, load_yaml_text

SAMPLE_DIR = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "sample")   # engine/data/sample
SAMPLE_CARDS = os.path.join(SAMPLE_DIR, "cards.yaml")
SAMPLE_DECKS = os.path.join(SAMPLE_DIR, "decks")
#: the bundled folders whose files are kept parsed (engine/core/kept.py): a referee game starts
#: from the sample decks without PyYAML
KEPT_FOLDERS = frozenset(os.path.abspath(f) for f in (SAMPLE_DIR, SAMPLE_DECKS))

SET_KEYS = {"set", "characters", "cards"}
SET_INFO_KEYS = {"id", "name", "name_en", "sample"}
DECK_KEYS = {"name", "name_en", "cardset", "character", "cards", "ultimate"}

DECK_SKILLS = 20        # guide 4.5 / 001 4.1: 20 attack/defense/special cards
OWN_MARK_MIN = 10       # at least 10 with the character's own mark (not counting ultimate)
SETUP_MIN = 14          # 5 hand + 9 list of non-special skills (guide 3.4.1 NOTE)


class CardSet:
    """Characters and cards loaded from one card set file."""

    def __init__(self, path, info, characters, cards):
        self.path = path
        self.info = info
        self.characters = characters
        self.cards = cards


class Deck:
    def __init__(self, path, name, cardset, character, cards, ultimate):
        self.path = path
        self.name = name
        self.cardset = cardset
        self.character = character
        self.cards = cards
        self.ultimate = ultimate

    def as_game_deck(self):
        return {"character": self.character, "cards": list(self.cards), "ultimate": self.ultimate}


def _read(path, ck):
    try:
        folder, name = os.path.split(os.path.abspath(path))
        if folder not in KEPT_FOLDERS:
            return load_yaml(path)
        with open(path, encoding="utf-8") as f:
            text = f.read()
        found, data = kept.data_of(kept.read(folder), name, text)
        return data if found else load_yaml_text(text)
    except OSError as exc:
        ck.problems.append(Problem("cannot read: %s" % exc.strerror, path))
    except Exception as exc:  # a YAML syntax error names its own line
        mark = getattr(exc, "problem_mark", None)
        line = mark.line + 1 if mark is not None else None
        ck.problems.append(Problem("not valid YAML: %s" % getattr(exc, "problem", exc), path, line))
    return None


def load_cardset(path, ck=None):
    """Load a card set file. Returns (CardSet or None, problems)."""
    ck = ck or ProblemCollector(path)
    ck.file = path
    before = len(ck.problems)
    data = _read(path, ck)
    if data is None:
        return None, ck.problems[before:]
    if not isinstance(data, dict) or "cards" not in data:
        ck.add("a card set file needs set:, characters: and cards:", data)
        return None, ck.problems[before:]
    for key in data:
        if key not in SET_KEYS:
            ck.add("unknown top-level key %r (allowed: %s)" % (key, ", ".join(sorted(SET_KEYS))), data, key)
    info = data.get("set") or {}
    if not isinstance(info, dict):
        ck.add("set must be a mapping", data, "set")
        info = {}
    for key in info:
        if key not in SET_INFO_KEYS:
            ck.add("unknown key %r in set" % (key,), info, key, field="set." + str(key))
    characters = {}
    for i, cd in enumerate(data.get("characters") or []):
        ch, _ = parse_character(cd, path, ck, where="characters[%d]" % i)
        if ch is None:
            continue
        if not ch.id:
            ck.add("a character needs an id", cd, None, field="characters[%d].id" % i)
        elif ch.id in characters:
            ck.add("duplicate character id %r" % ch.id, cd, "id")
        else:
            characters[ch.id] = ch
    cards = {}
    items = data.get("cards")
    if not isinstance(items, list):
        ck.add("cards must be a list", data, "cards")
        items = []
    names = {}
    for item in items:
        card, _ = parse_card(item, path, ck)
        if card is None:
            continue
        if card.id in cards:
            ck.add("duplicate card id %r" % card.id, item, "id", card.id, "id")
            continue
        if card.mark != "neutral" and card.mark not in {c.mark for c in characters.values()}:
            ck.add("mark %r is neither neutral nor a character's mark in this set" % card.mark,
                   item, "mark", card.id, "mark")
        names.setdefault(card.name, card.id)
        cards[card.id] = card
    if len(ck.problems) > before:
        return None, ck.problems[before:]
    return CardSet(path, info, characters, cards), []


def load_deck(path, ck=None):
    """Load and validate a deck file with its card set. Returns (Deck or None, problems)."""
    ck = ck or ProblemCollector(path)
    before = len(ck.problems)
    ck.file = path
    data = _read(path, ck)
    if data is None:
        return None, ck.problems[before:]
    if not isinstance(data, dict) or not isinstance(data.get("deck"), dict):
        ck.add("a deck file needs a deck: mapping", data)
        return None, ck.problems[before:]
    for key in data:
        if key != "deck":
            ck.add("unknown top-level key %r" % (key,), data, key)
    d = data["deck"]
    for key in d:
        if key not in DECK_KEYS:
            ck.add("unknown key %r in deck (allowed: %s)" % (key, ", ".join(sorted(DECK_KEYS))), d, key, field="deck." + str(key))
    ref = d.get("cardset")
    if not isinstance(ref, str):
        ck.add("deck.cardset must name the card set file", d, "cardset", field="deck.cardset")
        return None, ck.problems[before:]
    set_path = os.path.normpath(os.path.join(os.path.dirname(path), ref))
    cs, probs = _cached_cardset(set_path)
    ck.file = path
    if cs is None:
        ck.problems.extend(probs)
        ck.add("its card set %s has problems" % set_path, d, "cardset", field="deck.cardset")
        return None, ck.problems[before:]
    deck, _ = check_deck(d, cs, path, ck)
    if len(ck.problems) > before:
        return None, ck.problems[before:]
    return deck, []


@lru_cache(maxsize=32)
def cardset_key_cached(path, mtime):
    return load_cardset(path)


def _cached_cardset(path):
    try:
        mtime = os.path.getmtime(path)
    except OSError:
        mtime = None
    return cardset_key_cached(path, mtime)


def check_deck(d, cs, path, ck):
    """Deck-building rules of guide 4.5 against card set ``cs``."""
    before = len(ck.problems)
    char_id = d.get("character")
    character = cs.characters.get(char_id)
    if character is None:
        ck.add("unknown character %r (in the set: %s)" % (char_id, ", ".join(sorted(cs.characters))),
               d, "character", field="deck.character")
        return None, ck.problems[before:]
    ids = d.get("cards")
    if not isinstance(ids, list):
        ck.add("deck.cards must be a list of card ids", d, "cards", field="deck.cards")
        return None, ck.problems[before:]
    # a trait may change deck-building limits: only the items its text names (guide 4.5.1)
    rules = character.deck_rules
    skills = rules.get("skills", DECK_SKILLS)
    own_min = rules.get("own_mark_min", OWN_MARK_MIN)
    same_max = rules.get("same_name_max", 1)
    why = " (changed by the trait)"
    known = []
    for cid in ids:
        card = cs.cards.get(cid)
        if card is None:
            ck.add("unknown card %r" % (cid,), d, "cards", cid, "deck.cards")
            continue
        if card.ultimate:
            ck.add("is an ultimate: put it under deck.ultimate, not among the 20 skill cards", d, "cards", cid, "deck.cards")
        if card.mark not in ("neutral", character.mark):
            ck.add("mark %r is neither neutral nor %s's mark %r (guide 4.5.1)" % (card.mark, character.name, character.mark),
                   d, "cards", cid, "deck.cards")
        known.append(card)
    if len(ids) != skills:
        ck.add("a deck has exactly %d skill cards besides the ultimate (guide 4.5, 001 4.1%s); this one has %d"
               % (skills, why if "skills" in rules else "", len(ids)), d, "cards", field="deck.cards")
    ult_id = d.get("ultimate")
    ult = None
    if ult_id is not None:
        ult = cs.cards.get(ult_id)
        if ult is None:
            ck.add("unknown ultimate card %r" % (ult_id,), d, "ultimate", field="deck.ultimate")
        else:
            if not ult.ultimate:
                ck.add("is not an ultimate card (ultimate: true)", d, "ultimate", ult_id, "deck.ultimate")
            if ult.mark not in ("neutral", character.mark):
                ck.add("mark %r is neither neutral nor the character's" % ult.mark, d, "ultimate", ult_id, "deck.ultimate")
    own = sum(1 for c in known if c.mark == character.mark)
    if own < own_min:
        ck.add("only %d skill cards with %s's mark; at least %d are needed, not counting the ultimate (guide 4.5.1%s)"
               % (own, character.name, own_min, why if "own_mark_min" in rules else ""), d, "cards", field="deck.cards")
    names = Counter(c.name for c in known + ([ult] if ult else []))
    for name, n in names.items():
        if n > same_max:
            per = "one card" if same_max == 1 else "%d cards" % same_max
            ck.add("%d cards named %r; %s per name however numbered (guide 4.5.1%s)"
                   % (n, name, per, why if "same_name_max" in rules else ""), d, "cards", field="deck.cards")
    non_special = sum(1 for c in known if c.kind != "special")
    if non_special < SETUP_MIN:
        ck.add("only %d non-special skill cards; setup needs %d (5 hand + 9 list, guide 3.4.1)" % (non_special, SETUP_MIN),
               d, "cards", field="deck.cards")
    if len(ck.problems) > before:
        return None, ck.problems[before:]
    return Deck(path, d.get("name"), cs, character, list(ids), ult_id), []


def check_path(path):
    """Validate a card set file, a deck file, or every .yaml/.yml under a folder."""
    files = []
    if os.path.isdir(path):
        for root, _dirs, names in os.walk(path):
            for n in sorted(names):
                if n.endswith((".yaml", ".yml", ".json")) and n != kept.NAME:    # not a bundled folder's kept form
                    files.append(os.path.join(root, n))
        files.sort()
    else:
        files = [path]
    problems = []
    checked = []
    for f in files:
        ck = ProblemCollector(f)
        data = _read(f, ck)
        if data is None:
            problems += ck.problems
            continue
        if isinstance(data, dict) and "deck" in data:
            _, probs = load_deck(f)
        elif isinstance(data, dict) and "cards" in data:
            _, probs = load_cardset(f)
        else:
            probs = [Problem("neither a card set (cards:) nor a deck (deck:) file", f)]
        problems += probs
        checked.append(f)
    return checked, problems


def load_sample():
    """The bundled sample set and its two decks: (CardSet, {deck name: Deck}). Read once per
    version of the files (as card sets are): a referee game starts from them, and reading the
    deck files again was ~2 M instructions a game. Decks are shared: read them, don't change them."""
    names = [n for n in sorted(os.listdir(SAMPLE_DECKS)) if n.endswith(".yaml")]
    cs, decks = _cached_sample(tuple((n, _mtime(os.path.join(SAMPLE_DECKS, n))) for n in names)
                               + (_mtime(SAMPLE_CARDS),))
    return cs, dict(decks)


def _mtime(path):
    try:
        return os.path.getmtime(path)
    except OSError:
        return None


@lru_cache(maxsize=4)
def _cached_sample(files):
    cs, probs = _cached_cardset(SAMPLE_CARDS)
    if cs is None:
        raise CardError(probs)
    decks = {}
    for n, _ in files[:-1]:
        deck, probs = load_deck(os.path.join(SAMPLE_DECKS, n))
        if deck is None:
            raise CardError(probs)
        decks[deck.character.id] = deck
    return cs, decks


def sample_character(char_id):
    cs, _ = _cached_cardset(SAMPLE_CARDS)
    return cs.characters.get(char_id) if cs else None


def without_effects(cards, deck_a, deck_b):
    """The same cards and game decks with every card effect, trait function and token taken
    out: the vanilla game (guide chapters 3-4 alone, no chapter 5), for learning the battle
    order and for measuring the engine without its effect hooks (``fxon`` False). ``cards``
    maps id -> Card; returns (cards, deck_a, deck_b)."""
    plain = {}
    for cid, c in cards.items():
        d = c.to_json()
        d.pop("effects", None)
        plain[cid], _ = parse_card(d)

    def strip(deck):
        j = deck["character"].to_json()
        j.pop("tokens", None)
        j["trait"] = {k: v for k, v in (j.get("trait") or {}).items() if k != "effects"}
        ch, _ = parse_character(j)
        return dict(deck, character=ch)
    return plain, strip(deck_a), strip(deck_b)
