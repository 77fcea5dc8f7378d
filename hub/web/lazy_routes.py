"""A part of the API declared at its first request (issue 36: the hub's start).

FastAPI builds a route's parameter and body schemas when the route is declared: the card
editor's 26 routes and the modules behind them cost ~120 M instructions of a ~1.7 G start,
about 0.3 s of a Raspberry Pi Zero's core, and a table at a tournament never opens the
editor. :class:`LazyRoutes` stands in the app's routes for such a part: the first request
to one of its paths (or the OpenAPI document, which lists every route) declares the part on
the app, and the request is dispatched again, to the routes now there. Until then nothing
of the part is imported.
"""

import threading

from starlette.routing import BaseRoute, Match, NoMatchFound


class LazyRoutes(BaseRoute):
    """Stands for the routes ``declare()`` adds to ``app``: every path the part serves is one of
    ``paths`` or starts with one of ``prefixes`` (tests/web/test_lazy_routes.py checks that
    each declared route is)."""

    def __init__(self, app, name, declare, paths=(), prefixes=()):
        self.app, self.name, self._declare = app, name, declare
        self.paths, self.prefixes = frozenset(paths), tuple(prefixes)
        self.declared = False
        self._lock = threading.Lock()       # the OpenAPI document may be asked for off the loop (tests)

    def serves(self, path):
        return path in self.paths or path.startswith(self.prefixes)

    def declare(self):
        """Declare the part on the app, once."""
        with self._lock:
            if not self.declared:
                self._declare()
                self.declared = True

    def matches(self, scope):
        if not self.declared and scope["type"] in ("http", "websocket") and self.serves(scope["path"]):
            return Match.FULL, {}
        return Match.NONE, {}

    async def handle(self, scope, receive, send):
        self.declare()
        await self.app.router(scope, receive, send)     # again: this stand-in now matches nothing

    def url_path_for(self, name, /, **path_params):
        raise NoMatchFound(name, path_params)

    def __repr__(self):
        return "LazyRoutes(%r, declared=%s)" % (self.name, self.declared)


def add(app, name, declare, paths=(), prefixes=()):
    """Put a :class:`LazyRoutes` in ``app``'s routes and have the OpenAPI document declare it
    first. Returns it."""
    lazy = LazyRoutes(app, name, declare, paths, prefixes)
    app.router.routes.append(lazy)
    parts = getattr(app.state, "lazy_routes", None)
    if parts is None:
        parts = app.state.lazy_routes = []
        document = app.openapi

        def openapi():
            for part in parts:
                part.declare()
            return document()
        app.openapi = openapi
    parts.append(lazy)
    return lazy
