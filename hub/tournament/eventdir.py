"""Creating an event folder: the players, the settings, the broker's credentials.

An event lives in one folder:
  event.sqlite        the TD's append-only record
  credentials.json    broker passwords (TD, table-1..N, spectator) and the TD page's admin token
  broker/             the local Mosquitto's config, password file, ACL, persistence, log
"""

import csv
import json
import os
import random
import secrets

from .broker import make_credentials
from .event import EventError
from .record import EventRecord


class SetupError(ValueError):
    pass


def load_players(path):
    """Players from a file: a CSV with a ``name`` column (and optionally ``id``), or one
    name a line (blank lines and ``#`` comments skipped). Errors name the file and line."""
    try:
        with open(path, encoding="utf-8-sig") as f:
            text = f.read()
    except OSError as e:
        raise SetupError("cannot read the players file %s: %s" % (path, e.strerror)) from None
    lines = text.splitlines()
    players = []
    first = lines[0].strip().lower() if lines else ""
    if path.endswith(".csv") or first.split(",")[0] in ("name", "id"):
        for n, row in enumerate(csv.DictReader(lines), 2):
            name = (row.get("name") or "").strip()
            if not name:
                raise SetupError("%s:%d: a player needs a name" % (path, n))
            players.append({"id": (row.get("id") or "").strip() or "p%d" % (len(players) + 1), "name": name})
    else:
        for n, line in enumerate(lines, 1):
            name = line.split("#", 1)[0].strip()
            if name:
                players.append({"id": "p%d" % (len(players) + 1), "name": name})
    ids = [p["id"] for p in players]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        raise SetupError("%s: player ids appear twice: %s" % (path, ", ".join(sorted(dup))))
    if len(players) < 2:
        raise SetupError("%s: an event needs at least 2 players, found %d" % (path, len(players)))
    return players


def new_event(folder, name, players, rounds=None, round_minutes=None, best_of=None, cut=0, extra_turns=None, seed=None,
              tables=None, profile="lumen"):
    """Write a new event folder; returns the credentials. Refuses to overwrite one.
    ``profile``: the game the tables play (hub/profiles/); the round clock's length and the
    games a match has default to its match settings (BattleCON: best of 3), the extra turns after
    time to its end-of-round procedure (Lumen: 3, docs/rulings.md R-time)."""
    from hub.profiles import profile as profiles
    try:
        prof = profiles.get(profile)
    except KeyError as e:
        raise SetupError(str(e.args[0])) from None
    round_minutes = prof.match["minutes"] if round_minutes is None else round_minutes
    best_of = prof.match["best_of"] if best_of is None else best_of
    extra_turns = prof.match["extra_turns"] if extra_turns is None else extra_turns     # the end of round's
    rec_path = os.path.join(folder, "event.sqlite")
    if os.path.exists(rec_path):
        raise SetupError("%s already holds an event (%s)" % (folder, rec_path))
    if rounds is None:   # enough rounds for one undefeated player: ceil(log2(players))
        rounds = max(1, (len(players) - 1).bit_length())
    body = {"name": name, "rounds": rounds, "round_minutes": round_minutes, "best_of": best_of,
            "seed": random.SystemRandom().randrange(2 ** 31) if seed is None else seed, "cut": cut,
            "extra_turns": extra_turns, "players": players, "profile": prof.id}
    from .event import Event
    try:
        Event().check("event", body)
    except EventError as e:
        raise SetupError(str(e)) from None
    os.makedirs(folder, exist_ok=True)
    tables = tables or (len(players) + 1) // 2 + 4
    creds = make_credentials(tables)
    creds["admin_token"] = secrets.token_urlsafe(12)
    path = os.path.join(folder, "credentials.json")
    with open(path, "w") as f:
        json.dump(creds, f, indent=1, sort_keys=True)
    os.chmod(path, 0o600)
    rec = EventRecord(rec_path)
    rec.append("event", body)
    rec.close()
    return creds


def load_credentials(folder):
    path = os.path.join(folder, "credentials.json")
    try:
        with open(path) as f:
            return json.load(f)
    except OSError:
        raise SetupError("%s is not an event folder (no credentials.json): run `lumen tournament new` first"
                         % folder) from None
