"""What the table display shows of a game, built from public views only: one module per
kind of session (``referee.py``, ``tracker.py``) and what they share (``common.py``).

A session's ``display_state(names)`` calls its builder here; hub/web/display.py adds the
table's parts (the match clock, record errors, pod conflicts) and serves it. Nothing here
reads a seat's private channel.
"""
