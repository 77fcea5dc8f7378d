"""Deck codes: a deck as a short text (and a QR code) to carry between hubs.

A code holds the set id and the set's content hash, the character, the card ids and,
for the character and each card, a short hash of its definition. A hub reading the code
finds the set by id and compares: the same set hash is the same set; a different one is
still the same deck when every one of its cards (and the character) hashes the same, and
otherwise the hub names the cards that differ instead of playing the wrong card.

Text form: ``LC1.`` + URL-safe base64 of the zlib-compressed JSON (no padding), so it
survives chat apps, QR codes and URLs.
"""

import base64
import json
import zlib

from .errors import LibraryError
from .sets import content_hash

PREFIX = "LC1."
MAX_CODE = 4000


def _card_hashes(raw, ids):
    by_id = {c.get("id"): c for c in raw.get("cards") or []}
    return [content_hash(by_id[c])[:4] if c in by_id else None for c in ids]


def _char_hash(raw, char_id):
    ch = next((c for c in raw.get("characters") or [] if c.get("id") == char_id), None)
    return content_hash(ch)[:4] if ch is not None else None


def encode(library, set_id, deck_id):
    """The code of a saved deck: ``LC1.…``."""
    raw = library.raw(set_id)
    d = library.deck_raw(set_id, deck_id)
    ids = list(d.get("cards") or [])
    ult = d.get("ultimate")
    body = {"v": 1, "s": set_id, "h": library.set_hash(set_id), "n": d.get("name"), "c": d.get("character"),
            "ch": _char_hash(raw, d.get("character")), "d": ids, "dh": _card_hashes(raw, ids),
            "u": ult, "uh": _card_hashes(raw, [ult])[0] if ult else None}
    blob = zlib.compress(json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode("utf-8"), 9)
    return PREFIX + base64.urlsafe_b64encode(blob).decode("ascii").rstrip("=")


def decode(code):
    """The code's content as a dict; LibraryError if it is not a deck code."""
    code = (code or "").strip()
    if not code.startswith(PREFIX) or len(code) > MAX_CODE:
        raise LibraryError("invalid", "not a deck code (it starts with %s)" % PREFIX,
                           "덱 코드가 아닙니다 (%s로 시작합니다)" % PREFIX)
    s = code[len(PREFIX):]
    try:
        body = json.loads(zlib.decompress(base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)), bufsize=MAX_CODE * 4))
    except Exception:
        raise LibraryError("invalid", "the deck code is damaged (copied incompletely?)",
                           "덱 코드가 손상되었습니다 (일부만 복사되었나요?)") from None
    if not isinstance(body, dict) or body.get("v") != 1 or not isinstance(body.get("d"), list):
        raise LibraryError("invalid", "unknown deck code version", "알 수 없는 덱 코드 버전입니다")
    return body


def resolve(library, code):
    """Check a code against this hub's library. Returns {set, deck: {name, character, cards,
    ultimate}, same_set, differs: [...]} ; LibraryError when the set is missing or any of the
    deck's cards differs here (named)."""
    body = decode(code)
    sid = body.get("s")
    if sid not in library.set_ids():
        raise LibraryError("not_found", "this hub has no card set %r: import that set first" % (sid,),
                           "이 허브에 카드 세트 %r이(가) 없습니다: 먼저 세트를 가져오세요" % (sid,))
    raw = library.raw(sid)
    here = library.set_hash(sid)
    differs = []
    if here != body.get("h"):
        ids = list(body["d"]) + ([body["u"]] if body.get("u") else [])
        want = list(body.get("dh") or []) + ([body.get("uh")] if body.get("u") else [])
        for cid, h, got in zip(ids, want, _card_hashes(raw, ids)):
            if got is None:
                differs.append({"card": cid, "why": "missing"})
            elif got != h:
                differs.append({"card": cid, "why": "changed"})
        if _char_hash(raw, body.get("c")) != body.get("ch"):
            differs.append({"card": body.get("c"), "why": "character missing or changed"})
    if differs:
        names = ", ".join("%s (%s)" % (x["card"], x["why"]) for x in differs)
        raise LibraryError("conflict", "this hub has another version of set %r (code %s, here %s); these differ: %s"
                           % (sid, body.get("h"), here, names),
                           "이 허브의 세트 %r은(는) 다른 버전입니다 (코드 %s, 여기 %s). 다른 카드: %s"
                           % (sid, body.get("h"), here, names),
                           [{"card": x["card"], "field": None, "message": x["why"]} for x in differs])
    deck = {"name": body.get("n"), "character": body.get("c"), "cards": list(body["d"]), "ultimate": body.get("u")}
    return {"set": sid, "deck": deck, "same_set": here == body.get("h"), "set_hash": here}


def qr_svg(code, scale=3):
    """The code as an SVG QR code (segno), for the page to show or print."""
    import segno        # imported when a code is first shown, not at every hub start
    return segno.make(code, error="l").svg_inline(scale=scale, dark="#111", light="#fff")
