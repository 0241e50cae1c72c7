"""What the lobby's and a tournament's sockets share: the hall pushes them texts, each socket
writes its own in order from one task, answers pings, and holds its place among the sockets
open (``live_sockets.py``) while it is open."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Awaitable, Callable

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import HallError, messages
from .api import client_address, current_player
from .fields import Fields
from .language import language_of
from .live_sockets import LiveSockets
from .messages import read_messages

log = logging.getLogger("dominohall.web")

Pushed = messages.LobbySocketMessage | messages.TournamentMessage
# Start listening with a client's ``pushed``: the whole as it is now, and how to stop listening.
Listen = Callable[[Callable[[str], None]], Awaitable[tuple[Pushed, Callable[[], None]]]]
NO_SUCH = 4404  # what the socket follows is not there (as a table socket's ``no_table``)


class PushClient:
    """One open socket of pushes: the texts to send, in order, written by one task."""

    def __init__(self, ws: WebSocket, name: str) -> None:
        self.ws = ws
        self.name = name  # "a lobby socket", for the log and the errors it is sent
        self.outbox: deque[str] = deque()
        self.wake = asyncio.Event()

    def pushed(self, text: str) -> None:
        self.send(text)

    def send(self, text: str) -> None:
        self.outbox.append(text)
        self.wake.set()

    def post(self, message: Pushed) -> None:
        self.send(orjson.dumps(message).decode())

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
            self.ws, ("ping",), self._pong, self.post, self.name, language_of(self.ws)
        )

    async def _pong(self, _message: Fields, request_id: messages.RequestId) -> None:
        self.post({"type": "pong", "id": request_id})


async def serve_pushes(ws: WebSocket, client: PushClient, listen: Listen) -> None:
    """Run the socket: accepted and admitted among the sockets open, the whole first, then the
    pushes until it closes. A ``HallError`` from ``listen`` closes it with 4404."""
    # An upgrade from another site's page was refused already (web/crossorigin.py).
    player = await current_player(ws)
    await ws.accept()
    live: LiveSockets = ws.app.state.live_sockets
    held = await live.admit(ws, player.id if player is not None else None, client_address(ws))
    if held is None:
        return  # (closed: a banned account, or too many sockets from its address)
    stop: Callable[[], None] | None = None
    writer = asyncio.create_task(client.write())
    try:
        try:
            whole, stop = await listen(client.pushed)
        except HallError as error:
            await ws.close(NO_SUCH, error.message[:120])
            return
        client.post(whole)
        await client.read()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    except Exception:
        log.exception("%s failed", client.name)
    finally:
        if stop is not None:
            stop()
        writer.cancel()
        await live.release(held)
