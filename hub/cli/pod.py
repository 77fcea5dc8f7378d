"""``lumen pod flash`` (hub/pods/flash.py does the work), ``lumen pod image``
(one UF2 to drag onto a board: hub/pods/image.py) and ``lumen pod test`` (the
builder's check of a flashed pod: hub/pods/podtest.py)."""

from __future__ import annotations

import os
import sys
from pathlib import Path


def flash(args):
    try:
        from hub.pods.flash import main as flash_main
    except ImportError:
        print("lumen pod flash is not available in this build", file=sys.stderr)
        return 2
    return flash_main(args.rest)


def _find_micropython(board) -> Path | None:
    """A MicroPython release for the board where a builder puts downloads:
    $LUMEN_MICROPYTHON, then RPI_PICO-*.uf2 (RPI_PICO2-*.uf2) in this folder
    or ~/Downloads, the newest by name (the names carry the date)."""
    env = os.environ.get("LUMEN_MICROPYTHON")
    if env:
        return Path(env)
    found: list[Path] = []
    for d in (Path.cwd(), Path.home() / "Downloads"):
        found += d.glob(f"{board.micropython_board}-*.uf2")
    return max(found, key=lambda p: p.name) if found else None


def image(args):
    from hub.pods import image as img
    from hub.pods import pinmaps

    board = img.BOARDS[args.board]
    pinmap = Path(args.pinmap) if args.pinmap else None
    if pinmap is not None and not pinmap.is_file():
        print(f"lumen pod image: no pin map {pinmap}", file=sys.stderr)
        return 2
    try:  # first: a map the pod would refuse is refused here, before any download is looked for
        pinmaps.load(pinmap or img.PINMAPS / f"{board.name}.json", board.name)
    except pinmaps.PinMapError as e:
        print(f"lumen pod image: {e}", file=sys.stderr)
        return 2
    mp_path = Path(args.micropython) if args.micropython else _find_micropython(board)
    if mp_path is None:
        print(f"lumen pod image: which MicroPython? Download the {board.micropython_board} .uf2 "
              f"({'%d.%d' % board.min_version} or later) from {board.download} and give it with "
              f"--micropython FILE (or put it in this folder or ~/Downloads).\n"
              f"MicroPython {board.micropython_board} 펌웨어(.uf2)를 {board.download} 에서 받아 "
              f"--micropython 파일 로 지정하세요.", file=sys.stderr)
        return 2
    try:
        mp = img.load_micropython(mp_path, board)
        print(f"MicroPython {'%d.%d.%d' % mp.version} ({mp.board_text or board.chip}) from {mp_path}", flush=True)
        data = img.build(board, mp, pinmap)
    except (img.ImageError, pinmaps.PinMapError) as e:
        print(f"lumen pod image: {e}", file=sys.stderr)
        return 2
    out = Path(args.out)
    tmp = out.with_name(out.name + ".part")
    tmp.write_bytes(data)
    os.replace(tmp, out)  # never a half-written image under the final name
    drive = "RPI-RP2" if board.chip == "RP2040" else "RP2350"
    print(f"Wrote {out} ({len(data) // 1024} KiB, {len(data) // 512} blocks): hold BOOTSEL, plug the "
          f"{board.name} in and copy this file onto the {drive} drive.\n"
          f"BOOTSEL 버튼을 누른 채 연결하고 이 파일을 드라이브에 복사하세요.")
    if not args.drives:
        return 0
    from hub.pods import drives

    found = drives.find(board.chip)
    if not found:
        print(f"lumen pod image: no {drive} drive is mounted: hold BOOTSEL while plugging each board in (and let "
              f"the desktop mount it, or mount it yourself) / {drive} 드라이브가 없습니다", file=sys.stderr)
        return 2
    done = drives.copy(out, found)
    for d, what in done:
        print(f"  {d}: {what}")
    ok = sum(what == "ok" for _, what in done)
    print(f"{ok} of {len(done)} boards flashed; each restarts as a pod (lumen pod test --all checks them) / "
          f"{len(done)}개 중 {ok}개 완료")
    return 0 if ok == len(done) else 1


def test(args):
    from hub.pods import podtest

    return podtest.main(args.port, board=args.pinmap or args.board, hello_s=args.wait, press_s=args.press_wait,
                        all_pods=args.all, sheet=args.csv)
