"""A tournament's socket (``/ws/tournaments/{id}``, docs/protocol.md 15): the tournament whole
when it opens, then again at each change, as this process's feed pushes it
(``hall/tournament_feed.py``), whichever process changed it. Anyone with the link may open one,
signed in or not; it is held and capped per address like the other sockets
(``live_sockets.py``); an unknown tournament closes it with 4404."""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable

import orjson
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketDisconnected

from ..hall import HallError, messages
from ..hall.tournament_feed import TournamentFeed
from .api import client_address, current_player
from .fields import Fields
from .live_sockets import LiveSockets
from .messages import read_messages
from .socket import NO_TABLE

log = logging.getLogger("dominohall.web")

_KINDS = ("ping",)
# Pushes waiting for a slow socket beyond this: only the newest is kept (each is the whole).
BEHIND = 4


class TournamentClient:
    """One open tournament socket: the texts to send, in order, written by one task."""

    def __init__(self, ws: WebSocket) -> None:
        self.ws = ws
        self.outbox: deque[str] = deque()
        self.wake = asyncio.Event()

    def pushed(self, text: str) -> None:
        if len(self.outbox) >= BEHIND:
            self.outbox.clear()  # each push is the whole tournament: the last replaces them
        self.outbox.append(text)
        self.wake.set()

    def post(self, message: messages.TournamentMessage | messages.LobbySocketMessage) -> None:
        self.outbox.append(orjson.dumps(message).decode())
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
        await read_messages(self.ws, _KINDS, self._pong, self.post, "a tournament socket")

    async def _pong(self, _message: Fields, request_id: messages.RequestId) -> None:
        self.post({"type": "pong", "id": request_id})


async def tournament_socket(ws: WebSocket) -> None:
    # An upgrade from another site's page was refused already (web/crossorigin.py).
    tournament_id = str(ws.path_params["tournament_id"])
    player = await current_player(ws)
    await ws.accept()
    live: LiveSockets = ws.app.state.live_sockets
    held = await live.admit(ws, player.id if player is not None else None, client_address(ws))
    if held is None:
        return  # (closed: a banned account, or too many sockets from its address)
    feed: TournamentFeed = ws.app.state.tournament_feed
    client = TournamentClient(ws)
    stop: Callable[[], None] | None = None
    writer = asyncio.create_task(client.write())
    try:
        try:
            whole, stop = await feed.listen(tournament_id, client.pushed)
        except HallError as error:
            await ws.close(NO_TABLE, error.message[:120])
            return
        client.post(whole)
        await client.read()
    except (WebSocketDisconnect, WebSocketDisconnected):
        pass
    except Exception:
        log.exception("a tournament socket failed")
    finally:
        if stop is not None:
            stop()
        writer.cancel()
        await live.release(held)
