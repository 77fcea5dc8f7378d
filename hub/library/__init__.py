"""The hub's card library: card-set folders of YAML, the deck-building checks, CSV import
and deck codes. The files on disk stay the format of docs/card-format.md, so
``lumen cards check`` and git remain the tools of record; the web editor
(hub/web) reads and writes them through :class:`hub.library.sets.CardLibrary`."""
