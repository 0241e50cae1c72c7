"""The lobby's socket (``/ws/lobby``, docs/protocol.md 12): the whole lobby when it opens, then
what changed, as this process's lobby pushes it (``hall/lobby_feed.py``). Anyone may open one,
signed in or not (a signed-in player counts as online while it is open, as with the other
sockets); it is held and capped per address like them (``live_sockets.py``)."""

from __future__ import annotations

from starlette.websockets import WebSocket

from ..hall.lobby_feed import Lobby
from .messages import as_text
from .push_socket import PushClient, serve_pushes

# Pushes waiting for a slow socket beyond this: dropped, and the whole lobby sent again instead.
BEHIND = 16


class LobbyClient(PushClient):
    """One open lobby socket."""

    def __init__(self, ws: WebSocket, lobby: Lobby) -> None:
        super().__init__(ws, "a lobby socket")
        self.lobby = lobby

    def pushed(self, text: str) -> None:
        if len(self.outbox) >= BEHIND:
            self.outbox.clear()  # too far behind: the lobby as it is now replaces them
            text = as_text(self.lobby.whole())
        self.send(text)


async def lobby_socket(ws: WebSocket) -> None:
    lobby: Lobby = ws.app.state.lobby
    await serve_pushes(ws, LobbyClient(ws, lobby), lobby.listen)
