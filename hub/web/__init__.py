"""The table display and REST API (FastAPI), served offline from the hub (docs/hub.md, docs/display.md)."""
