"""Tournaments over HTTP (docs/protocol.md 14), through the hall's service
(``hall/tournaments.py``): the list, one tournament, creating one, joining (alone or with a
partner), pausing, leaving; the operators' cancel and computer entrants (for demos)."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError
from ..hall.accounts import StoredPlayer
from ..hall.options import BotLevel, Options, capped
from ..hall.seating import Person
from ..hall.tournaments import Plan, Tournaments, rated_options
from .accounts import normal_username
from .api import accounts_of, current_player, fields_of

CREATE_FIELDS = (
    "name",
    "kind",
    "preset",
    "target",
    "seats",
    "timer",
    "cap",
    "minutes",
    "rounds",
    "starts_in",
    "invitation_only",
    "pairs",
    "rated",
    "round_days",
)


def _tournaments(request: Request) -> Tournaments:
    return request.app.state.tournaments  # type: ignore[no-any-return]


async def _account(request: Request) -> StoredPlayer:
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first")
    if player.username is None:
        raise HallError("account_needed", "tournaments are for accounts")
    return player


async def _is_operator(request: Request, player: StoredPlayer) -> bool:
    return bool(await request.app.state.moderating.is_operator(player.id))


async def _operator(request: Request) -> StoredPlayer:
    player = await current_player(request)
    if player is None or not await _is_operator(request, player):
        raise HallError("not_operator", "there is no such page")
    return player


def _id(request: Request) -> str:
    return str(request.path_params["tournament_id"])


async def listed(request: Request) -> Response:
    """``GET /api/tournaments``: those the home page lists (not invitation-only)."""
    return JSONResponse({"tournaments": await _tournaments(request).listed()})


async def one(request: Request) -> Response:
    """``GET /api/tournaments/{id}``: anyone with the link."""
    return JSONResponse({"tournament": await _tournaments(request).get(_id(request))})


async def create(request: Request) -> Response:
    """``POST /api/tournaments``: an account's (limited a day) or an operator's."""
    me = await _account(request)
    body = await fields_of(request)
    body.only(CREATE_FIELDS, code="bad_option")
    options = Options.choose(
        preset=body.text("preset"),
        target=body.integer("target"),
        seats=body.integer("seats"),
        timer=body.text("timer"),
    )
    options = capped(options, body.integer("cap"))
    rated = bool(body.flag("rated"))
    if rated:  # the games are ranked games of the preset's pool (RULES.md 6)
        options = rated_options(options)
    service = _tournaments(request)
    plan = Plan(
        body.text("name", required=True) or "",
        body.text("kind", required=True) or "",
        options,
        service.clock.now() + (body.integer("starts_in", minimum=0) or 0),
        minutes=body.integer("minutes"),
        rounds=body.integer("rounds"),
        invitation_only=bool(body.flag("invitation_only")),
        pairs=bool(body.flag("pairs")),
        rated=rated,
        round_days=body.integer("round_days"),
    )
    creator = None if await _is_operator(request, me) else Person(me.id, me.name)
    return JSONResponse({"tournament": await service.create(creator, plan)}, status_code=201)


async def join(request: Request) -> Response:
    """``POST /api/tournaments/{id}/join``: ``{"partner": username}`` for a fixed pair."""
    me = await _account(request)
    body = await fields_of(request)
    body.only(("partner",), code="bad_option")
    partner = None
    username = body.text("partner")
    if username is not None:
        found = await accounts_of(request).player_by_username(normal_username(username))
        if found is None:
            raise HallError("no_player", "no player {username!r}", username=username)
        partner = Person(found.id, found.name)
    answer = await _tournaments(request).join(Person(me.id, me.name), _id(request), partner)
    return JSONResponse({"tournament": answer})


async def pause(request: Request) -> Response:
    """``POST /api/tournaments/{id}/pause`` (and ``/leave``): paired no more until joined again
    (a swiss: withdrawn)."""
    me = await _account(request)
    answer = await _tournaments(request).pause(Person(me.id, me.name), _id(request))
    return JSONResponse({"tournament": answer})


async def cancel(request: Request) -> Response:
    """``POST /api/tournaments/{id}/cancel``: operators only."""
    await _operator(request)
    return JSONResponse({"tournament": await _tournaments(request).cancel(_id(request))})


async def computers(request: Request) -> Response:
    """``POST /api/tournaments/{id}/computers`` ``{"count": n, "level": ...}``: operators only,
    computer players entered as entrants (demonstrations and load tests)."""
    await _operator(request)
    body = await fields_of(request)
    body.only(("count", "level"), code="bad_option")
    count = body.integer("count", minimum=1, required=True) or 1
    if count > 500:
        raise HallError("bad_option", "at most 500 computer entrants at once")
    level = BotLevel.named(body.text("level") or "normal")
    answer = await _tournaments(request).seat_computers(_id(request), count, level)
    return JSONResponse({"tournament": answer})
