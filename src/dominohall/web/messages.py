"""Reading a socket's messages (docs/protocol.md): each text frame a JSON object with a known
``type`` and an optional ``id``, handled in turn; whatever is wrong with one is answered with an
``error`` carrying its ``id``, and the socket reads on. Shared by the table socket and the
player's socket."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeGuard

import orjson
from starlette.websockets import WebSocket

from ..hall import HallError, messages
from ..hall.errors import StoreUnavailable, store_unavailable
from ..i18n import N_, SOURCE
from .fields import Fields, parse, shown
from .language import refusal

log = logging.getLogger("dominohall.web")

Handler = Callable[[Fields, messages.RequestId], Awaitable[None]]  # (the message, its id)
Post = Callable[[messages.ErrorMessage], None]


async def read_messages(
    ws: WebSocket,
    kinds: tuple[str, ...],
    handle: Handler,
    post: Post,
    where: str,
    language: str = SOURCE,
) -> None:
    """Hand each message of ``ws`` to ``handle`` until the socket closes; ``post`` an error for
    one that is not a message of ``kinds`` or that ``handle`` refuses, in ``language`` (the
    socket's: ``language.language_of``). ``where``: for the log."""
    while True:
        frame = await ws.receive()
        if frame["type"] == "websocket.disconnect":
            return
        request_id: messages.RequestId = None
        try:
            text = frame.get("text")
            if text is None:
                raise HallError("bad_message", "messages are JSON in text frames, not binary")
            message = parse(text)
            request_id = _id_of(message)  # echoed by the error too, whatever else is wrong
            await handle(_checked(message, kinds), request_id)
        except HallError as exc:
            post({"type": "error", "id": request_id, **refusal(exc, language)})
        except StoreUnavailable:  # a read found the database away
            post({"type": "error", "id": request_id, **refusal(store_unavailable(), language)})
        except Exception:  # noqa: BLE001 - e.g. the disk: nothing was applied, say so
            log.exception("request on %s failed", where)
            failed = HallError("server_error", "the hall could not do that just now: try again")
            post({"type": "error", "id": request_id, **refusal(failed, language)})


def as_text(message: messages.ServerMessage) -> str:
    # orjson: a message is encoded for every socket after every change, ten times faster than json.
    return orjson.dumps(message).decode()


def _valid_id(request_id: object) -> TypeGuard[str | int | float]:
    if isinstance(request_id, str):
        return len(request_id) <= 64
    return isinstance(request_id, int | float) and not isinstance(request_id, bool)


def _id_of(message: object) -> messages.RequestId:
    """The message's ``id`` when it is a valid one, to repeat in the answer; else None."""
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if _valid_id(request_id) else None


def _checked(message: object, kinds: tuple[str, ...]) -> Fields:
    fields = Fields(message, "bad_message", N_("a message is a JSON object, not {obj}"))
    request_id = fields.obj.get("id")
    if request_id is not None and not _valid_id(request_id):
        raise HallError("bad_message", "'id' is a string of at most 64 characters or a number")
    kind = fields.obj.get("type")
    if not isinstance(kind, str) or kind not in kinds:
        raise HallError(
            "bad_message",
            "unknown message type {kind} (known: {kinds})",
            kind=shown(kind),
            kinds=", ".join(kinds),
        )
    return fields
