"""Cards and decks: the card library, the editor's lint/preview/try-it, import and export,
the deck builder, deck codes and the decks registered for this table's seats.

Reads of cards are public (``/api/cards/...``). Decks are admin reads
(``/api/admin/cards/...``): a registered deck's list would tell a spectator the side deck.
Every write is a control action (``/api/control/cards/...``: the admin token, checked by the
app's middleware before the body is read, and a fresh ``action_id``). Errors keep the API's
shape ``{"error": code, "detail": message}`` and add ``message: {ko, en}`` and, for a refused
card or deck, ``problems``: the checker's findings, each with its ``field``
(e.g. ``effects[0].amount``) so the editor shows it at that field.
"""

import asyncio
import copy
import functools
from concurrent.futures import ThreadPoolExecutor
from typing import Annotated, Any, List, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import FileResponse, Response
from pydantic import Field, StringConstraints

from engine.cards import text as cardtext
from engine.cards import Deck
from engine import IllegalDecision
from engine.scenarios import TrialError, judge

from hub.library import deckcode
from hub.library.csvimport import CsvError, read_csv
from hub.library.deckcheck import deck_status, opening_problems, ordered_cards
from hub.library.errors import LibraryError
from hub.library.vocabulary import vocabulary
from hub.sessions.base import SessionError
from hub.web.common import STATIC_DIR, ApiError, Control, Seat, StrictModel, error_response

STATUS = {"not_found": 404, "invalid": 422, "read_only": 403, "conflict": 409}

SetId = Annotated[str, StringConstraints(pattern=r"^[a-z0-9][a-z0-9_\-]{0,47}$")]
CardMap = dict[str, Any]
MAX_TEXT = 2_000_000


def library_error(e):
    return error_response(STATUS.get(e.code, 422), e.code, e.en, message={"ko": e.ko, "en": e.en}, problems=e.problems)


def _fail(status, code, en, ko, problems=()):
    return error_response(status, code, en, message={"ko": ko, "en": en}, problems=list(problems))


class LintBody(StrictModel):
    set: SetId | None = None
    card: CardMap
    replaces: str | None = None


class LintCharacter(StrictModel):
    set: SetId | None = None
    character: CardMap
    replaces: str | None = None


class TryBody(StrictModel):
    card: CardMap
    against_set: SetId | None = None
    against_id: str | None = None
    against: CardMap | None = None
    fp_a: Annotated[int, Field(ge=-9, le=9)] = 0
    fp_b: Annotated[int, Field(ge=-9, le=9)] = 0
    set: SetId | None = Field(None, description="the card's set: its characters' traits and tokens apply")
    character_a: str | None = None
    character_b: str | None = None


class DeckData(StrictModel):
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    name_en: str | None = None
    character: str
    cards: list[str]
    ultimate: str | None = None


class StatusBody(StrictModel):
    set: SetId
    character: str | None = None
    cards: list[str] = []
    ultimate: str | None = None


class NewSet(Control):
    id: SetId
    name: Annotated[str, StringConstraints(min_length=1, max_length=80)]
    name_en: str | None = None


class ImportSet(Control):
    text: Annotated[str, StringConstraints(max_length=MAX_TEXT)]
    set_id: SetId | None = None


class SaveCard(Control):
    card: CardMap
    replaces: str | None = Field(None, description="the id of the card this one replaces (omit for a new card)")


class SaveCharacter(Control):
    character: CardMap
    replaces: str | None = None


class CsvImport(Control):
    text: Annotated[str, StringConstraints(max_length=MAX_TEXT)]


class SaveDeck(Control):
    deck: DeckData


class DeckCode(Control):
    code: Annotated[str, StringConstraints(max_length=4000)]
    deck_id: SetId


class SeatDeck(Control):
    seat: Seat
    set: SetId
    deck: SetId
    hand: list[str] | None = Field(None, description="the opening hand, 5 non-special cards of the deck (guide 3.4.1)")
    list: List[str] | None = Field(None, description="the opening list, 9 more")


class StartTable(Control):
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    priority: Seat | None = None


