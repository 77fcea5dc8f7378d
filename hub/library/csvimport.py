"""A community spreadsheet of card stats as a card set, in one step (effects added after).

Columns (a header row; English or Korean names; any order; extra columns are refused so
a typo never silently drops a value)::

    id, name, kind, speed, position, damage, results          required-ish (kind decides)
    name_en, number, mark, ultimate, guard, evade, offset, text_ko, text_en      optional

- ``kind``: attack/defense/special or 공격/방어/특수; ``position``: high/mid/low or 상단/중단/하단.
- ``results``: ``key fp[+combo]`` items separated by ``;`` or ``,``, e.g.
  ``hit +1; counter +2 combo; guarded -1`` (keys as in docs/card-format.md, or 히트, 카운터,
  방어됨, 회피됨, 카운터당함, 방어, 회피, 상쇄, 히트당함; ``콤보`` for combo).
- ``guard``/``evade``/``offset`` (defenses): positions separated by spaces or ``/``.

Every problem is reported as ``row N, column: message`` and nothing is imported then.
"""

import csv
import io
import re

KIND = {"attack": "attack", "defense": "defense", "special": "special", "공격": "attack", "방어": "defense",
        "수비": "defense", "특수": "special"}
POSITION = {"high": "high", "mid": "mid", "low": "low", "상단": "high", "중단": "mid", "하단": "low"}
RESULT_KEY = {"hit": "hit", "counter": "counter", "guarded": "guarded", "evaded": "evaded", "countered": "countered",
              "guard": "guard", "evade": "evade", "offset": "offset", "was_hit": "was_hit",
              "히트": "hit", "카운터": "counter", "방어됨": "guarded", "회피됨": "evaded", "카운터당함": "countered",
              "방어": "guard", "회피": "evade", "상쇄": "offset", "히트당함": "was_hit"}
COLUMNS = {"id": "id", "아이디": "id", "name": "name", "이름": "name", "name_en": "name_en", "영문 이름": "name_en",
           "kind": "kind", "종류": "kind", "speed": "speed", "속도": "speed", "position": "position", "위치": "position",
           "damage": "damage", "데미지": "damage", "results": "results", "결과": "results", "number": "number",
           "번호": "number", "mark": "mark", "마크": "mark", "ultimate": "ultimate", "얼티밋": "ultimate",
           "guard": "guard", "evade": "evade", "offset": "offset", "text_ko": "text_ko", "text_en": "text_en",
           "텍스트": "text_ko"}
ATTACK_RESULTS = ("hit", "counter", "guarded", "evaded", "countered")
DEFENSE_RESULTS = ("guard", "evade", "offset", "was_hit")
_ITEM = re.compile(r"^(?P<key>[^\s+\-\d]+)\s*(?P<fp>[+\-]?\d+)?\s*(?P<combo>combo|콤보)?$", re.I)


class CsvError(Exception):
    def __init__(self, problems):
        super().__init__("; ".join(p["message"] for p in problems))
        self.problems = problems


def _positions(text):
    out = []
    for p in re.split(r"[\s/·,]+", text.strip()):
        if p:
            if p.lower() not in POSITION and p not in POSITION:
                raise ValueError("unknown position %r (high, mid, low / 상단, 중단, 하단)" % p)
            out.append(POSITION.get(p.lower(), POSITION.get(p)))
    return out


def _results(text, allowed):
    out = {}
    for item in re.split(r"[;,]", text):
        item = item.strip()
        if not item:
            continue
        m = _ITEM.match(item)
        key = RESULT_KEY.get(m.group("key").lower()) if m else None
        if key is None:
            raise ValueError("cannot read result %r: write it like 'hit +1' or 'counter +2 combo'" % item)
        if key not in allowed:
            raise ValueError("result %r is not for this kind (allowed: %s)" % (key, ", ".join(allowed)))
        r = {"fp": int(m.group("fp") or 0)}
        if m.group("combo"):
            r["combo"] = True
        out[key] = r
    return out


