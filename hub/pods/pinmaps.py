"""A pin map checked before it goes on a pod (``lumen pod image``, ``lumen pod flash``), by the
firmware's own rules: firmware/pinmap.py, the file the pod checks its /pinmap.json with at
power-up. A map the rules refuse is never written: the message names each key at fault.

    data = pinmaps.load(Path("mine.json"), board="pico")    # the file's bytes, or PinMapError
"""

from __future__ import annotations

from pathlib import Path

from firmware import pinmap as rules

PINMAPS = Path(__file__).resolve().parents[2] / "hardware" / "pinmaps"


class PinMapError(Exception):
    """Why a pin map cannot go on a pod, in words for the builder (Korean, then each key in English)."""

    def __init__(self, where: str, errors: list[tuple[str, str]]) -> None:
        self.errors = errors
        keys = ", ".join(k for k, _ in errors if k) or "JSON"
        lines = "\n".join("  - " + line for line in rules.describe(errors))
        super().__init__(f"{where}: 핀 맵 거부 (잘못된 키: {keys}) / pin map refused:\n{lines}\n"
                         "hardware/README.md \"Pin maps\" lists every key. / 모든 키의 설명은 hardware/README.md "
                         "\"Pin maps\"에 있습니다.")


def check_text(text: str, where: str, board: str | None) -> dict:
    """The map in ``text``, or PinMapError; ``board``: the board it goes on (None: not known yet)."""
    pm, errors = rules.parse(text, board)
    if errors:
        raise PinMapError(where, errors)
    return pm


def load(path: Path, board: str | None) -> bytes:
    """The bytes of a pin map file the rules take for ``board``, or PinMapError."""
    try:
        data = path.read_bytes()
        text = data.decode("utf-8")
    except OSError as e:
        raise PinMapError(str(path), [("", f"cannot read it: {e.strerror}")]) from None
    except UnicodeDecodeError:
        raise PinMapError(str(path), [("", "not UTF-8 text")]) from None
    check_text(text, str(path), board)
    return data

