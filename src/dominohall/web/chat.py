"""A player's choices about another's chat over HTTP (docs/protocol.md 10): mute, block, report
(``POST /api/players/{username}/mute`` ...), through the hall's chat service, which also makes
them take effect on this process's open sockets of the chooser."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from ..hall import HallError
from ..hall.chat import TableChat
from .accounts import normal_username
from .api import accounts_of, fields_of, guard_of, signed_in

CHOICES = ("mute", "unmute", "block", "unblock", "report")  # each a route of its own


async def choose(request: Request) -> Response:
    """``POST /api/players/{username}/{mute|unmute|block|unblock|report}``."""
    choice = request.url.path.rsplit("/", 1)[-1]
    person = await signed_in(request)
    name = request.path_params["username"]
    other = await accounts_of(request).player_by_username(normal_username(name))
    if other is None or other.username is None:
        raise HallError("no_player", "there is no player {name!r}", name=name)
    chat: TableChat = request.app.state.chat
    answer: dict[str, object] = {"username": other.username}
    if choice == "mute":
        await chat.mute(person.id, other.id)
        answer["muted"] = True
    elif choice == "unmute":
        await chat.unmute(person.id, other.id)
        answer["muted"] = False
    elif choice == "block":
        await chat.block(person.id, other.id)
        answer["blocked"] = True
    elif choice == "unblock":
        await chat.unblock(person.id, other.id)
        answer["blocked"] = False
    else:
        await guard_of(request).report(person.id)  # (rate-limited per player)
        body = await fields_of(request)
        reason = body.text("reason", required=True) or ""
        line = body.integer("line", minimum=1)
        answer["report"] = await chat.report(person.id, other.id, reason, line)
        answer["muted"] = True
    return JSONResponse(answer)
