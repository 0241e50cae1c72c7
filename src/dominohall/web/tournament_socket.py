"""A tournament's socket (``/ws/tournaments/{id}``, docs/protocol.md 15): the tournament whole
when it opens, then again at each change, as this process's feed pushes it
(``hall/tournament_feed.py``), whichever process changed it. Anyone with the link may open one,
signed in or not; it is held and capped per address like the other sockets
(``live_sockets.py``); an unknown tournament closes it with 4404."""

from __future__ import annotations

from starlette.websockets import WebSocket

from ..hall.tournament_feed import TournamentFeed
from .push_socket import PushClient, serve_pushes

# Pushes waiting for a slow socket beyond this: only the newest is kept (each is the whole).
BEHIND = 4


class TournamentClient(PushClient):
    """One open tournament socket."""

    def __init__(self, ws: WebSocket) -> None:
        super().__init__(ws, "a tournament socket")

    def pushed(self, text: str) -> None:
        if len(self.outbox) >= BEHIND:
            self.outbox.clear()  # each push is the whole tournament: the last replaces them
        self.send(text)


async def tournament_socket(ws: WebSocket) -> None:
    tournament_id = str(ws.path_params["tournament_id"])
    feed: TournamentFeed = ws.app.state.tournament_feed
    await serve_pushes(ws, TournamentClient(ws), lambda pushed: feed.listen(tournament_id, pushed))
