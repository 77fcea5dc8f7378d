"""Games: the history and exports (public), the decks and roster, starting and resuming
games, and the public decisions taken at the table."""

from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Query
from fastapi.responses import JSONResponse
from pydantic import Field, StringConstraints

from engine import IllegalDecision

from hub.bot.meta import practice_meta
from hub.sessions import roster
from hub.sessions.base import SessionError
from hub.web.common import AnySeat, ApiError, Control, Empty, GameId, Name, Seat


class StartGame(Control):
    mode: Literal["referee", "tracker", "profile"]
    a: Name | None = Field(None, description="referee: 1P's sample deck id; tracker: 1P's roster character id or Korean "
                                             "name; profile: 1P's character in the profile's card set (none: no card data)")
    b: Name | None = Field(None, description="referee: 2P's deck; tracker: 2P's character; profile: 2P's character")
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None
    priority: Seat | None = Field(None, description="first priority (a profile game: who, or whose team, goes first); "
                                                    "null = coin toss")
    names: dict[AnySeat, Annotated[str, StringConstraints(max_length=40)]] | None = Field(
        None, description="the players' names per seat (shown on the display, kept in the record)")
    bot: Seat | None = Field(None, description="referee: the hub's bot plays this seat (practice against it)")
    level: Literal["easy", "normal", "strong"] = Field("strong", description="the bot's level")
    coach: list[Seat] | None = Field(None, description="referee: seats the coach explains after each reveal "
                                                        "(a bot's seat: what it thought); kept in the record")
    profile: Name | None = Field(None, description="profile mode: the game (GET /api/profiles: battlecon, yojeong, gundam)")
    players: Literal[2, 4] | None = Field(None, description="profile mode: the seats (4: 2 on 2, where the profile allows it)")
    sides: dict[AnySeat, Name] | None = Field(None, description="profile mode: each seat's character in the card set")
    card_set: Name | None = Field(None, description="profile mode: the card set (default: the profile kind's first)")


class Decision(Control):
    seat: AnySeat
    kind: Literal["ready", "get", "discard", "combo", "catch", "nullify", "choose", "pick", "replenish", "setup",
                  "ante", "priority", "end_turn"]
    value: Any = True


def router(ctl):
    table, bearer = ctl.table, ctl.bearer
    claim, game_or_404, refused, done = ctl.claim, ctl.game_or_404, ctl.refused, ctl.done
    router = APIRouter()

    @router.get("/api/games", tags=["public"], summary="Recent games of this table, newest first (game history)")
    async def get_games(limit: Annotated[int, Query(ge=1, le=100)] = 10):
        return {"games": table.games(limit)}

    @router.get("/api/games/{game_id}", tags=["public"], summary="One game's summary")
    async def get_game(game_id: GameId):
        game_or_404(game_id)
        from hub.record.store import public_start
        g = table.store.game(game_id)
        return dict(g, start=public_start(g["start"] or {}))

    @router.get("/api/games/{game_id}/export", tags=["public"],
                summary="Match export (lumen-match/1): everything once finished, only the public record before")
    async def get_export(game_id: GameId, download: bool = False):
        game_or_404(game_id)
        data = table.export(game_id)
        headers = {"Content-Disposition": 'attachment; filename="lumen-match-%d.json"' % game_id} if download else None
        return JSONResponse(data, headers=headers)

    @router.get("/api/games/{game_id}/judge-log", tags=["public"],
                summary="The judge log: ready stamps, commitments, deadlines, reveals")
    async def get_judge_log(game_id: GameId):
        game_or_404(game_id)
        return {"game_id": game_id, "records": [r.to_json() for r in table.store.records(game_id, kinds=("judge",))]}

    @router.get("/api/roster", tags=["public"], summary="Tracker characters: start health, hand limits, tokens")
    async def get_roster():
        return {"characters": [c.to_json() for c in roster.ROSTER]}

    @router.get("/api/decks", tags=["public"], summary="The sample decks a referee game can use")
    async def get_decks():
        return {"decks": [{"id": k, "name": d.name, "character": d.character.name,
                           "character_en": d.character.name_en} for k, d in sorted(_sample_decks().items())]}

    # -- control
    @router.post("/api/control/games", tags=["control"], summary="Start a referee or tracker game at this table")
    async def start_game(body: StartGame, _=Depends(bearer)):
        try:
            with claim(body.action_id):
                meta = practice_meta(body.bot, body.level, body.coach)
                table.start(body.mode, body.a, body.b, seed=body.seed, priority=body.priority, names=body.names,
                            profile=body.profile, players=body.players, sides=body.sides, card_set=body.card_set,
                            **({"meta": meta} if meta else {}))
        except (SessionError, IllegalDecision) as e:
            raise refused(e) from None
        return done(body.action_id, game_id=table.session.game_id)

    @router.post("/api/control/games/{game_id}/resume", tags=["control"], summary="Resume a recent game")
    async def resume_game(game_id: GameId, body: Empty, _=Depends(bearer)):
        game_or_404(game_id)
        with claim(body.action_id):
            try:
                table.resume(game_id)
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id, game_id=game_id)

    @router.post("/api/control/games/{game_id}/close", tags=["control"],
                 summary="Close a game nobody will finish: it leaves the recent games (its record stays; "
                         "resuming it opens it again). Not the game on the table")
    async def close_game(game_id: GameId, body: Empty, _=Depends(bearer)):
        game_or_404(game_id)
        with claim(body.action_id):
            try:
                table.close_game(game_id)
            except SessionError as e:
                raise refused(e) from None
        return done(body.action_id, game_id=game_id)

    @router.post("/api/control/decision", tags=["control"],
                 summary="A public decision from the table (tracker: a bare ready lock; referee: get, combo, ...)")
    async def decision(body: Decision, _=Depends(bearer)):
        s = table.session
        if s is None:
            raise ApiError(409, "no_game", "no game is running at this table")
        try:
            s.check_display_decision(body.seat, body.kind, body.value)
        except SessionError as e:
            raise refused(e) from None
        with claim(body.action_id):
            try:
                table.submit(body.seat, body.kind, body.value, source="display")
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id)

    return router


_SAMPLE = None


def _sample_decks():
    global _SAMPLE
    if _SAMPLE is None:
        from engine.cards import load_sample
        _SAMPLE = load_sample()[1]
    return _SAMPLE
