"""The HTTP JSON API of docs/protocol.md: players, tables, game records, health."""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.requests import ClientDisconnect, HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from .. import i18n
from ..hall import Hall, HallError, Person
from ..hall.accounts import Accounts, StoredPlayer
from ..hall.moderating import Moderating
from ..hall.options import BotLevel, Options
from ..rules import PRESET_LIST
from . import accounts
from .answers import table_answer
from .fields import Fields, parse
from .language import languages_json, set_language_cookie
from .offered import pools_json, timers_json
from .proxy import Proxies, address_key
from .ratelimit import Guard
from .sessions import Sessions

Handler = Callable[[Request], Awaitable[Response]]

OPTION_FIELDS = (
    "preset",
    "target",
    "seats",
    "timer",
    "private",
    "open_to_watchers",
    "bots",
)  # of a new table


def _hall(request: Request) -> Hall:
    return request.app.state.hall  # type: ignore[no-any-return]


def accounts_of(request: HTTPConnection) -> Accounts:
    return request.app.state.accounts  # type: ignore[no-any-return]


def sessions_of(request: HTTPConnection) -> Sessions:
    return request.app.state.sessions  # type: ignore[no-any-return]


def guard_of(request: HTTPConnection) -> Guard:
    return request.app.state.guard  # type: ignore[no-any-return]


def client_address(request: HTTPConnection) -> str:
    """The client's address as the limits count it (through trusted proxies only)."""
    proxies: Proxies = request.app.state.proxies
    return address_key(proxies.client(request.scope))


async def fields_of(request: Request) -> Fields:
    """The body's JSON object (none: an empty one); a field of the wrong type is a ``bad_request``."""
    try:
        raw = await request.body()
    except ClientDisconnect:
        raise HallError("bad_request", "the request was cut off") from None
    return Fields(
        parse(raw) if raw else {}, "bad_request", i18n.N_("the body is a JSON object, not {obj}")
    )


def options_of(body: Fields) -> Options:
    """A new table's options as a request's body chooses them (``Options.choose`` checks them)."""
    return Options.choose(
        preset=body.text("preset"),
        target=body.integer("target"),
        seats=body.integer("seats"),
        timer=body.text("timer"),
        private=body.flag("private"),
        open_to_watchers=body.flag("open_to_watchers"),
    )


async def body_of(request: Request) -> dict[str, Any]:
    """The request's JSON object as the client sent it, not yet checked (so its shape is open)."""
    return (await fields_of(request)).obj


async def current_player(request: HTTPConnection) -> StoredPlayer | None:
    """The player a request or a socket's cookie names, if any."""
    signed = await sessions_of(request).signed(accounts_of(request), request)
    return signed.player if signed is not None else None


async def signed_in(request: Request) -> Person:
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first (as a guest or with an account)")
    return Person(player.id, player.name)


def _player_answer(player: StoredPlayer | None) -> JSONResponse:
    return JSONResponse({"player": accounts.player_json(player)})


def _moderating(request: HTTPConnection) -> Moderating:
    return request.app.state.moderating  # type: ignore[no-any-return]


async def _not_banned(request: Request, player: StoredPlayer | None) -> None:
    """Refuse a banned account (its sign-in), or a new player from a banned address."""
    moderating = _moderating(request)
    if player is not None:
        ban = await moderating.banned(player.id)
        if ban is not None:
            raise HallError("banned", "this account is banned: {reason}", reason=ban.reason)
        return
    if await moderating.banned_address(client_address(request)) is not None:
        raise HallError("banned", "this address is banned: no new guest or account from it")


async def _new_session(request: Request, player: StoredPlayer) -> JSONResponse:
    """Answer with the player, signed in by a new session (never the one the request came with)."""
    response = _player_answer(player)
    if player.language is not None:  # the account's choice follows it to this browser
        set_language_cookie(request, response, player.language)
    await sessions_of(request).start(accounts_of(request), request, response, player.id)
    # Where from, kept a short time: a ban may cover it (docs/moderation.md).
    await _moderating(request).saw_address(player.id, client_address(request))
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
        return _player_answer(await accounts.rename(accounts_of(request), player, body.get("name")))
    await _not_banned(request, None)
    return await _new_session(
        request,
        await accounts.new_guest(
            accounts_of(request), body.get("name"), sessions_of(request).now()
        ),
    )


async def new_account(request: Request) -> Response:
    body = await body_of(request)
    await _not_banned(request, None)
    player = await accounts.new_account(
        accounts_of(request),
        guard_of(request),
        client_address(request),
        await current_player(request),
        body.get("username"),
        body.get("password"),
        body.get("name"),
        sessions_of(request).now(),
    )
    return await _new_session(request, player)


async def sign_in(request: Request) -> Response:
    body = await body_of(request)
    player = await accounts.sign_in(
        accounts_of(request),
        guard_of(request),
        client_address(request),
        body.get("username"),
        body.get("password"),
    )
    answer = await _new_session(request, player)
    # Checked once the session is there: a ban committed meanwhile ended it, or is seen here.
    try:
        await _not_banned(request, player)
    except HallError:
        await accounts_of(request).end_sessions(player.id)
        raise
    return answer


async def sign_out(request: Request) -> Response:
    response = _player_answer(None)
    await sessions_of(request).end(accounts_of(request), request, response)
    return response


