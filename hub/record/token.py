"""The table's admin token, kept beside the game record so a restart (or a kill -9)
does not lock the judge out: generated once, written 0600, changed only on request.

``--token`` or ``LUMEN_ADMIN_TOKEN`` (e.g. in the systemd unit) override the stored one
for that run without replacing it."""

import os
import secrets

ENV = "LUMEN_ADMIN_TOKEN"


def token_path(db, table):
    """``/var/lib/lumen/games.sqlite3`` -> ``/var/lib/lumen/games.table-1.token``;
    None for a record kept in memory (nothing to keep a token beside)."""
    if not db or db == ":memory:":
        return None
    stem = os.path.splitext(os.path.abspath(db))[0]
    return "%s.%s.token" % (stem, table)


def new_token():
    return secrets.token_urlsafe(18)


def save(path, token):
    """Write the token 0600 atomically (a crash leaves the old one or the new one)."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)           # whatever the umask
        os.write(fd, (token + "\n").encode())
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def load_or_create(path):
    """The stored token, or a new one stored now."""
    try:
        with open(path, encoding="ascii") as f:
            token = f.read().strip()
        if token:
            if os.stat(path).st_mode & 0o077:
                os.chmod(path, 0o600)  # tighten a copy restored with loose permissions
            return token
    except FileNotFoundError:
        pass
    token = new_token()
    save(path, token)
    return token


class TokenKeeper:
    """Where a table's token comes from and where a changed one goes.

    ``override`` (--token / the environment) wins for this run; a change requested from
    the page is stored (when there is a file) so the next start uses it."""

    def __init__(self, path=None, override=None):
        self.path = path
        override = override or os.environ.get(ENV) or None
        if override:
            self.token, self.source = override, "override"
        elif path:
            self.token, self.source = load_or_create(path), "file"
        else:
            self.token, self.source = new_token(), "memory"

    def change(self, token):
        self.token = token
        if self.path:
            save(self.path, token)
            self.source = "file"
