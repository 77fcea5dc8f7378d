"""The rules index for learners (issue 22 point 10): what each guide section says, in our
own words, Korean and English (hub/web/rules_index.yaml). The display turns a rule badge
("가이드 3.6.2.2", "guide 4.4 step 7") into a button that shows its entry.

Read once and kept: the index is a file of the package, not data anyone edits at a table.
"""

import functools
import re
from pathlib import Path

INDEX = Path(__file__).with_name("rules_index.yaml")
BATTLE_ORDER = "4.4"        # its 18 steps ("guide 4.4 step N", a list under one heading) are 4.4.N in the index
#: "가이드 3.6.2.2", "guide 4.4 step 7", "Guide 3.10": the section (steps of 4.4 are 4.4.N)
_REF = re.compile(r"(?:가이드|guide)\s*(\d+(?:\.\d+)*)(?:\s*(?:step|단계)\s*(\d+))?", re.I)


@functools.lru_cache(maxsize=1)
def index():
    """{section: {"title": {ko, en}, "ko": text, "en": text}} in the guide's order."""
    import yaml         # at the first look-up: the hub starts without PyYAML (hub/profiles/parsed.py)
    data = yaml.safe_load(INDEX.read_text(encoding="utf-8"))
    return dict(data["sections"])


def sections_in(text):
    """Every guide section a text cites. The battle order's steps have their own entries
    ("guide 4.4 step 7" is 4.4.7, as the engine writes it); a step of any other section's
    list is that section ("guide 3.10 step 4" is 3.10)."""
    out = []
    for m in _REF.finditer(text or ""):
        section, step = m.group(1), m.group(2)
        out.append(section + "." + step if step and section == BATTLE_ORDER else section)
    return out


def lookup(ref):
    """The entry for a citation or a bare section, or None. A section the index lacks falls
    back to its nearest parent (3.6.2.9 -> 3.6.2), with ``"section"`` saying which it is."""
    found = sections_in(ref) or [str(ref).strip()]
    key = found[0]
    entries = index()
    while key:
        if key in entries:
            return dict(entries[key], section=key)
        key = key.rpartition(".")[0]
    return None