class Plain(Control):
    pass


def _characters(library, set_id, *ids):
    if set_id is None:
        return tuple(None for _ in ids)
    chars = {c.get("id"): c for c in library.view(set_id).get("characters") or []}
    return tuple(copy.deepcopy(chars.get(i)) if i else None for i in ids)


def _names(library, set_id):
    """The set's token names for the generated text (none for an unknown set)."""
    if set_id is None:
        return None
    try:
        return cardtext.token_names(library.view(set_id).get("characters"))
    except LibraryError:
        return None


def library_work(hub):
    """The library's worker of a display hub (one per app)."""
    w = getattr(hub, "library_work", None)
    if w is None:
        w = hub.library_work = LibraryWork()
    return w


def router(ctl, library):
    table, bearer, claim, done = ctl.table, ctl.bearer, ctl.claim, ctl.done
    work = library_work(ctl.hub)
    # the decks registered for the seats live on the table (kept in its record): admin-only
    # until the game starts (an opening is hidden information)
    r = APIRouter()

    # ------------------------------------------------------------ the page and public reads
    @r.get("/cards", include_in_schema=False)
    async def page():
        return FileResponse(STATIC_DIR / "cards.html", headers={"Cache-Control": "no-cache"})

    @r.get("/api/cards/vocabulary", tags=["cards"], summary="The effect registry for the editor's form")
    async def get_vocabulary():
        return await work(vocabulary)

    @r.get("/api/cards/sets", tags=["cards"], summary="The card sets of this hub's library")
    async def get_sets():
        return {"sets": await work(library.sets)}

    @r.get("/api/cards/sets/{set_id}", tags=["cards"], summary="One card set: its characters and cards as data")
    async def get_set(set_id: SetId):
        return Response(await work(library.set_json, set_id), media_type="application/json")

    @r.get("/api/cards/sets/{set_id}/export", tags=["cards"], summary="The card set as one YAML file")
    async def export_set(set_id: SetId, download: bool = False):
        text = await work(library.export_set, set_id)
        headers = {"Content-Disposition": 'attachment; filename="%s.yaml"' % set_id} if download else None
        return Response(text, media_type="application/yaml; charset=utf-8", headers=headers)

    @r.get("/api/cards/search", tags=["cards"], summary="Search the library by name, mark, kind, speed, position")
    async def search(q: str | None = None, set: SetId | None = None, mark: str | None = None,
                     kind: Literal["attack", "defense", "special"] | None = None,
                     speed: Annotated[str | None, Query(pattern=r"^\d{1,2}(-\d{1,2})?$")] = None,
                     position: Literal["high", "mid", "low"] | None = None):
        return {"cards": await work(library.search, q=q, set_id=set, mark=mark, kind=kind, speed=speed,
                                    position=position)}

    @r.get("/api/cards/sets/{set_id}/cards/{card_id}", tags=["cards"], summary="One card as data, with its generated text")
    async def get_card(set_id: SetId, card_id: str):
        def read():
            c = library.card(set_id, card_id)
            return {"set": set_id, "card": c, "text": cardtext.both(c, _names(library, set_id))}
        return await work(read)

    @r.post("/api/cards/lint", tags=["cards"], summary="Check a card as you type (nothing is saved): problems by field and the generated text")
    async def lint(body: LintBody):
        return await work(lambda: {"problems": library.lint_card(body.set, body.card, body.replaces),
                                   "text": cardtext.both(body.card, _names(library, body.set))})

    @r.post("/api/cards/lint-character", tags=["cards"], summary="Check a character as you type (nothing is saved)")
    async def lint_character(body: LintCharacter):
        effects = ((body.character.get("trait") or {}).get("effects") or []) if isinstance(body.character.get("trait"), dict) else []
        return await work(lambda: {
            "problems": library.lint_character(body.set, body.character, body.replaces),
            "text": {lang: [cardtext.entry_text(e, lang, True, cardtext.token_names([body.character]))
                            for e in effects if isinstance(e, dict)] for lang in ("ko", "en")}})

    @r.post("/api/cards/try", tags=["cards"], summary="Try it: the card against another, judged by the engine")
    async def try_it(body: TryBody):
        return await work(_try_it, library, body)

    @r.post("/api/cards/deck-status", tags=["cards"], summary="Guide 4.5's deck-building checks, live, for a deck being built")
    async def status(body: StatusBody):
        def check():
            cs = library.cardset(body.set)
            items = deck_status(cs, body.character, body.cards, body.ultimate)
            return {"items": items, "ok": all(i["ok"] for i in items)}
        return await work(check)

    # ------------------------------------------------------------ decks (admin reads)
    @r.get("/api/admin/cards/decks", tags=["cards"], summary="Every deck of the library, checked")
    async def get_decks(_=Depends(bearer)):
        return {"decks": await work(library.decks)}

    @r.get("/api/admin/cards/sets/{set_id}/decks/{deck_id}", tags=["cards"], summary="One deck with its checks")
    async def get_deck(set_id: SetId, deck_id: SetId, _=Depends(bearer)):
        def read():
            d = library.deck_raw(set_id, deck_id)
            items = deck_status(library.cardset(set_id), d.get("character"), d.get("cards") or [], d.get("ultimate"))
            return {"set": set_id, "id": deck_id, "deck": d, "items": items}
        return await work(read)

    @r.get("/api/admin/cards/sets/{set_id}/decks/{deck_id}/code", tags=["cards"], summary="The deck as a text code and a QR code")
    async def get_code(set_id: SetId, deck_id: SetId, _=Depends(bearer)):
        def read():
            code = deckcode.encode(library, set_id, deck_id)
            return {"code": code, "svg": deckcode.qr_svg(code)}
        return await work(read)

    @r.get("/api/admin/cards/table", tags=["cards"], summary="The decks registered for this table's seats, with their openings")
    async def get_table(_=Depends(bearer)):
        return {"seats": table.registered}

    # ------------------------------------------------------------ writes (control)
    @r.post("/api/control/cards/sets", tags=["cards"], summary="Create an empty card set")
    async def new_set(body: NewSet, _=Depends(bearer)):
        claim(body.action_id)
        await work(library.create_set, body.id, body.name, body.name_en)
        return {"ok": True, "action_id": body.action_id, "set": body.id}

    @r.post("/api/control/cards/import", tags=["cards"], summary="Import a card set file (YAML or JSON) as a new set")
    async def import_set(body: ImportSet, _=Depends(bearer)):
        claim(body.action_id)
        sid = await work(library.import_set, body.text, body.set_id)
        return {"ok": True, "action_id": body.action_id, "set": sid}

    @r.post("/api/control/cards/sets/{set_id}/cards", tags=["cards"], summary="Save a card (new, or replacing `replaces`)")
    async def save_card(set_id: SetId, body: SaveCard, _=Depends(bearer)):
        claim(body.action_id)
        broken = await work(library.save_card, set_id, body.card, body.replaces)
        return {"ok": True, "action_id": body.action_id, "card": body.card.get("id"), "decks_broken": broken}

    @r.post("/api/control/cards/sets/{set_id}/characters", tags=["cards"], summary="Save a character (new, or replacing `replaces`)")
    async def save_character(set_id: SetId, body: SaveCharacter, _=Depends(bearer)):
        claim(body.action_id)
        broken = await work(library.save_character, set_id, body.character, body.replaces)
        return {"ok": True, "action_id": body.action_id, "character": body.character.get("id"), "decks_broken": broken}

    @r.post("/api/control/cards/sets/{set_id}/cards/{card_id}/delete", tags=["cards"], summary="Delete a card")
    async def delete_card(set_id: SetId, card_id: str, body: Plain, _=Depends(bearer)):
        claim(body.action_id)
        broken = await work(library.delete_card, set_id, card_id)
        return {"ok": True, "action_id": body.action_id, "decks_broken": broken}

    @r.post("/api/control/cards/sets/{set_id}/csv", tags=["cards"], summary="Import card stats from a CSV sheet into the set")
    async def csv_import(set_id: SetId, body: CsvImport, _=Depends(bearer)):
        await work(library.view, set_id)
        try:
            cards = await work(read_csv, body.text)
        except CsvError as e:
            return _fail(422, "invalid", "the sheet has problems; nothing was imported: " + str(e),
                         "시트에 문제가 있어 가져오지 않았습니다", e.problems)
        claim(body.action_id)
        broken = await work(library.replace_cards, set_id, cards)
        return {"ok": True, "action_id": body.action_id, "cards": [c["id"] for c in cards], "decks_broken": broken}

    @r.post("/api/control/cards/sets/{set_id}/decks/{deck_id}", tags=["cards"], summary="Save a deck (guide 4.5 checks)")
    async def save_deck(set_id: SetId, deck_id: SetId, body: SaveDeck, _=Depends(bearer)):
        claim(body.action_id)
        d = await work(library.save_deck, set_id, deck_id, body.deck.model_dump())
        return {"ok": True, "action_id": body.action_id, "deck": d}

    @r.post("/api/control/cards/sets/{set_id}/decks/{deck_id}/delete", tags=["cards"], summary="Delete a deck")
    async def delete_deck(set_id: SetId, deck_id: SetId, body: Plain, _=Depends(bearer)):
        claim(body.action_id)
        await work(library.delete_deck, set_id, deck_id)
        return {"ok": True, "action_id": body.action_id}

    @r.post("/api/control/cards/deck-code", tags=["cards"],
            summary="Save a deck from a deck code (refused, naming the cards, if this hub's set differs)")
    async def from_code(body: DeckCode, _=Depends(bearer)):
        sid, want, same, same_set = await work(_resolve_code, library, body.code)
        claim(body.action_id)
        if same is not None:
            return {"ok": True, "action_id": body.action_id, "set": sid, "deck": want, "deck_id": same, "saved": False,
                    "same_set": same_set}
        d = await work(library.save_deck, sid, body.deck_id, want)
        return {"ok": True, "action_id": body.action_id, "set": sid, "deck": d, "deck_id": body.deck_id, "saved": True,
                "same_set": same_set}

    @r.post("/api/control/cards/table/seat", tags=["cards"],
            summary="Register a deck for a seat, with its opening (5 hand + 9 list, guide 3.4.1)")
    async def seat_deck(body: SeatDeck, _=Depends(bearer)):
        def check():
            deck = library.deck(body.set, body.deck)
            entry = {"set": body.set, "deck": body.deck, "name": deck.name, "hand": None, "list": None}
            if body.hand is not None or body.list is not None:
                probs = opening_problems(deck.cardset, deck.cards, body.hand or [], body.list or [])
                if probs:
                    return None, _fail(422, "invalid", "not an opening of this deck: " + "; ".join(p["en"] for p in probs),
                                       "이 덱의 시작 패·리스트가 아닙니다: " + "; ".join(p["ko"] for p in probs),
                                       [{"field": None, "message": p["en"]} for p in probs])
                entry.update(hand=list(body.hand or []), list=list(body.list or []))
            return entry, None
        entry, refused = await work(check)
        if refused is not None:
            return refused
        with claim(body.action_id):
            seats = table.register_deck(body.seat, entry)
        return {"ok": True, "action_id": body.action_id, "seats": seats}

    @r.post("/api/control/cards/table/start", tags=["cards"],
            summary="Start a referee game with the registered decks; each seat's opening is its setup")
    async def start(body: StartTable, _=Depends(bearer)):
        seats = table.registered
        missing = [s for s in ("a", "b") if s not in seats]
        if missing:
            return _fail(409, "refused", "no deck registered for seat %s" % ", ".join(missing),
                         "%s 좌석에 등록된 덱이 없습니다" % ", ".join(missing))
        decks = await work(_table_decks, library, seats)
        clash = sorted(cid for cid in set(decks["a"].cardset.cards) & set(decks["b"].cardset.cards)
                       if decks["a"].cardset.cards[cid].to_json() != decks["b"].cardset.cards[cid].to_json())
        if clash:
            return _fail(409, "conflict", "the two decks' sets define these card ids differently: %s" % ", ".join(clash),
                         "두 덱의 세트가 같은 카드 id를 다르게 정의합니다: %s" % ", ".join(clash))
        claim(body.action_id)
        try:
            # the registered opening is the seat's setup (a hidden decision, answered by the
            # table); without one, the deck's order, as for the pods (RefereeSession.auto_setup)
            table.start_referee(decks["a"], decks["b"], seed=body.seed, priority=body.priority,
                                openings={s: {"hand": seats[s]["hand"], "list": seats[s]["list"]}
                                          if seats[s]["hand"] else None for s in ("a", "b")},
                                meta={"registered": {s: {"set": seats[s]["set"], "deck": seats[s]["deck"]}
                                                     for s in ("a", "b")}})
        except (SessionError, IllegalDecision) as err:
            raise ctl.refused(err) from None
        return done(body.action_id, game_id=table.session.game_id)

    return r


