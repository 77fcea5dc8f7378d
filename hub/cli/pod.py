"""``lumen pod flash``: copy the firmware to a pod (hub/pods/flash.py does the work)."""

import sys


def flash(args):
    try:
        from hub.pods.flash import main as flash_main
    except ImportError:
        print("lumen pod flash is not available in this build", file=sys.stderr)
        return 2
    return flash_main(args.rest)
