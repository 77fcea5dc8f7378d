"""``python3 -m hub.cli``: the ``lumen`` command from a checkout."""

import sys

from hub.cli.main import main

sys.exit(main())
