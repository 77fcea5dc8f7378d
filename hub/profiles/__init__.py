"""Game profiles: the other games played at the same tables, as data (brief 7: "other
games are profiles, not forks").

A profile (one YAML file in ``data/``, the format in docs/games.md) names a game's seats
and teams, the counters each seat keeps, the hidden pick of each turn (its parts, the
reveal, re-picks, discard piles), the turn limit and what ends a game, and its match
clock; the tracker, the pods, the record and the tournament layer read it. Lumen
Condenser's tracker is one profile (``data/lumen.yaml``, ``rules: tracker``); every other
profile is played by the generic profile session (hub/sessions/profile.py). No rules
engine: the rules engine stays Lumen Condenser's alone.

This package imports no other hub package.
"""
