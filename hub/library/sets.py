"""The card library: card-set folders of YAML on the hub, listed, searched and edited.

Layout (one folder per set, the files exactly as docs/card-format.md describes)::

    <library>/<set id>/cards.yaml          # set:, characters:, cards:
    <library>/<set id>/decks/<deck>.yaml   # deck:, with cardset: ../cards.yaml

The bundled sample set (engine/data/sample) is listed too, read-only, and stays marked as
a sample. Every write is checked the way ``lumen cards check`` checks: the new file is
written beside the old one, loaded with the engine's own loader, and only then moved into
place (an atomic rename), so a refused edit changes nothing on disk and a crash mid-write
leaves the old file.
"""

import copy
import hashlib
import json
import os
import re
import tempfile

from engine.cards import cardyaml
from engine.cards import ProblemCollector, parse_card, parse_character
from engine.cards import SAMPLE_DIR, cardset_key_cached, check_deck, load_cardset, load_deck
from engine.cards import plain
from engine import Problem
from engine import load_yaml, load_yaml_text

from . import problems_ko
from .errors import LibraryError

SET_FILE = "cards.yaml"
DECKS = "decks"
SAMPLE_ID = "sample"
ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_\-]{0,47}$")
DEFAULT_ROOT = os.environ.get("LUMEN_CARDS", os.path.join(os.path.expanduser("~"), ".local", "share", "lumen", "cards"))


def _token_names(entries, path):
    """(field, token name) of every ``token`` effect in a list of effect entries, nested ones too."""
    if not isinstance(entries, list):
        return
    for i, e in enumerate(entries):
        if not isinstance(e, dict):
            continue
        here = "%s[%d]" % (path, i)
        if e.get("do") == "token":
            yield here + ".name", e.get("name")
        for key, v in e.items():
            if isinstance(v, list):
                yield from _token_names(v, here + "." + key)
            elif isinstance(v, dict) and key != "if":
                for opt, sub in v.items():
                    yield from _token_names(sub, "%s.%s.%s" % (here, key, opt))


def problem_json(p):
    """A checker problem as JSON, with its message in Korean too where the form is known."""
    out = {"file": os.path.basename(p.file) if p.file else None, "line": p.line, "card": p.card,
           "field": p.field, "message": p.message}
    k = problems_ko.ko(p.message)
    if k:
        out["message_ko"] = k
    return out


def _problem(message, field, card=None):
    return problem_json(Problem(message, None, None, card, field))


def content_hash(value):
    """A short hash of plain data, independent of key order and of YAML layout."""
    blob = json.dumps(plain(value), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:12]


def _write_atomic(path, text, check=None):
    """Write ``text`` to ``path`` through a temporary file in the same folder; ``check(tmp)``
    returns problems, and any problem leaves ``path`` untouched."""
    folder = os.path.dirname(path)
    os.makedirs(folder, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".edit-", suffix=".yaml", dir=folder)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        problems = check(tmp) if check else []
        if problems:
            return problems
        os.replace(tmp, path)
        tmp = None
        return []
    finally:
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)


