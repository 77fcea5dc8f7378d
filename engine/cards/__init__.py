"""Cards: the card and character model (model.py), the effect vocabulary (effects.py, its lint
and JSON schema), card text (text.py), YAML writing (cardyaml.py), card sets and decks
(decks.py), the rules options (rules.py). The names a caller needs are here."""

from engine.cards.decks import (DECK_SKILLS, KEPT_FOLDERS, OWN_MARK_MIN, SAMPLE_CARDS, SAMPLE_DECKS, SAMPLE_DIR, SETUP_MIN, CardSet, Deck,
                                cardset_key_cached, check_deck, check_path, load_cardset, load_deck, load_sample,
                                sample_character, without_effects)
from engine.cards.effects import TIMING_KO, plain
from engine.cards.model import (ATTACK_RESULTS, DEFENSE_RESULTS, KINDS, POSITIONS, Card, Character, ProblemCollector,
                                hand_limit, parse_card, parse_character, raise_if)
from engine.cards.text import TIMING_EN, entry_text

__all__ = [
    "DECK_SKILLS", "KEPT_FOLDERS", "OWN_MARK_MIN", "SAMPLE_CARDS", "SAMPLE_DECKS", "SAMPLE_DIR", "SETUP_MIN", "CardSet", "Deck",
    "cardset_key_cached", "check_deck", "check_path", "load_cardset", "load_deck", "load_sample", "sample_character",
    "without_effects", "plain", "ATTACK_RESULTS", "DEFENSE_RESULTS", "KINDS", "POSITIONS", "Card", "Character",
    "ProblemCollector", "hand_limit", "parse_card", "parse_character", "raise_if", "TIMING_EN", "TIMING_KO", "entry_text",
]
