"""The sockets open in this process (table, player, lobby and tournament sockets), by player and
by address: a banned account refused at the door, the cap on sockets per address
(``ratelimit.SocketCount``), a signed-in player counted online while one of their sockets is
open (``hall/online.py``), and the operators' actions applied to the open sockets as this
process's follower of the moderation log reads them (``hall/moderating.py``): a ban closes its
account's sockets, a time-out is told to them (the chat box says until when), without a
reconnect."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field

from starlette.websockets import WebSocket

from ..hall import messages
from ..hall.moderating import Action, Moderating
from ..hall.online import MemoryOnline, Online
from .ratelimit import SocketCount

log = logging.getLogger("dominohall.web")

# Close code: this socket may not be here (its account is banned; or, ``socket.py``, the table
# is closed to watchers): the page does not reconnect (docs/protocol.md 3).
REFUSED = 4403
TOO_MANY_SOCKETS = 4429  # close code: too many sockets open from this address


@dataclass(eq=False)
class OpenSocket:
    """One socket held open: whose, from where, and how to tell it a time-out (None: a
    socket that shows no chat, the player's own)."""

    ws: WebSocket
    player: str | None
    address: str
    tell: Callable[[messages.ChatTimedOutMessage], None] | None = field(default=None)


class LiveSockets:
    def __init__(
        self,
        moderating: Moderating,
        count: Callable[[], SocketCount],
        online: Online | None = None,
    ) -> None:
        self.moderating = moderating
        self.online: Online = online or MemoryOnline()
        self._count = count  # the guard's (made again when the app starts, in Redis or not)
        self._of: dict[str, set[OpenSocket]] = {}  # player -> their sockets here
        # Banned since this process started (a ban ends its sessions, so an account banned
        # before has no cookie to open a socket with; this closes the door on a session opened
        # as a ban was committed, without a query at each socket).
        self._banned: set[str] = set()

    async def admit(self, ws: WebSocket, player: str | None, address: str) -> OpenSocket | None:
        """A socket accepted: held, or closed with its reason (None) when its account is banned
        or its address has too many sockets open."""
        if player is not None and player in self._banned:
            await ws.close(code=REFUSED, reason="this account is banned")
            return None
        count = self._count()
        if not await count.open(address):
            reason = f"at most {count.most} sockets open at once from one address"
            await ws.close(code=TOO_MANY_SOCKETS, reason=reason)
            return None
        socket = OpenSocket(ws, player, address)
        if player is not None:
            self._of.setdefault(player, set()).add(socket)
            self.online.arrived(player)
        return socket

    async def release(self, socket: OpenSocket) -> None:
        if socket.player is not None:
            held = self._of.get(socket.player)
            if held is not None:
                held.discard(socket)
                if not held:
                    del self._of[socket.player]
            self.online.left(socket.player)
        await self._count().close(socket.address)

    async def tell_time_out(self, socket: OpenSocket) -> None:
        """A socket opening: its person's time-out under way, if any (its chat box says so)."""
        if socket.player is None or socket.tell is None:
            return
        timed_out = await self.moderating.timed_out(socket.player)
        if timed_out is not None:
            socket.tell(
                {"type": "chat_timed_out", "until": timed_out.until, "reason": timed_out.reason}
            )

    async def apply(self, action: Action) -> None:
        """An operator's action, as the moderation log has it, applied to the sockets here."""
        subject = action.subject_id
        if subject is None:
            return
        if action.action == "unban":
            self._banned.discard(subject)
        elif action.action == "ban":
            self._banned.add(subject)
            for socket in list(self._of.get(subject, ())):
                with contextlib.suppress(Exception):  # (closed meanwhile)
                    await socket.ws.close(code=REFUSED, reason="this account is banned")
        elif action.action == "time_out":
            until = float(action.detail.get("until", action.at))
            for socket in self._of.get(subject, ()):
                if socket.tell is not None:
                    socket.tell(
                        {"type": "chat_timed_out", "until": until, "reason": action.reason or ""}
                    )