def _try_it(library, body):
    """Try it (on the library's thread)."""
    other = body.against
    if other is None:
        if not body.against_set or not body.against_id:
            return _fail(422, "invalid_request", "name the opposing card (against_set and against_id) or give it",
                         "상대 카드를 고르세요")
        other = library.card(body.against_set, body.against_id)
    chars = (_characters(library, body.set, body.character_a)[0],
             _characters(library, body.against_set or body.set, body.character_b)[0])
    try:
        return judge(body.card, other, fp=(body.fp_a, body.fp_b), characters=chars)
    except TrialError as e:
        return _fail(422, "invalid", str(e), "판정할 수 없습니다: %s" % e)


def _resolve_code(library, code):
    """A deck code against this library (on its thread): (set, deck, the existing deck id in a
    read-only set or None, same_set). A read-only set without that deck is refused."""
    got = deckcode.resolve(library, code)
    sid, want = got["set"], got["deck"]
    same = None
    if not library.writable(sid):
        # a read-only set (the sample) takes no new deck: the code is fine if the deck is already there
        key = lambda d: (d.get("character"), list(d.get("cards") or []), d.get("ultimate"))   # noqa: E731
        same = next((did for did in library.deck_ids(sid) if key(library.deck_raw(sid, did)) == key(want)), None)
        if same is None:
            raise LibraryError("read_only", "set %r is read-only here and has no such deck: build it in your own set" % sid,
                               "세트 %r은(는) 읽기 전용이고 이 덱이 없습니다: 자신의 세트에 만드세요" % sid)
        want = library.deck_raw(sid, same)
    return sid, want, same, got["same_set"]