class CardLibrary:
    """Card sets under ``root`` (writable) plus the bundled sample set (read-only)."""

    def __init__(self, root=DEFAULT_ROOT, include_sample=True):
        self.root = root
        self.include_sample = include_sample
        self._cache = {}      # (what, path) -> (file stamp, value): lint as you type re-reads nothing

    def _cached(self, what, path, fn):
        """``fn()`` once per version of the file at ``path`` (its inode, mtime and size: a save
        renames a new file into place, an edit outside the hub changes mtime or size)."""
        st = os.stat(path)
        stamp = (st.st_ino, st.st_mtime_ns, st.st_size)
        hit = self._cache.get((what, path))
        if hit is not None and hit[0] == stamp:
            return hit[1]
        value = fn()
        self._cache[(what, path)] = (stamp, value)
        return value

    # ------------------------------------------------------------ sets
    def set_dir(self, set_id):
        if set_id == SAMPLE_ID and self.include_sample:
            return SAMPLE_DIR
        if not isinstance(set_id, str) or not ID_PATTERN.match(set_id):
            raise LibraryError("invalid", "a set id is 1-48 of a-z 0-9 _ - (got %r)" % (set_id,),
                               "세트 id는 a-z 0-9 _ - 로 1-48자입니다 (%r)" % (set_id,))
        return os.path.join(self.root, set_id)

    def set_ids(self):
        ids = [SAMPLE_ID] if self.include_sample else []
        if os.path.isdir(self.root):
            for n in sorted(os.listdir(self.root)):
                if n != SAMPLE_ID and ID_PATTERN.match(n) and os.path.isfile(os.path.join(self.root, n, SET_FILE)):
                    ids.append(n)
        return ids

    def writable(self, set_id):
        return not (set_id == SAMPLE_ID and self.include_sample)

    def _set_path(self, set_id):
        path = os.path.join(self.set_dir(set_id), SET_FILE)
        if not os.path.isfile(path):
            raise LibraryError("not_found", "no card set %r (sets: %s)" % (set_id, ", ".join(self.set_ids())),
                               "카드 세트 %r이(가) 없습니다 (세트: %s)" % (set_id, ", ".join(self.set_ids())))
        return path

    def raw(self, set_id):
        """The set file as plain data (what the editor edits; a copy the caller may change)."""
        return copy.deepcopy(self.view(set_id))

    def view(self, set_id):
        """The set file as plain data, shared: read it, never change it (no copy: a 4,000-card
        set deep-copied for every search or export was seconds of a Pi's time, issue 28.10)."""
        path = self._set_path(set_id)
        return self._cached("raw", path, lambda: plain(load_yaml(path)))

    def set_json(self, set_id):
        """``GET /api/cards/sets/{id}``'s body as JSON bytes, once per version of the file."""
        path = self._set_path(set_id)

        def build():
            raw = self.view(set_id)
            return json.dumps({"id": set_id, "writable": self.writable(set_id), "hash": self.set_hash(set_id),
                               "set": raw.get("set") or {}, "characters": raw.get("characters") or [],
                               "cards": raw.get("cards") or []}, ensure_ascii=False).encode()
        return self._cached("json", path, build)

    def load(self, set_id):
        """The engine's CardSet (or None) and the checker's problems."""
        path = self._set_path(set_id)
        return self._cached("load", path, lambda: load_cardset(path))

    def _index(self, set_id):
        """(character marks, card ids) of a set, for linting one card against it."""
        path = self._set_path(set_id)

        def build():
            raw = self.view(set_id)
            return ({c.get("mark") or c.get("id") for c in raw.get("characters") or []},
                    {c.get("id") for c in raw.get("cards") or [] if isinstance(c, dict) and isinstance(c.get("id"), str)})
        return self._cached("index", path, build)

    def cardset(self, set_id):
        cs, problems = self.load(set_id)
        if cs is None:
            raise LibraryError("invalid", "card set %r has problems" % set_id, "카드 세트 %r에 문제가 있습니다" % set_id,
                               [problem_json(p) for p in problems])
        return cs

    def set_hash(self, set_id):
        path = self._set_path(set_id)

        def build():
            data = self.view(set_id)
            return content_hash({k: data.get(k) for k in ("set", "characters", "cards")})
        return self._cached("hash", path, build)

    def sets(self):
        out = []
        for sid in self.set_ids():
            try:
                data = self.view(sid)
                _, problems = self.load(sid)
            except Exception as e:        # an unreadable file is listed with its problem, not hidden
                out.append({"id": sid, "problems": [{"message": str(e)}], "writable": self.writable(sid)})
                continue
            info = data.get("set") or {}
            out.append({"id": sid, "name": info.get("name") or sid, "name_en": info.get("name_en"),
                        "sample": bool(info.get("sample")), "writable": self.writable(sid),
                        "cards": len(data.get("cards") or []),
                        "characters": [{"id": c.get("id"), "name": c.get("name"), "name_en": c.get("name_en"),
                                        "mark": c.get("mark") or c.get("id")} for c in data.get("characters") or []],
                        "hash": self.set_hash(sid), "decks": self.deck_ids(sid),
                        "problems": [problem_json(p) for p in problems]})
        return out

    def create_set(self, set_id, name, name_en=None, characters=()):
        if set_id in self.set_ids():
            raise LibraryError("conflict", "card set %r already exists" % set_id, "카드 세트 %r이(가) 이미 있습니다" % set_id)
        data = {"set": {"id": set_id, "name": name}, "characters": list(characters), "cards": []}
        if name_en:
            data["set"]["name_en"] = name_en
        self._write_set(set_id, data, new=True)
        return data

    def import_set(self, text, set_id=None):
        """A whole card-set file (YAML or JSON text) as a new set. Its ``set.id`` names the
        folder unless ``set_id`` is given."""
        try:
            # the engine's loader: its node limit refuses an alias bomb (issue 28.10)
            data = plain(load_yaml_text(text))
        except Exception as e:
            raise LibraryError("invalid", "not valid YAML: %s" % e, "올바른 YAML이 아닙니다: %s" % e) from None
        if not isinstance(data, dict) or "cards" not in data:
            raise LibraryError("invalid", "a card set file needs set:, characters: and cards:",
                               "카드 세트 파일에는 set:, characters:, cards:가 있어야 합니다")
        info = data.setdefault("set", {}) or {}
        sid = set_id or info.get("id")
        if sid == SAMPLE_ID or sid in self.set_ids():
            raise LibraryError("conflict", "card set %r already exists: import it under another id" % (sid,),
                               "카드 세트 %r이(가) 이미 있습니다: 다른 id로 가져오세요" % (sid,))
        self.set_dir(sid)
        info["id"] = sid
        self._write_set(sid, data, new=True)
        return sid

    def export_set(self, set_id):
        """The set as one YAML file (the writer's layout), written once per version of the file."""
        path = self._set_path(set_id)
        return self._cached("export", path, lambda: cardyaml.dump_set(self.view(set_id)))

    def _write_set(self, set_id, data, new=False):
        if not self.writable(set_id):
            raise LibraryError("read_only", "the sample set is read-only: import a copy to edit it",
                               "샘플 세트는 읽기 전용입니다: 복사본을 가져와 편집하세요")
        path = os.path.join(self.set_dir(set_id), SET_FILE)
        if new and os.path.exists(path):
            raise LibraryError("conflict", "card set %r already exists" % set_id, "카드 세트 %r이(가) 이미 있습니다" % set_id)

        def check(tmp):
            return load_cardset(tmp)[1]
        problems = _write_atomic(path, cardyaml.dump_set(data), check)
        cardset_key_cached.cache_clear()    # decks read the set through a cache keyed on mtime: a coarse clock
        if problems:
            if new and not os.listdir(os.path.dirname(path)):
                os.rmdir(os.path.dirname(path))
            raise LibraryError("invalid", "the card set would not pass `lumen cards check`; nothing was saved",
                               "`lumen cards check`를 통과하지 못해 저장하지 않았습니다",
                               [dict(problem_json(p), file=SET_FILE) for p in problems])

    # ------------------------------------------------------------ cards
    def card(self, set_id, card_id):
        for c in self.view(set_id).get("cards") or []:
            if c.get("id") == card_id:
                return copy.deepcopy(c)
        raise LibraryError("not_found", "no card %r in set %r" % (card_id, set_id),
                           "세트 %r에 카드 %r이(가) 없습니다" % (set_id, card_id))

    def lint_card(self, set_id, data, replaces=None):
        """The checker's problems for one card as it would be saved in ``set_id`` (as you type)."""
        _, problems = parse_card(data)
        out = [problem_json(p) for p in problems]
        if not isinstance(data, dict):
            return out
        marks, ids = self._index(set_id) if set_id is not None else (set(), set())
        mark = data.get("mark") or "neutral"
        if isinstance(mark, str) and mark != "neutral" and mark not in marks:
            out.append(_problem("mark %r is neither neutral nor a character's mark in this set (%s)"
                                % (mark, ", ".join(sorted(m for m in marks if m)) or "no characters"), "mark", data.get("id")))
        cid = data.get("id")
        if isinstance(cid, str) and cid != replaces and cid in ids:
            out.append(_problem("duplicate card id %r: another card of this set has it" % cid, "id", cid))
        if data.get("kind") == "defense" and not any(data.get(j) for j in ("guard", "evade", "offset")):
            # it could only ever be hit (guide 3.6.3): a slip of the form, not a card
            out.append(_problem("a defense that guards, evades and offsets nothing is always hit (guide 3.6.3): "
                                "give it a guard, evade or offset position", "guard", cid))
        if set_id is not None and isinstance(mark, str):        # (a malformed mark is the checker's problem)
            known = self._tokens(set_id)
            mine = known.get(mark) if mark != "neutral" else set().union(*known.values()) if known else set()
            for field, name in _token_names(data.get("effects"), "effects"):
                if isinstance(name, str) and name and name not in (mine or set()):
                    out.append(_problem("token %r is not a counter of %s (its tokens: %s)"
                                        % (name, "the card's character" if mark != "neutral" else "any character of this set",
                                           ", ".join(sorted(mine or ())) or "none"), field, cid))
        return out

    def _tokens(self, set_id):
        """mark -> the token ids of that character (a token effect must name one of them)."""
        path = self._set_path(set_id)

        def build():
            raw = self._cached("raw", path, lambda: plain(load_yaml(path)))
            out = {}
            for c in raw.get("characters") or []:
                key = c.get("mark") or c.get("id") if isinstance(c, dict) else None
                tokens = c.get("tokens") if isinstance(c, dict) else None
                if isinstance(key, str):
                    out[key] = {t.get("id") for t in tokens if isinstance(t, dict) and isinstance(t.get("id"), str)} \
                        if isinstance(tokens, list) else set()
            return out
        return self._cached("tokens", path, build)

    def save_card(self, set_id, data, replaces=None):
        """Add a card, or replace card ``replaces`` (which may change its id). Returns the
        deck problems the change caused elsewhere (the card is saved; the decks are listed)."""
        return self._save_entry(set_id, "cards", data, replaces, "card", "카드")

    def _save_entry(self, set_id, key, data, replaces, what_en, what_ko):
        """Append ``data`` to the set's ``key`` list, or put it in place of entry ``replaces``."""
        raw = self.raw(set_id)
        entries = list(raw.get(key) or [])
        at = next((i for i, c in enumerate(entries) if c.get("id") == replaces), None) if replaces else None
        if replaces and at is None:
            raise LibraryError("not_found", "no %s %r in set %r" % (what_en, replaces, set_id),
                               "세트 %r에 %s %r이(가) 없습니다" % (set_id, what_ko, replaces))
        if at is None:
            entries.append(data)
        else:
            entries[at] = data
        raw[key] = entries
        self._write_set(set_id, raw)
        return self.deck_problems(set_id)

    def delete_card(self, set_id, card_id):
        raw = self.raw(set_id)
        cards = [c for c in raw.get("cards") or [] if c.get("id") != card_id]
        if len(cards) == len(raw.get("cards") or []):
            raise LibraryError("not_found", "no card %r in set %r" % (card_id, set_id),
                               "세트 %r에 카드 %r이(가) 없습니다" % (set_id, card_id))
        raw["cards"] = cards
        self._write_set(set_id, raw)
        return self.deck_problems(set_id)

    def replace_cards(self, set_id, cards):
        """Add or replace many cards at once (a CSV import): all or nothing."""
        raw = self.raw(set_id)
        by_id = {c.get("id"): i for i, c in enumerate(raw.get("cards") or [])}
        merged = list(raw.get("cards") or [])
        for c in cards:
            i = by_id.get(c.get("id"))
            if i is None:
                by_id[c.get("id")] = len(merged)
                merged.append(c)
            else:
                merged[i] = dict(merged[i], **c)     # stats from the sheet, effects and text kept
        raw["cards"] = merged
        self._write_set(set_id, raw)
        return self.deck_problems(set_id)

    # ------------------------------------------------------------ characters
    def lint_character(self, set_id, data, replaces=None):
        """The checker's problems for one character (fields relative to it: ``health``,
        ``trait.effects[0].amount``)."""
        _, problems = parse_character(data, where="character")
        out = []
        for p in problems:
            j = problem_json(p)
            if j["field"] and j["field"].startswith("character."):
                j["field"] = j["field"][len("character."):]
            out.append(j)
        if isinstance(data, dict) and set_id is not None:
            cid = data.get("id")
            if not cid:
                out.append(_problem("a character needs an id", "id"))
            elif cid != replaces and any(c.get("id") == cid for c in self.view(set_id).get("characters") or []):
                out.append(_problem("duplicate character id %r: another character of this set has it" % cid, "id"))
        return out

    def save_character(self, set_id, data, replaces=None):
        """Add a character, or replace character ``replaces``."""
        return self._save_entry(set_id, "characters", data, replaces, "character", "캐릭터")

    def search(self, q=None, set_id=None, mark=None, kind=None, speed=None, position=None):
        """Card summaries matching every filter given: ``q`` in the name, English name, id or
        number (any case); ``speed`` an int or "lo-hi"."""
        lo = hi = None
        if speed not in (None, ""):
            s = str(speed)
            a, _, b = s.partition("-")
            try:
                lo = int(a)
                hi = int(b) if b else lo
            except ValueError:
                raise LibraryError("invalid", "speed is a number or a range like 4-6 (got %r)" % s,
                                   "속도는 숫자나 4-6 같은 범위입니다 (%r)" % s) from None
        needle = (q or "").strip().lower()
        out = []
        for sid in ([set_id] if set_id else self.set_ids()):
            try:
                cards = self.view(sid).get("cards") or []
            except Exception:
                continue
            for c in cards:
                if not isinstance(c, dict):
                    continue
                if needle and not any(needle in str(c.get(k) or "").lower() for k in ("name", "name_en", "id", "number")):
                    continue
                if mark and (c.get("mark") or "neutral") != mark:
                    continue
                if kind and c.get("kind") != kind:
                    continue
                if position and c.get("position") != position:
                    continue
                if lo is not None and not (isinstance(c.get("speed"), int) and lo <= c["speed"] <= hi):
                    continue
                out.append(summary(sid, c))
        return out

    # ------------------------------------------------------------ decks
    def deck_ids(self, set_id):
        d = os.path.join(self.set_dir(set_id), DECKS)
        if not os.path.isdir(d):
            return []
        return sorted(n[:-5] for n in os.listdir(d) if n.endswith(".yaml") and ID_PATTERN.match(n[:-5]))

    def deck_path(self, set_id, deck_id):
        if not isinstance(deck_id, str) or not ID_PATTERN.match(deck_id):
            raise LibraryError("invalid", "a deck id is 1-48 of a-z 0-9 _ - (got %r)" % (deck_id,),
                               "덱 id는 a-z 0-9 _ - 로 1-48자입니다 (%r)" % (deck_id,))
        return os.path.join(self.set_dir(set_id), DECKS, deck_id + ".yaml")

    def deck_raw(self, set_id, deck_id):
        path = self.deck_path(set_id, deck_id)
        if not os.path.isfile(path):
            raise LibraryError("not_found", "no deck %r in set %r (decks: %s)" % (deck_id, set_id, ", ".join(self.deck_ids(set_id))),
                               "세트 %r에 덱 %r이(가) 없습니다" % (set_id, deck_id))
        return plain(load_yaml(path))["deck"]

    def deck(self, set_id, deck_id):
        """The engine's Deck, checked (guide 4.5), ready for a table."""
        self.deck_raw(set_id, deck_id)
        deck, problems = load_deck(self.deck_path(set_id, deck_id))
        if deck is None:
            raise LibraryError("invalid", "deck %s/%s does not pass the deck-building checks" % (set_id, deck_id),
                               "덱 %s/%s이(가) 덱 구성 검사를 통과하지 못합니다" % (set_id, deck_id),
                               [problem_json(p) for p in problems])
        return deck

    def decks(self):
        """Every deck of every set, with whether it passes the checks (the table's list)."""
        out = []
        for sid in self.set_ids():
            for did in self.deck_ids(sid):
                try:
                    d = self.deck_raw(sid, did)
                except Exception as e:
                    out.append({"set": sid, "id": did, "ok": False, "problems": [{"message": str(e)}]})
                    continue
                _, problems = load_deck(self.deck_path(sid, did))
                out.append({"set": sid, "id": did, "key": "%s/%s" % (sid, did), "name": d.get("name") or did,
                            "name_en": d.get("name_en"), "character": d.get("character"),
                            "ok": not problems, "problems": [problem_json(p) for p in problems]})
        return out

    def save_deck(self, set_id, deck_id, deck):
        """Write a deck (name, character, cards, ultimate) after the deck-building checks."""
        if not self.writable(set_id):
            raise LibraryError("read_only", "the sample set is read-only: build the deck in your own set",
                               "샘플 세트는 읽기 전용입니다: 자신의 세트에 덱을 만드세요")
        path = self.deck_path(set_id, deck_id)
        d = {k: deck.get(k) for k in ("name", "name_en", "character", "cards", "ultimate") if deck.get(k) is not None}
        d["cardset"] = "../%s" % SET_FILE
        d.setdefault("ultimate", None)
        problems = _write_atomic(path, cardyaml.dump_deck(d), lambda tmp: load_deck(tmp)[1])
        if problems:
            raise LibraryError("invalid", "the deck does not pass the deck-building checks (guide 4.5); nothing was saved",
                               "덱 구성 검사(가이드 4.5)를 통과하지 못해 저장하지 않았습니다",
                               [problem_json(p) for p in problems])
        return d

    def delete_deck(self, set_id, deck_id):
        if not self.writable(set_id):
            raise LibraryError("read_only", "the sample set is read-only", "샘플 세트는 읽기 전용입니다")
        self.deck_raw(set_id, deck_id)
        os.unlink(self.deck_path(set_id, deck_id))

    def deck_problems(self, set_id):
        """Every deck of the set that no longer passes its checks (after a card changed)."""
        out = []
        for did in self.deck_ids(set_id):
            _, problems = load_deck(self.deck_path(set_id, did))
            if problems:
                out.append({"deck": did, "problems": [problem_json(p) for p in problems]})
        return out

    def check_deck_data(self, set_id, deck):
        """The deck-building problems of an unsaved deck (the builder, live)."""
        cs = self.cardset(set_id)
        ck = ProblemCollector(None)
        check_deck(deck, cs, None, ck)
        return [problem_json(p) for p in ck.problems]


def summary(set_id, c):
    """What the library lists for one card."""
    out = {"set": set_id}
    for k in ("id", "number", "name", "name_en", "kind", "mark", "ultimate", "speed", "position", "damage"):
        if c.get(k) is not None:
            out[k] = c[k]
    out.setdefault("mark", "neutral")
    return out
