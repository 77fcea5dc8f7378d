"""One FastAPI router per area of the table's API; :mod:`hub.web.app` includes them all."""
