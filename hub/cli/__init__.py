"""The ``lumen`` command line: one module per command."""

from hub.cli.main import main

__all__ = ["main"]
