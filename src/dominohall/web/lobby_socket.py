"""The lobby's socket (``/ws/lobby``, docs/protocol.md 12): the whole lobby when it opens, then
what changed, as this process's lobby pushes it (``hall/lobby_feed.py``). Anyone may open one,
signed in or not (a signed-in player counts as online while it is open, as with the other
sockets); it is held and capped per address like them (``live_sockets.py``)."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import messages
from ..hall.lobby_feed import Lobby
from .api import client_address, current_player
from .fields import Fields
from .language import language_of
from .live_sockets import LiveSockets
from .messages import as_text, read_messages

log = logging.getLogger("dominohall.web")

_KINDS = ("ping",)
# Pushes waiting for a slow socket beyond this: dropped, and the whole lobby sent again instead.
BEHIND = 16


class LobbyClient:
    """One open lobby socket: the texts to send, in order, written by one task."""

    def __init__(self, ws: WebSocket, lobby: Lobby) -> None:
        self.ws = ws
        self.lobby = lobby
        self.outbox: deque[str] = deque()
        self.wake = asyncio.Event()

    def pushed(self, text: str) -> None:
        if len(self.outbox) >= BEHIND:
            self.outbox.clear()  # too far behind: the lobby as it is now replaces them
            self.outbox.append(as_text(self.lobby.whole()))
        else:
            self.outbox.append(text)
        self.wake.set()

    def post(self, message: messages.LobbySocketMessage) -> None:
        self.outbox.append(as_text(message))
        self.wake.set()

    async def write(self) -> None:
        try:
            while True:
                await self.wake.wait()
                self.wake.clear()
                while self.outbox:
                    await self.ws.send_text(self.outbox.popleft())
        except (WebSocketDisconnect, RuntimeError, OSError):
            pass  # the socket closed under us; the reader sees that too

    async def read(self) -> None:
        await read_messages(
            self.ws, _KINDS, self._pong, self.post, "a lobby socket", language_of(self.ws)
        )

    async def _pong(self, _message: Fields, request_id: messages.RequestId) -> None:
        self.post({"type": "pong", "id": request_id})


async def lobby_socket(ws: WebSocket) -> None:
    # An upgrade from another site's page was refused already (web/crossorigin.py).
    player = await current_player(ws)
    await ws.accept()
    live: LiveSockets = ws.app.state.live_sockets
    held = await live.admit(ws, player.id if player is not None else None, client_address(ws))
    if held is None:
        return  # (closed: a banned account, or too many sockets from its address)
    client = LobbyClient(ws, ws.app.state.lobby)
    stop: Callable[[], None] | None = None
    writer = asyncio.create_task(client.write())
    try:
        whole, stop = await client.lobby.listen(client.pushed)
        client.post(whole)
        await client.read()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    except Exception:
        log.exception("a lobby socket failed")
    finally:
        if stop is not None:
            stop()
        writer.cancel()
        await live.release(held)
