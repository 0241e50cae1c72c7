"""Challenges and follows over HTTP (docs/protocol.md 13), through the hall's services
(``hall/challenges.py``, ``hall/follows.py``): send, accept, decline, cancel a challenge, the
open ones and whom one accepts them from; follow, unfollow, and the players one follows as they
are now. What a challenge brings on the players' own sockets is the hall's notices."""

from __future__ import annotations

from typing import cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError, messages
from ..hall.accounts import StoredPlayer
from ..hall.challenges import AcceptFrom, Challenger, Challenging, StoredChallenge, ranked_options
from ..hall.follows import Followed, Following
from .accounts import normal_username
from .api import accounts_of, current_player, fields_of, options_of

TABLE_FIELDS = ("preset", "target", "seats", "timer", "private", "open_to_watchers")
CHALLENGE_FIELDS = ("username", "ranked", "speed", *TABLE_FIELDS)


def _challenging(request: Request) -> Challenging:
    return request.app.state.challenges  # type: ignore[no-any-return]


def _following(request: Request) -> Following:
    return request.app.state.following  # type: ignore[no-any-return]


async def _me(request: Request) -> StoredPlayer:
    player = await current_player(request)
    if player is None:
        raise HallError("not_signed_in", "sign in first (as a guest or with an account)")
    return player


async def send(request: Request) -> Response:
    """``POST /api/challenges``: ``{"username", "ranked": pool, "speed"}`` for a ranked game, or
    ``{"username", ...}`` with a table's options for a casual one."""
    me = await _me(request)
    body = await fields_of(request)
    body.only(CHALLENGE_FIELDS, code="bad_option")
    username = body.text("username", required=True) or ""
    pool = body.text("ranked")
    if pool is not None:
        body.only(("username", "ranked", "speed"), code="bad_option")
        options = ranked_options(pool, body.text("speed") or "real-time")
    else:
        if body.text("speed") is not None:
            raise HallError("bad_option", "a casual challenge's speed is its 'timer'")
        options = options_of(body)
    challenger = Challenger(me.id, me.name, me.username)
    challenge = await _challenging(request).challenge(
        challenger, normal_username(username), options
    )
    return JSONResponse({"challenge": await challenge_json(request, challenge)})


async def answer(request: Request) -> Response:
    """``POST /api/challenges/{id}/{accept|decline|cancel}``."""
    me = await _me(request)
    challenge_id = request.path_params["challenge_id"]
    what = request.url.path.rsplit("/", 1)[-1]
    service = _challenging(request)
    if what == "accept":
        _, table = await service.accept(me.id, challenge_id)
        return JSONResponse({"id": challenge_id, "state": "accepted", "table": table})
    if what == "decline":
        await service.decline(me.id, challenge_id)
        return JSONResponse({"id": challenge_id, "state": "declined", "table": None})
    await service.cancel(me.id, challenge_id)
    return JSONResponse({"id": challenge_id, "state": "cancelled", "table": None})


async def mine(request: Request) -> Response:
    """``GET /api/me/challenges``: the open challenges sent and received, and whom one accepts
    challenges from."""
    me = await _me(request)
    service = _challenging(request)
    challenges = [await challenge_json(request, c) for c in await service.open_of(me.id)]
    accept_from = await service.accept_from(me.id)
    return JSONResponse({"challenges": challenges, "accept_from": accept_from.value})


async def choose(request: Request) -> Response:
    """``POST /api/me/challenges`` ``{"accept_from": "everyone" | "friends" | "nobody"}``."""
    me = await _me(request)
    body = await fields_of(request)
    body.only(("accept_from",))
    value = body.text("accept_from", required=True)
    try:
        choice = AcceptFrom(value)
    except ValueError:
        choices = ", ".join(c.value for c in AcceptFrom)
        raise HallError(
            "bad_request",
            "accept_from is one of {choices}, not {value!r}",
            choices=choices,
            value=value,
        ) from None
    await _challenging(request).set_accept_from(me.id, choice)
    return JSONResponse({"accept_from": choice.value})


async def challenge_json(request: Request, challenge: StoredChallenge) -> messages.Challenge:
    """A challenge as the protocol writes it: the two players by username and name."""
    service = accounts_of(request)

    async def person(player_id: str) -> messages.ChallengePlayer | None:
        player = await service.player(player_id)
        if player is None:
            return None
        return {"username": player.username, "name": player.name}

    return {
        "id": challenge.id,
        "from": await person(challenge.challenger_id),
        "to": await person(challenge.challenged_id),
        # (stored as Options.to_json wrote them)
        "options": cast(messages.ChosenOptions, challenge.options),
        "at": challenge.at,
        "expires_at": challenge.expires_at,
        "state": challenge.state.value,
        "table": challenge.table_id,
    }


# Follows -------------------------------------------------------------------------------------
async def follow(request: Request) -> Response:
    """``POST /api/players/{username}/{follow|unfollow}``."""
    me = await _me(request)
    name = normal_username(request.path_params["username"])
    service = _following(request)
    if request.url.path.endswith("/unfollow"):
        other = await service.unfollow(me, name)
        return JSONResponse({"username": other.username, "following": False})
    other = await service.follow(me, name)
    return JSONResponse({"username": other.username, "following": True})


async def followed(request: Request) -> Response:
    """``GET /api/me/follows``: the players one follows, online or not, and their public tables."""
    me = await _me(request)
    found = await _following(request).followed(me.id)
    return JSONResponse({"follows": [followed_json(f) for f in found]})


def followed_json(followed: Followed) -> messages.FollowedPlayer:
    return {
        "username": followed.username,
        "name": followed.name,
        "since": followed.since,
        "online": followed.online,
        "playing": followed.playing,
    }
