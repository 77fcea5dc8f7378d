"""A profile game's table commands (counters, the turn, a loss entered, the next game,
undo), and the profiles this hub plays (public)."""

from typing import Annotated, Literal, Union

from fastapi import APIRouter, Depends
from pydantic import Field

from engine import IllegalDecision

from hub.profiles import profile as profiles
from hub.sessions.base import SessionError
from hub.web.common import AnySeat, ApiError, Control, Delta, StrictModel

CounterId = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[a-z0-9][a-z0-9_\-]*$")]


class Adjust(StrictModel):
    action: Literal["adjust"]
    seat: AnySeat
    counter: CounterId
    delta: Delta


class SetCounter(StrictModel):
    action: Literal["set"]
    seat: AnySeat
    counter: CounterId
    value: Delta


class NextTurn(StrictModel):
    action: Literal["next_turn"]


class Lose(StrictModel):
    action: Literal["lose"]
    seat: AnySeat


class NewGame(StrictModel):
    action: Literal["new_game"]


class Undo(StrictModel):
    action: Literal["undo"]


ProfileCommand = Annotated[Union[Adjust, SetCounter, NextTurn, Lose, NewGame, Undo], Field(discriminator="action")]


class ProfileAction(Control):
    command: ProfileCommand


def _profile_json(p):
    d = p.to_json()
    d.update(counters=[{"id": c["id"], "name": c["name"], "start": c["start"], "min": c["min"], "max": c["max"]}
                       for c in p.counters],
             turn=p.turn["name"], picks=[x["id"] for x in p.picks["parts"]] if p.picks else [],
             cards=p.body["cards"])
    return d


def router(ctl):
    table, bearer = ctl.table, ctl.bearer
    claim, refused, done = ctl.claim, ctl.refused, ctl.done
    router = APIRouter()

    @router.get("/api/profiles", tags=["public"], summary="The game profiles this hub plays, and their card sets")
    async def get_profiles():
        return {"profiles": [_profile_json(p) for p in profiles.bundled().values()],
                "card_sets": [s.to_json() for s in table.card_sets.values()]}

    @router.post("/api/control/profile", tags=["control"],
                 summary="A profile game's table command (a counter, the turn, a loss, the next game, undo)")
    async def profile_action(body: ProfileAction, _=Depends(bearer)):
        s = table.session
        if s is None:
            raise ApiError(409, "no_game", "no game is running at this table")
        if not s.takes_actions:
            raise ApiError(409, "wrong_mode", "table commands need a game that takes them (this one is %s)" % s.mode)
        cmd = body.command.model_dump()
        with claim(body.action_id):
            try:
                entries = table.submit(cmd.get("seat"), "action", cmd, source="display")
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id, entries=entries)

    return router
