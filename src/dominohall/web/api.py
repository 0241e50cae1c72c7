"""The HTTP JSON API of docs/protocol.md: players, tables, game records, health."""

from __future__ import annotations

from typing import Any

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from ..hall import Hall, HallError, Person
from ..hall.options import FIELDS as OPTION_FIELDS
from ..rules import PRESET_LIST
from ..rules.record import dumps
from ..store import Store, StoredPlayer
from . import accounts
from .answers import table_answer
from .auth import Cookies
from .fields import Fields, parse


def _hall(request: Request) -> Hall:
    return request.app.state.hall  # type: ignore[no-any-return]


def _store(request: HTTPConnection) -> Store:
    return request.app.state.store  # type: ignore[no-any-return]


def _cookies(request: HTTPConnection) -> Cookies:
    return request.app.state.cookies  # type: ignore[no-any-return]


async def fields_of(request: Request) -> Fields:
    """The body's JSON object (none: an empty one); a field of the wrong type is a ``bad_request``."""
    try:
        raw = await request.body()
    except ClientDisconnect:
        raise HallError("bad_request", "the request was cut off") from None
    return Fields(parse(raw) if raw else {}, "bad_request", "the body")


async def body_of(request: Request) -> dict[str, Any]:
    return (await fields_of(request)).obj


async def current_player(request: HTTPConnection) -> StoredPlayer | None:
    """The player a request or a socket's cookie names, if any."""
    player_id = _cookies(request).player_id(request)
    return await _store(request).player(player_id) if player_id else None


async def signed_in(request: Request) -> Person:
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first (as a guest or with an account)", 401)
    return Person(player.id, player.name)


def _signed(request: Request, player: StoredPlayer | None) -> JSONResponse:
    response = JSONResponse({"player": accounts.player_json(player)})
    if player is None:
        _cookies(request).sign_out(response)
    else:
        _cookies(request).sign_in(response, player.id)
    return response


# Health -------------------------------------------------------------------------------------
async def healthz(request: Request) -> Response:
    if not _hall(request).ready:
        return JSONResponse({"ok": False}, status_code=503)
    return JSONResponse({"ok": True})


# Players ------------------------------------------------------------------------------------
async def me(request: Request) -> Response:
    return JSONResponse({"player": accounts.player_json(await current_player(request))})


async def guest(request: Request) -> Response:
    body = await body_of(request)
    player = await current_player(request)
    if player is not None:
        player = await accounts.rename(_store(request), player, body.get("name"))
    else:
        player = await accounts.new_guest(_store(request), body.get("name"))
    return _signed(request, player)


async def new_account(request: Request) -> Response:
    body = await body_of(request)
    player = await accounts.new_account(
        _store(request),
        await current_player(request),
        body.get("username"),
        body.get("password"),
        body.get("name"),
    )
    return _signed(request, player)


async def sign_in(request: Request) -> Response:
    body = await body_of(request)
    player = await accounts.sign_in(_store(request), body.get("username"), body.get("password"))
    return _signed(request, player)


async def sign_out(request: Request) -> Response:
    return _signed(request, None)


# Tables -------------------------------------------------------------------------------------
async def presets(request: Request) -> Response:
    return JSONResponse({"presets": [p.as_dict() for p in PRESET_LIST]})


async def open_tables(request: Request) -> Response:
    return JSONResponse({"tables": _hall(request).open_tables()})


async def create_table(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(OPTION_FIELDS, code="bad_option")
    options = {
        "preset": body.text("preset"),
        "target": body.integer("target"),
        "seats": body.integer("seats"),
        "timer": body.text("timer"),
        "private": body.flag("private"),
        "bots": body.texts_or_nulls("bots"),
    }
    state = await _hall(request).create_table(person, _given(options))
    return table_answer(state, seat=0)


async def play_with_bots(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("preset", "bot"), code="bad_option")
    wanted = _given({"preset": body.text("preset"), "bot": body.text("bot")})
    state = await _hall(request).play_with_bots(person, wanted)
    return table_answer(state, seat=0)


def _given(fields: dict[str, Any]) -> dict[str, Any]:
    """The fields given: the hall's defaults stand for the ones left out (or null)."""
    return {key: value for key, value in fields.items() if value is not None}


async def table(request: Request) -> Response:
    room = await _hall(request).room(request.path_params["table_id"])
    return table_answer(room.state)


async def join(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("seat",))
    seat = body.integer("seat")  # none: the first free seat
    hall = _hall(request)
    table_id = request.path_params["table_id"]
    seat = await hall.join(person, table_id, seat)
    return table_answer((await hall.room(table_id)).state, seat=seat)


async def seat_bot(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("seat", "bot"))
    seat = body.integer("seat", required=True)
    bot = body.text("bot", required=True)
    table_id = request.path_params["table_id"]
    return table_answer(await _hall(request).seat_bot(person, table_id, seat, bot))


async def remove(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("seat",))
    seat = body.integer("seat", required=True)
    table_id = request.path_params["table_id"]
    return table_answer(await _hall(request).remove(person, table_id, seat))


async def start(request: Request) -> Response:
    person = await signed_in(request)
    (await fields_of(request)).only(())
    return table_answer(await _hall(request).start_game(person, request.path_params["table_id"]))


async def leave(request: Request) -> Response:
    person = await signed_in(request)
    (await fields_of(request)).only(())
    # The state the leave left, not a fresh look-up: a table that closed is no longer in memory.
    return table_answer(await _hall(request).leave(person, request.path_params["table_id"]))


# Records ------------------------------------------------------------------------------------
async def game_record(request: Request) -> Response:
    table_id = request.path_params["game_id"]
    record = await _store(request).record(table_id)
    if record is None:
        if await _store(request).table_finished(table_id) is False:
            raise HallError("game_not_over", "the game is not over yet", 409)
        # No such table, or one that closed before its game started.
        raise HallError("no_game", f"there is no game {table_id!r}", 404)
    return Response(
        dumps(record),  # as `dominohall record random` writes records: a line per move
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="dominohall-{table_id}.json"'},
    )
