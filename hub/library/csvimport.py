"""A community spreadsheet of card stats as a card set, in one step (effects added after).

Columns (a header row; English or Korean names; any order; extra columns are refused so
a typo never silently drops a value)::

    id, name, kind, speed, position, damage, results          required-ish (kind decides)
    name_en, number, mark, ultimate, guard, evade, offset, text_ko, text_en      optional

- ``kind``: attack/defense/special or 공격/방어/특수; ``position``: high/mid/low or 상단/중단/하단.
- ``results``: ``key fp[+combo]`` items separated by ``;`` or ``,``, e.g.
  ``hit +1; counter +2 combo; guarded -1`` (keys as in docs/card-format.md, or 히트, 카운터,
  방어됨, 회피됨, 카운터당함, 방어, 회피, 상쇄, 히트당함; ``콤보`` for combo).
- ``guard``/``evade``/``offset`` (defenses; 방어/회피/상쇄): positions separated by spaces or ``/``.

Every problem is reported as ``row N, column: message`` (``message`` in English,
``message_ko`` in Korean: the card page shows the page's language) and nothing is
imported then.
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
           "영문이름": "name_en", "kind": "kind", "종류": "kind", "speed": "speed", "속도": "speed", "position": "position",
           "위치": "position", "damage": "damage", "데미지": "damage", "results": "results", "결과": "results",
           "판정 결과": "results", "number": "number", "번호": "number", "카드 번호": "number", "mark": "mark", "마크": "mark",
           "ultimate": "ultimate", "얼티밋": "ultimate", "guard": "guard", "방어": "guard", "evade": "evade", "회피": "evade",
           "offset": "offset", "상쇄": "offset", "text_ko": "text_ko", "text_en": "text_en", "텍스트": "text_ko",
           "영문 텍스트": "text_en"}
COLUMN_KO = {"id": "id", "name": "이름", "name_en": "영문 이름", "kind": "종류", "speed": "속도", "position": "위치",
             "damage": "데미지", "results": "결과", "number": "번호", "mark": "마크", "ultimate": "얼티밋", "guard": "방어",
             "evade": "회피", "offset": "상쇄", "text_ko": "텍스트", "text_en": "영문 텍스트"}
ATTACK_RESULTS = ("hit", "counter", "guarded", "evaded", "countered")
DEFENSE_RESULTS = ("guard", "evade", "offset", "was_hit")
_ITEM = re.compile(r"^(?P<key>[^\s+\-\d]+)\s*(?P<fp>[+\-]?\d+)?\s*(?P<combo>combo|콤보)?$", re.I)


class CsvError(Exception):
    def __init__(self, problems):
        super().__init__("; ".join(p["message"] for p in problems))
        self.problems = problems


class _Bad(ValueError):
    """A cell that does not read: the message in English and in Korean."""

    def __init__(self, en, ko):
        super().__init__(en)
        self.en, self.ko = en, ko


def _positions(text):
    out = []
    for p in re.split(r"[\s/·,]+", text.strip()):
        if p:
            if p.lower() not in POSITION and p not in POSITION:
                raise _Bad("unknown position %r (high, mid, low / 상단, 중단, 하단)" % p,
                           "모르는 위치 %r (상단, 중단, 하단 / high, mid, low)" % p)
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
            raise _Bad("cannot read result %r: write it like 'hit +1' or 'counter +2 combo'" % item,
                       "결과 %r을(를) 읽을 수 없습니다: '히트 +1', '카운터 +2 콤보'처럼 쓰세요" % item)
        if key not in allowed:
            raise _Bad("result %r is not for this kind (allowed: %s)" % (key, ", ".join(allowed)),
                       "결과 %r은(는) 이 종류의 카드에 없습니다 (가능: %s)" % (key, ", ".join(allowed)))
        r = {"fp": int(m.group("fp") or 0)}
        if m.group("combo"):
            r["combo"] = True
        out[key] = r
    return out


def _int(text, what, minimum=None):
    try:
        v = int(text.strip())
    except ValueError:
        raise _Bad("%s must be a whole number (got %r)" % (what, text),
                   "%s은(는) 정수여야 합니다 (입력: %r)" % (COLUMN_KO.get(what, what), text)) from None
    if minimum is not None and v < minimum:
        raise _Bad("%s must be %d or more" % (what, minimum), "%s은(는) %d 이상이어야 합니다" % (COLUMN_KO.get(what, what), minimum))
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
        raise CsvError([{"row": None, "column": None, "message": "the file is empty", "message_ko": "파일이 비어 있습니다"}])
    header = [h.strip() for h in rows[0]]
    cols = []
    for h in header:
        key = COLUMNS.get(h) or COLUMNS.get(h.lower())
        if key is None:
            problems.append({"row": 1, "column": h, "message": "unknown column %r (known: %s)"
                             % (h, ", ".join(sorted(set(COLUMNS.values())))),
                             "message_ko": "모르는 열 %r (쓸 수 있는 열: %s)" % (h, ", ".join(COLUMN_KO.values()))})
        cols.append(key)
    for need in ("id", "kind"):
        if need not in cols:
            problems.append({"row": 1, "column": need, "message": "a column %r is needed" % need,
                             "message_ko": "%r 열이 필요합니다" % COLUMN_KO[need]})
    if problems:
        raise CsvError(problems)
    cards, seen = [], {}
    for n, row in enumerate(rows[1:], start=2):
        if not any(cell.strip() for cell in row):
            continue
        if len(row) > len(cols):
            problems.append({"row": n, "column": None, "message": "%d cells, the header has %d" % (len(row), len(cols)),
                             "message_ko": "칸이 %d개인데 머리글은 %d개입니다" % (len(row), len(cols))})
            continue
        cells = {k: row[i].strip() for i, k in enumerate(cols) if i < len(row) and row[i].strip() != ""}
        card = {}

        def bad(col, msg, ko):
            problems.append({"row": n, "column": col, "message": msg, "message_ko": ko})
        cid = cells.get("id")
        if not cid:
            bad("id", "every row needs an id", "모든 줄에 id가 필요합니다")
            continue
        if cid in seen:
            bad("id", "id %r is also on row %d" % (cid, seen[cid]), "id %r은(는) %d번째 줄에도 있습니다" % (cid, seen[cid]))
        seen[cid] = n
        card["id"] = cid
        kind = KIND.get(cells.get("kind", "").lower()) or KIND.get(cells.get("kind", ""))
        if kind is None:
            bad("kind", "kind must be attack, defense or special (공격, 방어, 특수), got %r" % cells.get("kind"),
                "종류는 공격, 방어(수비), 특수 중 하나여야 합니다 (입력: %r)" % cells.get("kind"))
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
            except _Bad as e:
                bad(col, e.en, e.ko)
                return None
        if kind == "attack":
            if "speed" not in cells:
                bad("speed", "an attack needs a speed", "공격에는 속도가 필요합니다")
            else:
                card["speed"] = read("speed", _int, cells["speed"], "speed")
            pos = cells.get("position", "")
            if pos.lower() not in POSITION and pos not in POSITION:
                bad("position", "position must be high, mid or low (상단, 중단, 하단), got %r" % pos,
                    "위치는 상단, 중단, 하단 중 하나여야 합니다 (입력: %r)" % pos)
            else:
                card["position"] = POSITION.get(pos.lower(), POSITION.get(pos))
            card["damage"] = read("damage", _int, cells.get("damage", "0"), "damage", 0)
        for j in ("guard", "evade", "offset"):
            if j in cells:
                if kind != "defense":
                    bad(j, "%s is a defense's judgment (an attack's special judgments are added in the editor)" % j,
                        "%s은(는) 수비 카드의 판정입니다 (공격의 특수 판정은 편집기에서 추가합니다)" % COLUMN_KO[j])
                else:
                    card[j] = read(j, _positions, cells[j])
        for k in ("speed", "position", "damage"):
            if k in cells and kind != "attack":
                bad(k, "only an attack has a %s" % k, "%s은(는) 공격 카드에만 있습니다" % COLUMN_KO[k])
        if "results" in cells:
            if kind == "special":
                bad("results", "a special has no judgment-result area", "특수 기술에는 판정 결과가 없습니다")
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
