"""The way back to a game (docs/protocol.md 2): the tables a player sits at, and a rematch.

Kept apart from `api.py`: these answers are about one player's games across tables.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import Hall
from .api import fields_of, signed_in


def _hall(request: Request) -> Hall:
    return request.app.state.hall  # type: ignore[no-any-return]


async def my_tables(request: Request) -> Response:
    """The unfinished tables the signed-in player is seated at, theirs to move first."""
    person = await signed_in(request)
    return JSONResponse({"tables": await _hall(request).my_tables(person.id)})


async def rematch(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("accept",))
    accept = body.flag("accept")
    hall = _hall(request)
    answer = await hall.answer_rematch(
        person, request.path_params["table_id"], True if accept is None else accept
    )
    return JSONResponse(answer)
