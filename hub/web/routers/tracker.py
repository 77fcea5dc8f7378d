"""Tracker control: one typed command per tracker action (the request models), as from the pods."""

from typing import Annotated, Literal, Union

from fastapi import APIRouter, Depends
from pydantic import Field

from engine import IllegalDecision

from hub.sessions.base import SessionError
from hub.web.common import ApiError, Control, Delta, Name, Seat, SmallDelta, StrictModel, character_or_404


class _Cmd(StrictModel):
    pass


class AdjustHealth(_Cmd):
    action: Literal["adjust_health"]
    seat: Seat
    delta: Delta


class SetHealth(_Cmd):
    action: Literal["set_health"]
    seat: Seat
    health: Delta


class AdjustFp(_Cmd):
    action: Literal["adjust_fp"]
    seat: Seat
    delta: SmallDelta


class ResetFp(_Cmd):
    action: Literal["reset_fp"]
    seat: Seat


class SetHandCount(_Cmd):
    action: Literal["set_hand_count"]
    seat: Seat
    count: Annotated[int, Field(ge=0, le=99)] | None


class TokenCmd(_Cmd):
    action: Literal["token"]
    seat: Seat
    name: Name | None = None
    delta: SmallDelta


class SetToken(_Cmd):
    action: Literal["set_token"]
    seat: Seat
    name: Name | None = None
    value: Annotated[int, Field(ge=0, le=999)]


class SetStance(_Cmd):
    action: Literal["set_stance"]
    seat: Seat
    stance: Name | None


class SetTrait(_Cmd):
    action: Literal["set_trait"]
    seat: Seat
    on: bool


class ApplyBattle(_Cmd):
    action: Literal["apply_battle"]
    health: dict[Seat, Delta] | None = None
    fp: dict[Seat, SmallDelta] | None = None


class NextTurn(_Cmd):
    action: Literal["next_turn"]


class RecordNonResponse(_Cmd):
    action: Literal["record_non_response"]
    seat: Seat


class SetCharacter(_Cmd):
    action: Literal["set_character"]
    seat: Seat
    character: Name


class NewGame(_Cmd):
    action: Literal["new_game"]
    a: Name | None = None
    b: Name | None = None
    priority: Seat | None = None
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = None


class Reset(_Cmd):
    action: Literal["reset"]


class Undo(_Cmd):
    action: Literal["undo"]


TrackerCommand = Annotated[Union[AdjustHealth, SetHealth, AdjustFp, ResetFp, SetHandCount, TokenCmd, SetToken,
                                 SetStance, SetTrait, ApplyBattle, NextTurn, RecordNonResponse, SetCharacter,
                                 NewGame, Reset, Undo], Field(discriminator="action")]


class TrackerAction(Control):
    command: TrackerCommand


def router(ctl):
    table, bearer = ctl.table, ctl.bearer
    claim, refused, done = ctl.claim, ctl.refused, ctl.done
    router = APIRouter()

    @router.post("/api/control/tracker", tags=["control"],
                 summary="A tracker-mode action (health, FP, tokens, turn, undo...), as from the pods")
    async def tracker_action(body: TrackerAction, _=Depends(bearer)):
        s = table.session
        if s is None:
            raise ApiError(409, "no_game", "no game is running at this table")
        if not s.takes_actions:
            raise ApiError(409, "wrong_mode", "tracker actions need a tracker game (this one is %s)" % s.mode)
        cmd = body.command.model_dump()
        if cmd["action"] == "set_character":
            character_or_404(cmd["character"])
        if cmd["action"] == "new_game":
            character_or_404(cmd["a"])
            character_or_404(cmd["b"])
        seat = cmd.get("seat") if cmd.get("seat") in ("a", "b") else None
        with claim(body.action_id):
            try:
                entries = table.submit(seat, "action", cmd, source="display")
            except (SessionError, IllegalDecision) as e:
                raise refused(e) from None
        return done(body.action_id, entries=entries)

    return router
