"""Answers shared by the HTTP handlers: a table's summary, an error."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError, TableState
from ..hall.views import summary
from .statuses import status_of


def table_answer(state: TableState, seat: int | None = None) -> JSONResponse:
    answer: dict[str, object] = {"table": summary(state)}
    if seat is not None:
        answer["seat"] = seat
    return JSONResponse(answer)


async def hall_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HallError)
    retry_after = getattr(exc, "retry_after", None)  # a rate limit says when to come back
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else None
    return JSONResponse({"error": exc.to_json()}, status_code=status_of(exc), headers=headers)
