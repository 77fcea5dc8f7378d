"""The game state: plain data that round-trips through JSON losslessly.

Card definitions are shared (immutable) between copies of a state; every zone
holds card ids. The state also records where the engine is in the turn
(``step``), what it is waiting for (``pending``), the answers received for the
current step (``inbox``) and short interrupt tasks (``tasks``: a replenish
after a break, a discard down to the hand limit) that run before the step goes
on. See engine/play/turn.py for the turn and engine/play/battle.py for the battle.
"""

from collections.abc import Iterable, Mapping
from typing import Any

from engine.cards.model import Card, Character, parse_card, parse_character, raise_if
from engine.cards.rules import Rules
from engine.core.decisions import Request

SEATS = ("a", "b")
CardIds = list[str]         # a zone: card ids, in order (``list`` is also a zone's name in PlayerState)
ZONES = ("hand", "list", "side_deck", "break_zone", "lumen_zone", "battle_zone")


def other(p: str) -> str:
    return "b" if p == "a" else "a"


def order(st: "GameState") -> tuple[str, str]:
    """Both seats, the priority holder first (guide 3.8, 5.2.1)."""
    p = st.priority
    assert p is not None        # held from the setup's coin toss on (guide 3.4.1 step 1)
    return (p, "b" if p == "a" else "a")


