"""FastAPI's "no pydantic.v1 model" check, without importing pydantic.v1 to make it (issue 36).

Declaring a route's parameter, FastAPI (0.12x-0.16x) asks whether its annotation is a
``pydantic.v1`` model, to refuse one, and imports ``pydantic.v1`` to ask: 60 M instructions
of the hub's start (1.50 -> 1.44 G; about 0.14 s of a Pi Zero 2 W core at 420 M/s) for a
package no part of the hub uses. A class can only be a ``pydantic.v1`` model once ``pydantic.v1`` has
been imported, so while it is not in ``sys.modules`` the answer is no, exactly; once anyone
imports it, FastAPI's own check runs as before.

``install()`` wraps FastAPI's function where FastAPI looks it up (the module's global); on a
FastAPI without it, it does nothing and FastAPI checks as it always did.
"""

import sys
from typing import Any, Callable

V1 = "pydantic.v1"


def install() -> bool:
    """Wrap FastAPI's check; True if it is wrapped (now or before)."""
    try:
        from fastapi._compat import shared
    except ImportError:
        return False
    original: Callable[[Any], bool] | None = getattr(shared, "is_pydantic_v1_model_class", None)
    if original is None:
        return False
    if getattr(original, "lumen_v1_check", False):
        return True

    def is_pydantic_v1_model_class(cls: Any) -> bool:
        if V1 not in sys.modules:       # no pydantic.v1 model can exist yet
            return False
        return original(cls)

    is_pydantic_v1_model_class.lumen_v1_check = True    # type: ignore[attr-defined]
    shared.is_pydantic_v1_model_class = is_pydantic_v1_model_class
    return True
