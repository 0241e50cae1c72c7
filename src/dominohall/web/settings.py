"""A player's own data over HTTP: export it all as one file, or delete the account.

Changing the name (``POST /api/guest``) and the password (``POST /api/password``) are in
``api.py``; the settings page uses them as they are.
"""

from __future__ import annotations

import time

import orjson
from starlette.requests import Request
from starlette.responses import Response

from ..hall import HallError, messages
from ..hall.accounts import ANONYMOUS, Accounts, ChatLine, EmailAddress, Report
from . import accounts
from .api import accounts_of, client_address, current_player, fields_of, guard_of, sessions_of
from .challenges import challenge_json
from .games import games_json, indexer
from .profiles import stats_json
from .ranked import ratings_of

EXPORT_FORMAT = "dominohall-export/1"


async def export(request: Request) -> Response:
    """``GET /api/me/export``: profile, ratings, statistics, every game with its record, what
    the player said in chat, reported, muted and blocked, their challenges and follows, the
    addresses they signed in from lately."""
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first (as a guest or with an account)")
    service = accounts_of(request)  # (``accounts`` is the module of names and passwords)
    await indexer(request).catch_up()
    entries = await service.every_game_of(player.id)
    games: list[messages.ExportedGame] = []
    for game in await games_json(service, entries, seat_of=player.id):
        games.append({**game, "record": await service.record(game["id"])})
    document: messages.Export = {
        "format": EXPORT_FORMAT,
        "exported_at": time.time(),
        "player": accounts.player_json(player),
        "ratings": await ratings_of(service, player.id),
        "stats": stats_json(await service.stats(player.id)),
        "email": email_json(await service.email_of(player.id)),
        "games": games,
        **await people_json(service, player.id),
        **await challenges_json(request, player.id),
        "addresses": await addresses_json(request, player.id),
    }
    name = player.username or player.id
    return Response(
        orjson.dumps(document, option=orjson.OPT_INDENT_2),
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="dominohall-{name}-export.json"'},
    )


async def delete(request: Request) -> Response:
    """``POST /api/me/delete`` ``{"password": ...}``: the account goes, its games stay, anonymous."""
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first")
    body = await fields_of(request)
    body.only(("password",))
    password = body.text("password", required=player.username is not None)
    if player.username is not None:
        # Checked as a sign-in is: under the same limits on guessing.
        await accounts.sign_in(
            accounts_of(request),
            guard_of(request),
            client_address(request),
            player.username,
            password,
        )
    unfinished = await request.app.state.hall.my_tables(player.id)
    if unfinished:
        raise HallError(
            "unfinished_tables",
            "you sit at {unfinished_count} unfinished table(s): finish or leave them first",
            unfinished_count=len(unfinished),
        )
    await request.app.state.matchmaker.cancel(player.id)
    await indexer(request).catch_up()  # every game of theirs is renamed, none left behind
    renamed = await accounts_of(request).delete_account(player.id)
    # Finished tables in memory load again, from the redacted logs.
    request.app.state.hall.forget_tables_of(player.id)
    response = Response(
        orjson.dumps({"player": None, "deleted": True, "games": renamed, "name": ANONYMOUS}),
        media_type="application/json",
    )
    await sessions_of(request).end(accounts_of(request), request, response)
    return response


async def people_json(service: Accounts, player_id: str) -> messages.ExportedPeople:
    """The player's chat lines (still kept), reports, mutes and blocks; others by username
    where they have one (an id is all a guest has)."""
    lines = await service.chat_lines_of(player_id)
    reports = await service.reports_by(player_id)
    muted, blocked = await service.mutes_of(player_id), await service.blocked_by(player_id)
    others = {r.reported_id for r in reports} | muted | blocked
    names = await service.usernames(sorted(others))
    return {
        "chat": [chat_line_json(line) for line in lines],
        "reports": [report_json(report, names) for report in reports],
        "muted": sorted(names.get(p, p) for p in muted),
        "blocked": sorted(names.get(p, p) for p in blocked),
    }


async def challenges_json(request: Request, player_id: str) -> messages.ExportedChallenges:
    """The player's challenges, sent and received, and the players they follow."""
    sent = await request.app.state.challenges.every_of(player_id)
    follows = await request.app.state.following.followed(player_id)
    return {
        "challenges": [await challenge_json(request, challenge) for challenge in sent],
        "accept_challenges_from": (await request.app.state.challenges.accept_from(player_id)).value,
        "follows": [{"username": f.username, "since": f.since} for f in follows],
    }


async def addresses_json(request: Request, player_id: str) -> list[messages.SignedInFrom]:
    """The addresses the player signed in from lately (kept for a ban to cover them)."""
    seen = await request.app.state.moderating.addresses_of(player_id)
    return [{"address": a.address, "first": a.first_at, "last": a.last_at} for a in seen]


def chat_line_json(line: ChatLine) -> messages.ExportedChatLine:
    table, room = line.table_id, line.room.value
    if line.text is not None:
        return {"table": table, "room": room, "text": line.text, "at": line.at}
    return {"table": table, "room": room, "phrase": line.phrase, "at": line.at}


def report_json(report: Report, names: dict[str, str]) -> messages.ExportedReport:
    return {
        "reported": names.get(report.reported_id, report.reported_id),
        "line": report.line_id,
        "reason": report.reason,
        "at": report.at,
        "closed": report.closed_at is not None,
    }


def email_json(address: EmailAddress | None) -> messages.KeptEmail | None:
    """The player's email address and choices, as kept (docs/protocol.md 9)."""
    if address is None:
        return None
    return {"address": address.address, "confirmed": address.confirmed, "notify": address.notify}
