"""The hub's log, configured once for every ``lumen`` command (``setup``).

Everything the hub says goes through the stdlib logger ``lumen`` (``lumen.hub``,
``lumen.pods``, ``lumen.web``, ...): one handler, on standard output. At a terminal a
line is the message alone (a warning or error says so first); under systemd
(``$JOURNAL_STREAM`` is set: the unit's output goes to the journal) each line starts with
its syslog priority (``<6>`` info, ``<4>`` warning, ``<3>`` error), which journald reads
as the entry's priority (``journalctl -p warning -u lumen-hub``), and carries no time:
the journal adds its own.

Secrets never go into the log (issue 39: the journal is readable by the adm and
systemd-journal groups, a file the token was kept in is 0600): ``to_terminal`` writes a line
to the person at the terminal only, and nowhere when there is none.
"""

import logging
import os
import sys

ROOT = "lumen"
_PRIORITY = {logging.DEBUG: 7, logging.INFO: 6, logging.WARNING: 4, logging.ERROR: 3, logging.CRITICAL: 2}


class _Console(logging.Formatter):
    def format(self, record):
        text = super().format(record)
        if record.levelno >= logging.WARNING:
            return "%s %s: %s" % (record.levelname.lower(), record.name, text)
        return text


class _Journal(logging.Formatter):
    def format(self, record):
        prio = _PRIORITY.get(record.levelno, 6)
        text = super().format(record)
        where = "" if record.levelno < logging.WARNING else "%s: " % record.name
        return "\n".join("<%d>%s%s" % (prio, where, line) for line in text.splitlines() or [""])


def under_journal(env=None):
    return bool((env if env is not None else os.environ).get("JOURNAL_STREAM"))


def setup(level="info", stream=None, journal=None):
    """Configure the ``lumen`` logger once (again: replaces its handler). ``journal``: None =
    decide by ``$JOURNAL_STREAM``. Returns the logger."""
    logger = logging.getLogger(ROOT)
    for h in list(logger.handlers):
        if getattr(h, "_lumen", False):
            logger.removeHandler(h)
    handler = logging.StreamHandler(stream or sys.stdout)
    handler._lumen = True             # type: ignore[attr-defined]
    handler.setFormatter(_Journal() if (under_journal() if journal is None else journal) else _Console())
    logger.addHandler(handler)
    logger.setLevel(level.upper() if isinstance(level, str) else level)
    logger.propagate = False
    return logger


def say(name="lumen.hub"):
    """``out(text)``: what a command tells its user, as an info line of logger ``name``."""
    logger = logging.getLogger(name)
    return logger.info


def terminal(streams=None):
    """The stream a person reads at a terminal (standard output, else standard error, when
    it is a TTY), or None (the journal, a pipe, a file)."""
    for stream in streams if streams is not None else (sys.stdout, sys.stderr):
        try:
            if stream is not None and stream.isatty():
                return stream
        except (AttributeError, ValueError, OSError):   # closed, or no isatty
            continue
    return None


def to_terminal(text, stream=None):
    """Show ``text`` (a secret: the admin token) to the person at the terminal, never to the
    log; returns whether it was shown. ``stream``: the terminal (default: ``terminal()``)."""
    stream = stream if stream is not None else terminal()
    if stream is None:
        return False
    for h in logging.getLogger(ROOT).handlers:      # what was logged before it comes first
        try:
            h.flush()
        except Exception:
            pass
    stream.write(text + "\n")
    stream.flush()
    return True
