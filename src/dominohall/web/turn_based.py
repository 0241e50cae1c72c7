"""Turn-based play over HTTP (docs/protocol.md): the timers a table may choose, and vacations."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import Hall
from .api import fields_of, signed_in
from .offered import timers_json


def _hall(request: Request) -> Hall:
    return request.app.state.hall  # type: ignore[no-any-return]


async def timers(request: Request) -> Response:
    """Every timer a table may choose: the real-time ones and the turn-based clocks."""
    return JSONResponse({"timers": timers_json()})


async def vacation(request: Request) -> Response:
    """The signed-in player's vacation: under way or not, and the days left this year."""
    person = await signed_in(request)
    return JSONResponse(await _hall(request).turn_based.vacation(person.id))


async def start_vacation(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("days",))
    days = body.integer("days", required=True)
    return JSONResponse(await _hall(request).turn_based.start_vacation(person.id, days))


async def end_vacation(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(())
    return JSONResponse(await _hall(request).turn_based.end_vacation(person.id))
