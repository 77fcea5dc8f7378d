"""A message whose view is built only when a listener reads it (issue 16: most listeners of a
seat's ``you`` message, the pods' links, look at its type only)."""


class _Unbuilt:
    """What a lazy message's key holds until it is built: no serializer knows it, so a
    reader that bypasses the dict's methods (orjson reads a dict subclass's C storage)
    fails loudly instead of sending ``null``."""

    __slots__ = ()

    def __repr__(self):
        return "<not built: read it through the message's methods>"


UNBUILT = _Unbuilt()


class LazyMessage(dict):
    """A message whose ``key`` is built when a listener first reads it: most listeners of a
    seat's ``you`` message never read its view (the pods' links look at the type only).
    Reading it through the dict's methods (``m[key]``, ``get``, ``items``, ``values``,
    ``dict(m)``, ``{**m}``, ``copy``, ``==``, ``json.dumps`` which iterates ``items``)
    builds it first. A reader that bypasses them (``orjson.dumps(m)``, ``dict.get(m, key)``)
    finds :data:`UNBUILT`, which no encoder accepts: call ``fill`` first. The session
    calls ``fill``, before its state moves on, for the messages a listener still holds
    (weak references)."""

    __slots__ = ("_key", "_make", "__weakref__")

    def __init__(self, fields, key, make):
        super().__init__(fields)
        dict.__setitem__(self, key, UNBUILT)
        self._key, self._make = key, make

    def fill(self):
        make = self._make
        if make is not None:
            self._make = None
            dict.__setitem__(self, self._key, make())

    def __getitem__(self, k):
        if k == self._key:
            self.fill()
        return dict.__getitem__(self, k)

    def get(self, k, default=None):
        if k == self._key:
            self.fill()
        return dict.get(self, k, default)

    def items(self):
        self.fill()
        return dict.items(self)

    def values(self):
        self.fill()
        return dict.values(self)

    def __iter__(self):         # overridden, so dict(m) and {**m} read through __getitem__
        return dict.__iter__(self)

    def copy(self):
        self.fill()
        return dict(self)

    def pop(self, k, *default):
        if k == self._key:
            self.fill()
        return dict.pop(self, k, *default)

    def __eq__(self, other):
        self.fill()
        if isinstance(other, LazyMessage):
            other.fill()
        return dict.__eq__(self, other)

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def __repr__(self):
        self.fill()
        return dict.__repr__(self)

    def __reduce_ex__(self, protocol):       # copy, deepcopy, pickle: a plain dict
        self.fill()
        return (dict, (dict(self),))