def _table_decks(library, seats):
    """The registered seats' decks in their openings' order (on the library's thread)."""
    decks = {}
    for s in ("a", "b"):
        e = seats[s]
        d = library.deck(e["set"], e["deck"])
        order = ordered_cards(d.cards, e["hand"], e["list"]) if e["hand"] else list(d.cards)
        decks[s] = Deck(d.path, d.name, d.cardset, d.character, order, d.ultimate)
    return decks


class LibraryWork:
    """The card library's work (YAML read and written, sets checked, exports) on a thread of
    its own, one job at a time (issue 28.10): a 2 MB set's import took the display's loop for
    10 s. At most ``MAX_WAITING`` jobs wait: past that the answer is 503 ``busy`` (a spectator
    repeating exports can't queue the hub's afternoon)."""

    MAX_WAITING = 8

    def __init__(self):
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="lumen-library")
        self.waiting = 0

    async def __call__(self, fn, *args, **kw):
        if self.waiting >= self.MAX_WAITING:
            raise ApiError(503, "busy", "the card library is busy with %d requests: try again in a moment" % self.waiting)
        self.waiting += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self.pool, functools.partial(fn, *args, **kw))
        finally:
            self.waiting -= 1



def install(app, ctl, library):
    """Add the cards router to ``app`` (its error handler, :func:`library_error`, is the app's:
    hub/web/app.py registers it at start, before these routes are declared)."""
    app.include_router(router(ctl, library))
