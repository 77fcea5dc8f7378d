"""The order of simultaneous effects (guide 5.2, 5.6.3): one small module.

At one timing the triggered effects of both players wait in a queue (plain
dicts in ``st.fx["queue"]``, see engine/play/windows.py). They resolve:

1. in groups: public triggers before hidden ones (guide 5.2.2: face-up cards,
   traits, the lumen and ultimate zones before the face-down side deck); inside
   each group, prohibitions ("~할 수 없다") first (guide 5.6.3 item 1);
2. inside a group alternately, one effect each, the priority holder first
   (guide 5.2.1): A has 2 and B has 3 -> A, B, A, B, B. A player with nothing
   left in the group lets the other go on. Each group starts again with the
   priority holder;
3. on their turn a player chooses which of their pending effects goes next
   (asked only if there are two or more different ones, brief 4.2);
4. a passed optional effect is simply dropped: it cannot come back at that timing
   (guide 5.2.3) because the queue of a timing is collected once.

A queued instance: ``{"p": seat, "name": "card-id:n", "hid": bool, "forbid": bool, ...}``.
"""

from typing import Any

#: a queued effect instance (engine/play/windows.py builds them)
Instance = dict[str, Any]


def group(inst: Instance) -> int:
    """0 public prohibitions, 1 public, 2 hidden prohibitions, 3 hidden."""
    return (2 if inst["hid"] else 0) + (0 if inst["forbid"] else 1)


def current_group(queue: list[Instance]) -> int | None:
    if not queue:
        return None
    return min((2 if i["hid"] else 0) + (0 if i["forbid"] else 1) for i in queue)


def whose_turn(queue: list[Instance], grp: int, turn: str) -> str:
    """The player who resolves next in group ``grp``: ``turn`` if they have one, else the other."""
    for inst in queue:
        if inst["p"] == turn and (2 if inst["hid"] else 0) + (0 if inst["forbid"] else 1) == grp:
            return turn
    return "b" if turn == "a" else "a"


def options(queue: list[Instance], grp: int, p: str) -> list[str]:
    """The distinct effect names player ``p`` may resolve next, in queue order."""
    names: list[str] = []
    for inst in queue:
        if inst["p"] == p and (2 if inst["hid"] else 0) + (0 if inst["forbid"] else 1) == grp \
                and inst["name"] not in names:
            names.append(inst["name"])
    return names


def take(queue: list[Instance], grp: int, p: str, name: str) -> Instance:
    """Remove and return the first pending instance of ``p`` named ``name`` in group ``grp``."""
    for k, inst in enumerate(queue):
        if inst["p"] == p and inst["name"] == name and (2 if inst["hid"] else 0) + (0 if inst["forbid"] else 1) == grp:
            return queue.pop(k)
    raise ValueError(name)


def after(p: str) -> str:
    """Whose turn it is after ``p`` resolved one effect: alternate (guide 5.2.1)."""
    return "b" if p == "a" else "a"
