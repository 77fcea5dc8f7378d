"""The hub's side of protocol extension 1 (docs/protocol.md section 11), apart from the
links and prompts it plugs into: the ``ext`` greeting, the OLED names as strips, a ready
timed by its first edge (``ready_at``) and the self-test's reports.

A pod says it speaks the extension in its hello (``features & FEATURE_EXT``); the hub
answers its welcome with ``ext``. A pod that never hears ``ext`` (an older hub) speaks
plain protocol 1, and an older pod never gets an extension message.
"""

from __future__ import annotations

import functools
import logging

from hub.pods import glyphs
from hub.pods.protocol import EXT, FEATURE_EXT, FEATURE_OLED, TEST_PARTS, TEST_RESULTS

log = logging.getLogger(__name__)

# the pass slot's name, by the engine's pass word (Korean first)
PASS_NAMES = {"pass": "패스 pass", "end": "끝 end", "skip": "건너뛰기 skip"}
PART_NAMES = {v: k for k, v in TEST_PARTS.items()}
RESULT_NAMES = {v: k for k, v in TEST_RESULTS.items()}


def speaks_ext(pod) -> bool:
    return pod is not None and bool(pod.features & FEATURE_EXT)


def greet(link, now: int) -> None:
    """Right after a welcome: tell a pod that speaks the extension that this hub does."""
    if speaks_ext(link.pod):
        link.send("ext", now, version=EXT)


@functools.lru_cache(maxsize=1024)
def _strip(text: str) -> tuple[tuple[int, int, bytes], ...]:
    return tuple((f["width"], f["part"], f["data"]) for f in glyphs.strip_messages(0, 0, text))


def send_names(conn, link, now: int, prompt: int, names: list[str], pass_value=None) -> None:
    """The names of a prompt's options (slot 1..N, and the pass slot 0) to this seat's own
    pod: rendered strips for a pod that speaks the extension, else ``label`` text. A prompt
    whose names went out already is not sent again (state pushes repeat)."""
    pod = link.pod
    if pod is None or not pod.features & FEATURE_OLED:
        return
    key = (pod.boot, pod.epoch, prompt, tuple(names), pass_value)
    if getattr(conn, "sent_names", None) == key:
        return
    conn.sent_names = key
    slots = list(enumerate(names, 1))
    if pass_value is not None:
        slots.append((0, PASS_NAMES.get(pass_value, pass_value)))
    rendered = None
    if speaks_ext(pod):
        try:
            rendered = [(slot, _strip(name)) for slot, name in slots]
        except (glyphs.GlyphError, ImportError, OSError) as e:  # no font (or no Pillow) here
            log.warning("pod names sent as text, not rendered: %s", e)
    if rendered is None:
        for i, name in enumerate(names, 1):
            link.send("label", now, text=name, prompt=prompt, slot=i)
        return
    for slot, parts in rendered:
        for width, part, data in parts:
            link.send_fields("strip", now, {"prompt": prompt, "slot": slot, "width": width, "part": part,
                                            "data": data})


def choice_time(m, stamp):
    """The time a ready counts at: a ``ready_at`` carries how long before its frame the
    press's first edge was (the pod confirms a press before it sends it)."""
    if stamp is None or m.type != "ready_at":
        return stamp
    return stamp - m["age"]


class SelfTestResults:
    """What a pod's self-test reported, part by part (for ``lumen pod test``)."""

    def __init__(self) -> None:
        self.parts: dict[str, str] = {}

    def note(self, m) -> str:
        part = PART_NAMES.get(m["part"], f"part {m['part']}")
        result = RESULT_NAMES.get(m["result"], f"result {m['result']}")
        self.parts[part] = result
        return f"{part}: {result}"


def on_test(conn, m) -> str:
    """A ``test`` report: kept on the connection; returns a line for the hub's console."""
    res = getattr(conn, "selftest", None)
    if res is None:
        res = conn.selftest = SelfTestResults()
    return res.note(m)


def start_selftest(link, now: int) -> None:
    link.send("selftest", now, action=1)