class PlayerState:
    __slots__ = ("character", "health", "fp", "hand", "list", "side_deck", "break_zone",
                 "lumen_zone", "battle_zone", "ultimate", "ultimate_card", "non_responses",
                 "tokens", "limit_delta")
    character: Character
    health: int
    fp: int
    hand: CardIds
    list: CardIds
    side_deck: CardIds
    break_zone: CardIds
    lumen_zone: CardIds
    battle_zone: CardIds
    ultimate: str | None             # the card in the ultimate zone
    ultimate_card: str | None        # the player's ultimate card, wherever it is (guide 3.3.4)
    non_responses: int
    tokens: dict[str, int]
    limit_delta: int

    def __init__(self, character: Character, health: int | None = None, fp: int = 0, hand: Iterable[str] = (),
                 list: Iterable[str] = (), side_deck: Iterable[str] = (), break_zone: Iterable[str] = (),
                 lumen_zone: Iterable[str] = (), battle_zone: Iterable[str] = (), ultimate: str | None = None,
                 ultimate_card: str | None = None, non_responses: int = 0, tokens: Mapping[str, int] | None = None,
                 limit_delta: int = 0) -> None:
        self.character = character
        self.health = character.start_health if health is None else health
        self.fp = fp
        self.hand = [*hand]
        self.list = [*list]
        self.side_deck = [*side_deck]
        self.break_zone = [*break_zone]
        self.lumen_zone = [*lumen_zone]
        self.battle_zone = [*battle_zone]
        self.ultimate = ultimate
        self.ultimate_card = ultimate_card if ultimate_card is not None else ultimate
        self.non_responses = non_responses
        # per-character token counters (brief 6): id -> count; defaults from the character card
        self.tokens = dict(tokens) if tokens is not None else character.token_start()
        self.limit_delta = limit_delta   # hand-limit change from effects (engine/play/cardfx.py refresh)

    def copy(self) -> "PlayerState":
        c = PlayerState.__new__(PlayerState)
        c.character = self.character
        c.health = self.health
        c.fp = self.fp
        c.hand = self.hand[:]
        c.list = self.list[:]
        c.side_deck = self.side_deck[:]
        c.break_zone = self.break_zone[:]
        c.lumen_zone = self.lumen_zone[:]
        c.battle_zone = self.battle_zone[:]
        c.ultimate = self.ultimate
        c.ultimate_card = self.ultimate_card
        c.non_responses = self.non_responses
        c.tokens = dict(self.tokens)
        c.limit_delta = self.limit_delta
        return c

    @property
    def hand_limit(self) -> int:
        limit = self.character.limits.get(self.health)
        if limit is None:
            limit = self.character.limit_for(self.health)
        if self.limit_delta:
            limit = max(0, limit + self.limit_delta)
        return limit

    def owned_cards(self) -> CardIds:
        """Every card this player owns, wherever it is (for sudden death rebuild and invariants)."""
        cards = self.hand + self.list + self.side_deck + self.break_zone + self.lumen_zone + self.battle_zone
        if self.ultimate is not None:
            cards.append(self.ultimate)
        return cards

    def to_json(self) -> dict[str, Any]:
        return {
            "character": self.character.to_json(), "health": self.health, "fp": self.fp,
            "hand": self.hand[:], "list": self.list[:], "side_deck": self.side_deck[:],
            "break_zone": self.break_zone[:], "lumen_zone": self.lumen_zone[:],
            "battle_zone": self.battle_zone[:], "ultimate": self.ultimate,
            "ultimate_card": self.ultimate_card, "non_responses": self.non_responses,
            "tokens": dict(self.tokens), "limit_delta": self.limit_delta,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "PlayerState":
        ch, problems = parse_character(d["character"])
        raise_if(problems)
        assert ch is not None       # no problems: a character
        return cls(ch, d["health"], d["fp"], d["hand"], d["list"], d["side_deck"], d["break_zone"],
                   d["lumen_zone"], d["battle_zone"], d["ultimate"], d["ultimate_card"],
                   d["non_responses"], d.get("tokens", {}), d.get("limit_delta", 0))


class Battle:
    """The battle in progress (guide 4.4). ``cards[p]`` is the ready card id, or
    None for the standard virtual skill (guide 3.10 step 3)."""

    __slots__ = ("cards", "ref", "speed", "evades", "guards", "offset", "outcome", "decided_by",
                 "results", "combo_ok", "attack_used", "fp_changed", "damage_done", "used",
                 "combo", "catch", "redo_ready", "moves", "nullify_queue", "ended", "fx")
    cards: dict[str, str | None]
    ref: dict[str, int]
    speed: dict[str, int]
    evades: dict[str, bool]
    guards: dict[str, bool]
    offset: str | None
    outcome: dict[str, str]
    decided_by: str | None
    results: dict[str, str | None]
    combo_ok: dict[str, bool]
    attack_used: bool
    fp_changed: bool
    damage_done: bool
    used: list[list[Any]]
    combo: dict[str, Any] | None
    catch: dict[str, Any] | None
    redo_ready: bool
    moves: list[list[Any]] | None
    nullify_queue: list[Any] | None
    ended: bool
    fx: dict[str, Any] | None

    def __init__(self, cards: Mapping[str, str | None]) -> None:
        self.cards = dict(cards)
        self.ref = {}            # reference speed (before FP) of each attack
        self.speed = {}          # judgment speed (after FP) of each attack
        self.evades = {}         # p -> True if p's card evades the opponent's attack
        self.guards = {}         # p -> True if p's defense guards the opponent's attack
        self.offset = None       # "attack" / "defense" / None
        self.outcome = {}        # p -> outcome label (brief 4.2)
        self.decided_by = None   # the rule section that decided the outcome
        self.results = {}        # p -> result key applied (hit, guard, ...) or None
        self.combo_ok = {}       # p -> True if p's applied result starts combo time
        self.attack_used = False
        self.fp_changed = False
        self.damage_done = False
        self.used = []           # [player, card_id, role] in the order used (guide 5.3.4)
        self.combo = None        # combo time in progress (engine/play/battle.py)
        self.catch = None        # catch time in progress
        self.redo_ready = False  # a grab was nullified: the ready phase repeats (guide 4.1.1)
        self.moves = None        # cards still to move at step 18
        self.nullify_queue = None
        self.ended = False
        self.fx = None           # card-effect data of this battle (engine/play/cardfx.py); None without effects

    def copy(self) -> "Battle":
        c = Battle.__new__(Battle)
        c.cards = dict(self.cards)
        c.ref = dict(self.ref)
        c.speed = dict(self.speed)
        c.evades = dict(self.evades)
        c.guards = dict(self.guards)
        c.offset = self.offset
        c.outcome = dict(self.outcome)
        c.decided_by = self.decided_by
        c.results = dict(self.results)
        c.combo_ok = dict(self.combo_ok)
        c.attack_used = self.attack_used
        c.fp_changed = self.fp_changed
        c.damage_done = self.damage_done
        c.used = [u[:] for u in self.used]
        c.combo = copy_json(self.combo)
        c.catch = copy_json(self.catch)
        c.redo_ready = self.redo_ready
        c.moves = None if self.moves is None else [m[:] for m in self.moves]
        c.nullify_queue = None if self.nullify_queue is None else self.nullify_queue[:]
        c.ended = self.ended
        c.fx = None if self.fx is None else copy_json(self.fx)
        return c

    def to_json(self) -> dict[str, Any]:
        return {k: copy_json(getattr(self, k)) for k in Battle.__slots__}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> "Battle":
        b = cls.__new__(cls)
        for k in cls.__slots__:
            setattr(b, k, copy_json(d.get(k)))
        return b


def copy_json(v: Any) -> Any:
    """Deep copy of plain JSON data (dict/list/scalars)."""
    if isinstance(v, dict):
        return {k: (x if type(x) in _SCALARS else copy_json(x)) for k, x in v.items()}
    if isinstance(v, list):
        return [(x if type(x) in _SCALARS else copy_json(x)) for x in v]
    return v


_SCALARS = frozenset((str, int, bool, float, type(None)))   # returned as they are, without a call


class GameState:
    """The whole game. Use engine.api.game to create and advance it; treat it as a value."""

    __slots__ = ("cards", "rules", "players", "priority", "turn", "phase", "step", "stalled_battles",
                 "sudden_death", "sd_turn", "winner", "pending", "inbox", "tasks", "battle",
                 "last_outcome", "rng", "battles", "decks", "fx", "lasting", "fxon", "fxix", "limkey")
    cards: Mapping[str, Card]
    rules: Rules
    players: dict[str, PlayerState]
    priority: str | None
    turn: int
    phase: str
    step: str
    stalled_battles: int
    sudden_death: bool
    sd_turn: int
    winner: str | None
    pending: list[Request]
    inbox: dict[str, Any]
    tasks: list[dict[str, Any]]
    battle: Battle | None
    last_outcome: dict[str, str] | None
    rng: int
    battles: int
    decks: dict[str, Any] | None
    fx: dict[str, Any] | None
    lasting: list[dict[str, Any]]
    fxon: bool
    fxix: Any
    limkey: Any

    def __init__(self, cards: Mapping[str, Card], players: dict[str, PlayerState], priority: str | None = None,
                 rules: Rules | None = None, turn: int = 1, rng: int = 0, decks: dict[str, Any] | None = None) -> None:
        self.cards = cards                 # id -> Card (shared, immutable)
        self.rules = rules or Rules()
        self.players = players             # {"a": PlayerState, "b": PlayerState}
        self.priority = priority
        self.turn = turn
        self.phase = "setup"
        self.step = "setup.ask"
        self.stalled_battles = 0           # guide 5.1.1: consecutive battles counting toward defense over
        self.sudden_death = False
        self.sd_turn = 0                   # which sudden-death turn this is (1..3), 0 outside sudden death
        self.winner = None                 # "a" | "b" | "draw" | None
        self.pending = []                  # requests the engine waits for (engine/core/decisions.py)
        self.inbox = {}                    # answers received for the current step
        self.tasks = []                    # interrupt tasks, run before the step continues
        self.battle = None
        self.last_outcome = None           # {"a": label, "b": label} of the last judged battle
        self.rng = rng                     # seeded generator state (engine/core/rng.py)
        self.battles = 0                   # battle phases completed
        self.decks = decks                 # {"a": [...], "b": [...]} deck lists for setup, or None
        self.fx = None                     # the open timing window of card effects (engine/play/windows.py)
        self.lasting = []                  # effects with a duration (engine/play/cardfx.py)
        self.fxon = effects_in_play(cards, players)   # derived: False = vanilla, the effect hooks cost nothing
        self.fxix = None                   # derived, built on first use: which cards trigger where (engine/play/cardfx.py FxIndex)
        self.limkey = None                 # derived: what the hand-limit changes were last worked out from (cardfx.refresh)

    def copy(self) -> "GameState":
        c = GameState.__new__(GameState)
        c.cards = self.cards
        c.rules = self.rules
        c.players = {"a": self.players["a"].copy(), "b": self.players["b"].copy()}
        c.priority = self.priority
        c.turn = self.turn
        c.phase = self.phase
        c.step = self.step
        c.stalled_battles = self.stalled_battles
        c.sudden_death = self.sudden_death
        c.sd_turn = self.sd_turn
        c.winner = self.winner
        c.pending = [r.copy() for r in self.pending]
        c.inbox = copy_json(self.inbox)       # its get order is a list the get step pops
        c.tasks = [dict(t) for t in self.tasks]
        c.battle = None if self.battle is None else self.battle.copy()
        c.last_outcome = self.last_outcome
        c.rng = self.rng
        c.battles = self.battles
        c.decks = self.decks
        c.fx = None if self.fx is None else copy_json(self.fx)
        c.lasting = [copy_json(x) for x in self.lasting] if self.lasting else []
        c.fxon = self.fxon
        c.fxix = self.fxix
        c.limkey = self.limkey
        return c

    def card(self, card_id: str | None) -> Card:
        if card_id is None:
            return self.rules.virtual
        return self.cards[card_id]

    # ------------------------------------------------------------ JSON
    def to_json(self, cards: bool = True) -> dict[str, Any]:
        """The state as JSON. ``cards=False`` leaves the card table out (views: it is static
        and ~24 KB, so a view that serialized it would spend most of its time there)."""
        return {
            "cards": [c.to_json() for c in self.cards.values()] if cards else None,
            "rules": self.rules.to_json(),
            "players": {p: self.players[p].to_json() for p in SEATS},
            "priority": self.priority, "turn": self.turn, "phase": self.phase, "step": self.step,
            "stalled_battles": self.stalled_battles, "sudden_death": self.sudden_death,
            "sd_turn": self.sd_turn, "winner": self.winner,
            "pending": copy_json(self.pending), "inbox": copy_json(self.inbox),
            "tasks": copy_json(self.tasks),
            "battle": None if self.battle is None else self.battle.to_json(),
            "last_outcome": copy_json(self.last_outcome), "rng": self.rng, "battles": self.battles,
            "decks": copy_json(self.decks),
            "fx": copy_json(self.fx), "lasting": copy_json(self.lasting),
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any], cards: Mapping[str, Card] | None = None) -> "GameState":
        """Rebuild a state. ``cards`` may pass an already parsed card table to share."""
        if cards is None:
            table: dict[str, Card] = {}
            for cd in d["cards"]:
                card, problems = parse_card(cd)
                raise_if(problems)
                assert card is not None     # no problems: a card
                table[card.id] = card
            cards = table
        st = cls.__new__(cls)
        st.cards = cards
        st.rules = Rules.from_json(d["rules"])
        st.players = {p: PlayerState.from_json(d["players"][p]) for p in SEATS}
        for key in ("priority", "turn", "phase", "step", "stalled_battles", "sudden_death", "sd_turn",
                    "winner", "rng", "battles"):
            setattr(st, key, d[key])
        st.pending = copy_json(d["pending"])
        st.inbox = copy_json(d["inbox"])
        st.tasks = copy_json(d["tasks"])
        st.battle = None if d["battle"] is None else Battle.from_json(d["battle"])
        st.last_outcome = copy_json(d["last_outcome"])
        st.decks = copy_json(d.get("decks"))
        st.fx = copy_json(d.get("fx"))
        st.lasting = copy_json(d.get("lasting") or [])
        st.fxon = effects_in_play(cards, st.players)
        st.fxix = None
        st.limkey = None
        return st


def effects_in_play(cards: Mapping[str, Card], players: Mapping[str, PlayerState]) -> bool:
    """Does any card or trait of this game carry effects? (Otherwise every effect hook is skipped.)"""
    for c in cards.values():
        if c.effects:
            return True
    for pl in players.values():
        if pl.character.fx or pl.character.cont:
            return True
    return False
