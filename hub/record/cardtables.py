"""The record's card tables (issue 16; 28.5): the cards of a referee game, stored once by
content and named by their SHA-256 in the game's start record. A mixin of
:class:`hub.record.store.Store` (it uses the store's ``db``, ``_tx`` and ``_card_tables``).

A table's text is checked against its name when it is read: a damaged byte is reported
as damage (``DamagedRecord``), never read as other cards. ``card_tables`` is append-only, so
a table found damaged is stored again in ``card_table_copies`` by the next game that saves
the same cards; a reader takes the first copy that hashes right.
"""

import hashlib
import json
import sqlite3
import time

from hub.record.errors import DamagedRecord, StoreError
from hub.record.jsontext import table_text


#: ids of a game's Card objects -> (those objects, their card table's hash, its JSON text): see put_cards
_TABLES_OF: dict[tuple, tuple] = {}


def hashes_to(body, digest):
    """Whether a stored text (read as bytes, or as text) is the card table named ``digest``."""
    try:
        if isinstance(body, str):
            body = body.encode()
        return isinstance(body, bytes) and hashlib.sha256(body).hexdigest() == digest
    except UnicodeEncodeError:        # a damaged cell read back with lone surrogates
        return False


class CardTables:
    def put_card_table(self, cards):
        """Store a card table (a JSON list of card definitions) unless the same one is
        stored already; returns its content hash, which a start record names. The hash is of
        the json module's text (``table_text``), as it always was: a table's hash never moves."""
        body = table_text(cards)
        return self._put_table(hashlib.sha256(body.encode()).hexdigest(), body)

    def _put_table(self, digest, body):
        if digest in self._card_tables:
            return digest
        # a write only when it is new: a game start costs no extra transaction once the table is
        # in, and a sound copy is in (checked once per store: one read and hash of ~24 KB)
        bodies = self._table_bodies(digest)
        if not bodies:
            with self._tx():
                self.db.execute("INSERT OR IGNORE INTO card_tables (hash, body, created_ms) VALUES (?, ?, ?)",
                                (digest, body, int(time.time() * 1000)))
        elif not any(hashes_to(b, digest) for b in bodies):
            # every stored copy is damaged (issue 28.5): these same cards, saved again, repair it
            with self._tx():
                self.db.execute("INSERT INTO card_table_copies (hash, seq, body, created_ms) VALUES (?, ?, ?, ?)",
                                (digest, len(bodies), body, int(time.time() * 1000)))
        self._card_tables[digest] = None      # stored; parsed on first read
        return digest

    def _table_bodies(self, digest):
        """Every stored text of the card table ``digest`` as bytes: its first copy, then any
        rewritten. Read as bytes (issue 39): a damaged byte that is no longer UTF-8 is a copy
        that does not hash to its name, like any other damage, not an error that stops the
        hub's start (SQLite's text read as ``str`` raised "Could not decode to UTF-8")."""
        out = [b for (b,) in self.db.execute("SELECT CAST(body AS BLOB) FROM card_tables WHERE hash = ?", (digest,))]
        try:
            out += [b for (b,) in self.db.execute("SELECT CAST(body AS BLOB) FROM card_table_copies WHERE hash = ? "
                                                  "ORDER BY seq", (digest,))]
        except sqlite3.OperationalError:      # a reader of a record from before migration 2
            pass
        return out

    def damaged_card_tables(self):
        """Hashes of the card tables none of whose stored copies hashes to its name."""
        bad = []
        for (raw,) in self.db.execute("SELECT CAST(hash AS BLOB) FROM card_tables ORDER BY created_ms, hash").fetchall():
            digest = raw.decode("ascii", "replace") if isinstance(raw, bytes) else str(raw)
            if not any(hashes_to(b, digest) for b in self._table_bodies(digest)):
                bad.append(digest)
        return bad

    def put_cards(self, cards):
        """``put_card_table`` for Card objects (a game's ``cards.values()``). Cards are immutable
        and a card set is parsed once per file version (engine/cards/decks.py), so the same objects
        come back game after game: their table's text and hash are kept by the objects (held
        in ``_TABLES_OF``, so their ids stay theirs) and the next game costs no serialization
        (the ~24 KB table serialized and hashed was ~5 M instructions)."""
        cards = list(cards)
        key = tuple(map(id, cards))
        hit = _TABLES_OF.get(key)
        if hit is None:
            body = table_text([c.to_json() for c in cards])
            if len(_TABLES_OF) >= 8:        # a few card sets in play at once: keep it small
                _TABLES_OF.clear()
            hit = _TABLES_OF[key] = (cards, hashlib.sha256(body.encode()).hexdigest(), body)
        return self._put_table(hit[1], hit[2])

    def card_table(self, digest):
        """The card table stored under ``digest`` (a JSON list). Its text is checked against
        its name (the SHA-256 it is stored under): a damaged byte is reported as damage, never
        read as other cards (issue 28.5); the next game saving the same cards rewrites it."""
        cards = self._card_tables.get(digest)
        if cards is None:
            try:
                bodies = self._table_bodies(digest)
            except (sqlite3.DatabaseError, UnicodeDecodeError) as e:
                raise DamagedRecord("card table %s can't be read: %s" % (digest[:12], e)) from None
            if not bodies:
                raise StoreError("no card table %r in this record" % (digest,))
            sound = next((b for b in bodies if hashes_to(b, digest)), None)
            if sound is None:
                raise DamagedRecord("card table %s is damaged (its text no longer hashes to its name): the games "
                                    "played with it resume once a game with the same cards is started, or run "
                                    "lumen doctor --salvage" % digest[:12])
            try:
                cards = json.loads(sound)
            except ValueError:          # a copy that hashes right parses: a hash collision is no concern
                raise DamagedRecord("card table %s can't be read" % digest[:12]) from None
            self._card_tables[digest] = cards
        return cards
