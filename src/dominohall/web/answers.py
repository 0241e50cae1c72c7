"""Answers shared by the HTTP handlers: a table's summary, an error."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError
from ..hall.errors import store_unavailable
from ..hall.messages import TableSummary
from .language import error_answer
from .statuses import status_of


def table_answer(table: TableSummary, seat: int | None = None) -> JSONResponse:
    """A table's summary as the hall made it, with the asker's seat when they took one."""
    answer: dict[str, object] = {"table": table}
    if seat is not None:
        answer["seat"] = seat
    return JSONResponse(answer)


async def hall_error(request: Request, exc: Exception) -> Response:
    if not isinstance(exc, HallError):  # (``StoreUnavailable``: a read found the database away)
        exc = store_unavailable()
    assert isinstance(exc, HallError)
    retry_after = getattr(exc, "retry_after", None)  # a rate limit says when to come back
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return error_answer(exc, request, status_of(exc), **headers)
