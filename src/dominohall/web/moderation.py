"""The operators' page and its API (docs/moderation.md): ``/mod`` and ``/api/mod/...``, for
operators only (anyone else is answered 404, as if there were no such page): the open reports
with the chat around each, a time-out, a ban, closing a report, each with a reason. The actions
are the command line's (``hall/moderating.py``), logged with the operator who took them."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError, messages
from ..hall.accounts import StoredPlayer
from ..hall.moderating import DEFAULT_TIME_OUT_MINUTES, Moderating, ReportSeen, line_json
from .api import current_player, fields_of
from .assets import Assets


def _moderating(request: Request) -> Moderating:
    return request.app.state.moderating  # type: ignore[no-any-return]


async def _operator(request: Request) -> StoredPlayer:
    player = await current_player(request)
    if player is None or not await _moderating(request).is_operator(player.id):
        raise HallError("not_operator", "there is no such page")
    return player


def _who(player: StoredPlayer | None) -> messages.Who | None:
    if player is None:
        return None
    return {"id": player.id, "name": player.name, "username": player.username}


def _report_json(seen: ReportSeen) -> messages.ModReport:
    r = seen.report
    return {
        "id": r.id,
        "at": r.at,
        "reason": r.reason,
        "reporter": _who(seen.reporter),
        "reported": _who(seen.reported),
        "line": r.line_id,
        "context": [line_json(line, seen.names) for line in r.context],
    }


async def page(request: Request) -> Response:
    """The page itself (the app's one page), to operators only."""
    await _operator(request)
    assets: Assets = request.app.state.assets
    return assets.page(request)


async def reports(request: Request) -> Response:
    await _operator(request)
    found = await _moderating(request).reports()
    return JSONResponse({"reports": [_report_json(seen) for seen in found]})


async def time_out(request: Request) -> Response:
    operator = await _operator(request)
    fields = await fields_of(request)
    player = fields.text("player", required=True) or ""
    minutes = fields.integer("minutes", minimum=0)
    reason = fields.text("reason", required=True) or ""
    done = await _moderating(request).time_out(
        player, DEFAULT_TIME_OUT_MINUTES if minutes is None else minutes, operator.id, reason
    )
    return JSONResponse({"player": done.player_id, "until": done.until})


async def ban(request: Request) -> Response:
    operator = await _operator(request)
    fields = await fields_of(request)
    player = fields.text("player", required=True) or ""
    reason = fields.text("reason", required=True) or ""
    addresses = fields.obj.get("addresses", [])
    if not isinstance(addresses, list) or not all(isinstance(a, str) for a in addresses):
        raise HallError("bad_request", "'addresses' is a list of addresses (strings)")
    with_addresses = fields.flag("with_addresses") or False
    done = await _moderating(request).ban(
        player, operator.id, reason, addresses, with_addresses=with_addresses
    )
    return JSONResponse(
        {"player": done.player_id, "ban": done.id, "addresses": sorted(done.addresses)}
    )


async def close_report(request: Request) -> Response:
    operator = await _operator(request)
    fields = await fields_of(request)
    report = fields.integer("report", required=True, minimum=1)
    reason = fields.text("reason", required=True) or ""
    assert report is not None
    await _moderating(request).close_report(report, operator.id, reason)
    return JSONResponse({"report": report, "closed": True})
