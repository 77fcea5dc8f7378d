"""uvicorn's package without its command-line module (issue 36: ``lumen hub`` start-up).

``import uvicorn`` runs the package's ``__init__``, and that imports ``uvicorn.main``: the
``uvicorn`` command's options, declared with click. The hub never runs that command (it makes
its Config and Server itself), yet the import was ~35 M instructions, 2.5 % of its start
(callgrind, Debian's python3). So, before anything imports uvicorn, its package is registered
here without running ``__init__``; its submodules import as usual, and each name the package
itself offers is found at its first use (PEP 562), as the same object ``__init__`` would give:
``Config`` and ``Server`` from their own modules (``from uvicorn import Config`` in uvicorn's
lifespan modules is one such use), anything else (``run``, ``main``, ``__version__``) by running
the package's real ``__init__`` then. Where uvicorn was imported already (a tool, a test), it is
left as it is. The hub's modules take uvicorn's classes from here. (Before uvicorn 0.50, its
logging module imported click too: there the saving is ``uvicorn.main``'s own part.)
"""

import importlib
import importlib.util
import sys

#: names the package's ``__init__`` offers that come from modules the hub imports anyway
_CHEAP = {"Config": "uvicorn.config", "Server": "uvicorn.server"}
_MISSING = object()


def _register():
    if "uvicorn" in sys.modules:
        return
    spec = importlib.util.find_spec("uvicorn")
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return          # not installed as a package: the plain import below says so
    package = importlib.util.module_from_spec(spec)
    loader = spec.loader
    ran = []            # the package's own __init__: running or run (once)

    def __getattr__(name):
        where = _CHEAP.get(name)
        if where is not None:
            value = getattr(importlib.import_module(where), name)
        else:
            if not ran:
                ran.append(name)
                try:
                    loader.exec_module(package)
                except BaseException:
                    ran.clear()         # a failed __init__ (its error said) is tried again next time
                    raise
            value = package.__dict__.get(name, _MISSING)
            if value is _MISSING:       # missing after __init__, or while it runs
                raise AttributeError("module 'uvicorn' has no attribute %r" % name)
        setattr(package, name, value)
        return value

    setattr(package, "__getattr__", __getattr__)
    sys.modules["uvicorn"] = package


_register()

from uvicorn.config import Config  # noqa: E402 (after the package is registered)
from uvicorn.protocols.http.h11_impl import H11Protocol  # noqa: E402
from uvicorn.server import Server  # noqa: E402

__all__ = ["Config", "H11Protocol", "Server"]
