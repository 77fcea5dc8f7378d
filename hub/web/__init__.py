"""The table display and REST API (FastAPI), served offline from the hub."""