def _int(text, what, minimum=None):
    try:
        v = int(text.strip())
    except ValueError:
        raise ValueError("%s must be a whole number (got %r)" % (what, text)) from None
    if minimum is not None and v < minimum:
        raise ValueError("%s must be %d or more" % (what, minimum))
    return v


def read_csv(text):
    """Card mappings from CSV text. Raises CsvError listing every problem (row and column)."""
    if text.startswith("\ufeff"):      # a spreadsheet's UTF-8 byte-order mark
        text = text[1:]
    sample = text[:2048]
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    rows = list(csv.reader(io.StringIO(text), dialect))
    problems = []
    if not rows:
        raise CsvError([{"row": None, "column": None, "message": "the file is empty"}])
    header = [h.strip() for h in rows[0]]
    cols = []
    for h in header:
        key = COLUMNS.get(h) or COLUMNS.get(h.lower())
        if key is None:
            problems.append({"row": 1, "column": h, "message": "unknown column %r (known: %s)"
                             % (h, ", ".join(sorted(set(COLUMNS.values()))))})
        cols.append(key)
    for need in ("id", "kind"):
        if need not in cols:
            problems.append({"row": 1, "column": need, "message": "a column %r is needed" % need})
    if problems:
        raise CsvError(problems)
    cards, seen = [], {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(cols):
            problems.append({"row": n, "column": None, "message": "%d cells, the header has %d" % (len(row), len(cols))})
            continue
        cells = {k: row[i].strip() for i, k in enumerate(cols) if i < len(row) and row[i].strip() != ""}
        card = {}

        def bad(col, msg):
            problems.append({"row": n, "column": col, "message": msg})
        cid = cells.get("id")
        if not cid:
            bad("id", "every row needs an id")
            continue
        if cid in seen:
            bad("id", "id %r is also on row %d" % (cid, seen[cid]))
        seen[cid] = n
        card["id"] = cid
        kind = KIND.get(cells.get("kind", "").lower()) or KIND.get(cells.get("kind", ""))
        if kind is None:
            bad("kind", "kind must be attack, defense or special (공격, 방어, 특수), got %r" % cells.get("kind"))
            continue
        for k in ("number", "name", "name_en"):
            if k in cells:
                card[k] = cells[k]
        card["kind"] = kind
        card["mark"] = cells.get("mark", "neutral")
        if cells.get("ultimate", "").lower() in ("true", "yes", "1", "y", "o", "예"):
            card["ultimate"] = True
        def read(col, fn, *args):
            try:
                return fn(*args)
            except ValueError as e:
                bad(col, str(e))
                return None
        if kind == "attack":
            if "speed" not in cells:
                bad("speed", "an attack needs a speed")
            else:
                card["speed"] = read("speed", _int, cells["speed"], "speed")
            pos = cells.get("position", "")
            if pos.lower() not in POSITION and pos not in POSITION:
                bad("position", "position must be high, mid or low (상단, 중단, 하단), got %r" % pos)
            else:
                card["position"] = POSITION.get(pos.lower(), POSITION.get(pos))
            card["damage"] = read("damage", _int, cells.get("damage", "0"), "damage", 0)
        for j in ("guard", "evade", "offset"):
            if j in cells:
                if kind != "defense":
                    bad(j, "%s is a defense's judgment (an attack's special judgments are added in the editor)" % j)
                else:
                    card[j] = read(j, _positions, cells[j])
        for k in ("speed", "position", "damage"):
            if k in cells and kind != "attack":
                bad(k, "only an attack has a %s" % k)
        if "results" in cells:
            if kind == "special":
                bad("results", "a special has no judgment-result area")
            else:
                res = read("results", _results, cells["results"], ATTACK_RESULTS if kind == "attack" else DEFENSE_RESULTS)
                if res:
                    card["results"] = res
        text = {k[5:]: cells[k] for k in ("text_ko", "text_en") if k in cells}
        if text:
            card["text"] = text
        cards.append(card)
    if problems:
        raise CsvError(problems)
    return cards