async def sign_out_everywhere(request: Request) -> Response:
    person = await signed_in(request)
    response = _player_answer(None)
    await sessions_of(request).end_everywhere(accounts_of(request), request, response, person.id)
    return response


async def change_password(request: Request) -> Response:
    body = await body_of(request)
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first")
    player = await accounts.change_password(
        accounts_of(request),
        guard_of(request),
        client_address(request),
        player,
        body.get("password"),
        body.get("new_password"),
    )
    # Every other browser signed in as this player is signed out; this one gets a new session.
    await accounts_of(request).end_sessions(player.id)
    return await _new_session(request, player)


# Tables -------------------------------------------------------------------------------------
async def presets(request: Request) -> Response:
    """What a table or a seek may choose: the presets, the ranked pools, the timers and the
    computer players' levels, and how long a name, a username and a password may be, in one
    answer that the page loads at start (so that it copies none of them)."""
    return JSONResponse(
        {
            "presets": [p.as_dict() for p in PRESET_LIST],
            "pools": pools_json(),
            "timers": timers_json(),
            "levels": [{"id": level.value, "name": level.title()} for level in BotLevel],
            "languages": languages_json(),
            "lengths": {
                "name": list(accounts.NAME_LENGTH),
                "username": list(accounts.USERNAME_LENGTH),
                "password": list(accounts.PASSWORD_LENGTH),
            },
        }
    )


async def open_tables(request: Request) -> Response:
    return JSONResponse({"tables": await _hall(request).board.listed()})


def making_a_table(handler: Handler) -> Handler:
    """A command that makes a table, under the table limits (a refused one is not counted)."""

    @functools.wraps(handler)
    async def limited(request: Request) -> Response:
        person = await signed_in(request)
        open_tables = await _hall(request).open_tables_of(person.id)
        await guard_of(request).new_table(client_address(request), open_tables)
        try:
            return await handler(request)
        except Exception:
            await guard_of(request).table_not_made(client_address(request))
            raise

    return limited


@making_a_table
async def create_table(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(OPTION_FIELDS, code="bad_option")
    options = options_of(body)
    bots = body.texts_or_nulls("bots")
    levels = None
    if bots is not None:
        levels = [
            None if b is None else BotLevel.named(b, f"seat {k}: ") for k, b in enumerate(bots)
        ]
    table = await _hall(request).new_table(person, options, levels)
    return table_answer(table, seat=0)


@making_a_table
async def play_with_bots(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("preset", "bot", "bots", "target"), code="bad_option")
    bots = body.texts_or_nulls("bots")
    if bots is None:
        bots = [body.text("bot") or "normal"]  # the older form: one computer player
    levels = []
    for k, name in enumerate(bots):
        if name is None:
            raise HallError(
                "bad_option", "computer player {number}: a level, not null", number=k + 1
            )
        levels.append(BotLevel.named(name, f"computer player {k + 1}: "))
    table = await _hall(request).new_table_with_bots(
        person, levels, preset=body.text("preset"), target=body.integer("target")
    )
    return table_answer(table, seat=0)


async def table(request: Request) -> Response:
    return table_answer(await _hall(request).summary(request.path_params["table_id"]))


async def join(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("seat",))
    seat = body.integer("seat")  # none: the first free seat
    hall = _hall(request)
    table_id = request.path_params["table_id"]
    seat = await hall.join(person, table_id, seat)
    return table_answer(await hall.summary(table_id), seat=seat)


async def seat_bot(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("seat", "bot"))
    seat = body.integer("seat", required=True)
    assert seat is not None  # required: refused above when missing
    bot = BotLevel.named(body.text("bot", required=True) or "")
    table_id = request.path_params["table_id"]
    return table_answer(await _hall(request).seat_bot(person, table_id, seat, bot))


async def remove(request: Request) -> Response:
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("seat",))
    seat = body.integer("seat", required=True)
    assert seat is not None  # required: refused above when missing
    table_id = request.path_params["table_id"]
    return table_answer(await _hall(request).remove(person, table_id, seat))


async def start(request: Request) -> Response:
    person = await signed_in(request)
    (await fields_of(request)).only(())
    return table_answer(await _hall(request).start_game(person, request.path_params["table_id"]))


async def watchers(request: Request) -> Response:
    """The host opens a private table's game to watchers (``{"open": true}``) or closes it."""
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("open",))
    open_ = body.flag("open", required=True)
    assert open_ is not None  # required: refused above when missing
    table_id = request.path_params["table_id"]
    return table_answer(await _hall(request).set_watching(person, table_id, open_))


async def leave(request: Request) -> Response:
    person = await signed_in(request)
    (await fields_of(request)).only(())
    # The state the leave left, not a fresh look-up: a table that closed is no longer in memory.
    return table_answer(await _hall(request).leave(person, request.path_params["table_id"]))


async def choose_language(request: Request) -> Response:
    """``POST /api/me/language`` ``{"language": tag}``: the choice kept in the cookie, and on the
    signed-in player's account (the first place ``language.language_of`` looks)."""
    wanted = (await fields_of(request)).text("language", required=True)
    try:
        chosen = i18n.language(wanted or "").tag
    except ValueError as exc:
        raise HallError("bad_request", str(exc)) from None
    player = await current_player(request)
    if player is not None:
        await accounts_of(request).set_language(player.id, chosen)
    response = JSONResponse({"language": chosen})
    set_language_cookie(request, response, chosen)
    return response
