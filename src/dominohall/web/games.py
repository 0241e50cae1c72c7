"""Finished games over HTTP: a game with its replay, a player's games page by page, the record.

A game of a private table, its page, replay and record, is shown to its players only
(``private_game``, 403); the histories list it only to a viewer who played in it.
"""

from __future__ import annotations

import gzip
from collections.abc import Iterable
from typing import Any

import orjson
from starlette.requests import Request
from starlette.responses import Response

from ..hall import HallError, messages
from ..hall.accounts import Accounts, Cursor, GameEntry
from ..hall.chat import TableChat
from ..hall.history import Indexer
from ..rules import get_preset
from ..rules.record import dumps
from .accounts import normal_username
from .api import accounts_of, current_player
from .notices import lines_json
from .ranked import changes_json
from .replay import replay_json

PAGE = 20  # games per page of a history, unless asked for fewer (at most MAX_PAGE)
MAX_PAGE = 50


def indexer(request: Request) -> Indexer:
    return request.app.state.indexer  # type: ignore[no-any-return]


def json_answer(request: Request, value: Any) -> Response:
    """JSON, gzipped when the client takes it (a replay is mostly repeated layouts)."""
    body = orjson.dumps(value)
    if len(body) > 2048 and "gzip" in request.headers.get("accept-encoding", ""):
        return Response(
            gzip.compress(body, 6),
            media_type="application/json",
            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"},
        )
    return Response(body, media_type="application/json", headers={"Vary": "Accept-Encoding"})


async def visible_game(request: Request, table_id: str) -> GameEntry:
    """The finished game ``table_id`` if this request may see it; else the precise error."""
    # Asked first: a table is marked finished in the transaction that stores its record, so a
    # table seen finished here has its game stored (a game ending meanwhile is not_over, not 404).
    finished = await accounts_of(request).table_finished(table_id)
    entry = await indexer(request).game(table_id) if finished else None
    if entry is None:
        if finished is False:
            raise HallError("game_not_over", "the game is not over yet")
        raise HallError("no_game", "there is no game {game!r}", game=table_id)
    if entry.private:
        viewer = await current_player(request)
        if viewer is None or not entry.has_player(viewer.id):
            if viewer is None:
                raise HallError(
                    "private_game",
                    "game {game} was played at a private table: only its players may see it"
                    " (sign in as one of them)",
                    game=table_id,
                )
            raise HallError(
                "private_game",
                "game {game} was played at a private table: only its players may see it",
                game=table_id,
            )
    return entry


def game_json(
    entry: GameEntry, usernames: dict[str, str], seat_of: str | None = None
) -> messages.Game:
    """A game's summary (docs/protocol.md section 6); ``seat_of``: the player whose list it is in."""
    preset = get_preset(entry.preset)
    started = entry.started_at
    answer: messages.Game = {
        "id": entry.table_id,
        "link": f"/games/{entry.table_id}",
        "record": f"/games/{entry.table_id}/record",
        "preset": entry.preset,
        "preset_name": preset.name,
        "target": entry.target,
        "private": entry.private,
        "ranked": entry.ranked,
        "speed": entry.speed,
        "timer": entry.timer,
        "reason": entry.reason,
        "winner": entry.winner,
        "hands": entry.hands,
        "started_at": started,
        "finished_at": entry.finished_at,
        "duration": None if started is None else round(entry.finished_at - started, 1),
        "players": [
            {
                "seat": s.seat,
                "name": s.name,
                "username": usernames.get(s.player_id) if s.player_id else None,
                "bot": s.bot,
                "person": s.player_id is not None,
                "won": s.won,
                "place": s.place,
                "score": s.score,
                "out": s.out,
                "timeouts": s.timeouts,
            }
            for s in entry.seats
        ],
    }
    if seat_of is not None:
        answer["seat"] = next((s.seat for s in entry.seats if s.player_id == seat_of), None)
    return answer


async def games_json(
    accounts: Accounts, entries: Iterable[GameEntry], seat_of: str | None = None
) -> list[messages.Game]:
    entries = list(entries)
    ids = {s.player_id for e in entries for s in e.seats if s.player_id is not None}
    usernames = await accounts.usernames(sorted(ids))
    return [game_json(e, usernames, seat_of) for e in entries]


async def game(request: Request) -> Response:
    """``GET /api/games/{id}``: players, result, duration, rating changes and the replay."""
    table_id = request.path_params["game_id"]
    entry = await visible_game(request, table_id)
    accounts = accounts_of(request)
    record = await accounts.record(table_id)
    assert record is not None  # indexed games have records
    [summary] = await games_json(accounts, [entry])
    return json_answer(
        request,
        {
            "game": summary,
            "ratings": changes_json(await accounts.rating_changes(table_id)),
            "replay": replay_json(record),
        },
    )


async def game_chat(request: Request) -> Response:
    """``GET /api/games/{id}/chat``: the finished game's chat, both rooms, to those who may see
    the game (its players only at a private table), less the lines of those the reader muted."""
    table_id = request.path_params["game_id"]
    await visible_game(request, table_id)
    viewer = await current_player(request)
    chat: TableChat = request.app.state.chat
    lines = await chat.of_game(table_id, viewer.id if viewer is not None else None)
    return json_answer(request, {"lines": lines_json(lines)})


async def game_record(request: Request) -> Response:
    """``GET /games/{id}/record``: the record, once the game is over, to those who may see it."""
    table_id = request.path_params["game_id"]
    await visible_game(request, table_id)
    record = await accounts_of(request).record(table_id)
    assert record is not None  # a finished game's record is stored with its end
    return Response(
        dumps(record),  # as `dominohall record random` writes records: a line per move
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="dominohall-{table_id}.json"'},
    )


def _cursor(request: Request) -> Cursor | None:
    raw = request.query_params.get("before")
    if raw is None:  # (an empty one is a bad cursor, not the first page)
        return None
    at, sep, table = raw.rpartition("_")
    try:
        if not sep or not table.isalnum() or len(table) > 32:
            raise ValueError
        return float(at), table
    except ValueError:
        raise HallError(
            "bad_request", "'before' must be a page's 'next' cursor, not {raw!r}", raw=raw
        ) from None


def _cursor_text(cursor: Cursor | None) -> str | None:
    """A page's ``next`` as ``_cursor`` reads it back."""
    if cursor is None:
        return None
    at, table = cursor
    return f"{at!r}_{table}"


def _limit(request: Request) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return PAGE
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_PAGE:
        raise HallError(
            "bad_request", "'limit' must be a whole number from 1 to {max_page}", max_page=MAX_PAGE
        )
    return int(raw)


async def _page(request: Request, player_id: str) -> Response:
    before, limit = _cursor(request), _limit(request)
    viewer = await current_player(request)
    await indexer(request).catch_up()
    accounts = accounts_of(request)
    page = await accounts.games_page(
        player_id, before=before, limit=limit, viewer=viewer.id if viewer else None
    )
    return json_answer(
        request,
        {
            "games": await games_json(accounts, page.games, seat_of=player_id),
            "next": _cursor_text(page.next),
        },
    )


async def player_games(request: Request) -> Response:
    """``GET /api/players/{username}/games?before=&limit=``: an account's games, newest first."""
    name = request.path_params["username"]
    found = await accounts_of(request).player_by_username(normal_username(name))
    if found is None:
        raise HallError("no_player", "there is no player {username!r}", username=name)
    return await _page(request, found.id)


async def my_games(request: Request) -> Response:
    """``GET /api/me/games?before=&limit=``: your own games (a guest's too), private ones included."""
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first (as a guest or with an account)")
    return await _page(request, player.id)
