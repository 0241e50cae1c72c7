"""The lobby as this process's lobby sockets are told it (docs/protocol.md 12): the tables of the
board (``lobby_board.py``, followed once a process), the matchmaking queues' sizes and how many
people are online (``online.py``), looked at every ``look_every`` seconds while a lobby socket
is open here.

A socket that listens gets the whole lobby first, then what changed. Changes are gathered and
told at most once every ``push_every`` seconds, each push written once as JSON for every
socket: a burst of a thousand tables is a few pushes, not a thousand to each socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import orjson

from .lobby import featured
from .lobby_board import LobbyBoard
from .messages import LobbyMessage, LobbyTable, LobbyUpdateMessage, QueueSize
from .online import Online

log = logging.getLogger("dominohall.hall")

PUSH_EVERY = 0.25  # seconds: at most four pushes a second to a lobby socket
LOOK_EVERY = 1.0  # seconds between looks at the queues and the count of people online

# A lobby socket's listener is handed each push as JSON text.
LobbyListener = Callable[[str], None]
Queues = Callable[[], Awaitable[list[QueueSize]]]


class Lobby:
    def __init__(
        self,
        board: LobbyBoard,
        queues: Queues,
        online: Online,
        *,
        push_every: float = PUSH_EVERY,
        look_every: float = LOOK_EVERY,
    ) -> None:
        self.board = board
        self.online = online
        self._queues = queues
        self.push_every = push_every
        self.look_every = look_every
        self.tables: dict[str, LobbyTable] = {}
        self.queue_sizes: list[QueueSize] = []
        self.online_count = 0
        self._looked = False  # the queues and the count read at least once
        self._changed: set[str] = set()  # tables put since the last push
        self._queues_changed = False
        self._online_changed = False
        self._featured: str | None = None  # as last pushed
        self._listeners: set[LobbyListener] = set()
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    def start(self) -> None:
        self.board.follow(self._whole, self._put)
        self._tasks = [
            asyncio.create_task(self._pushing(), name="lobby-pushes"),
            asyncio.create_task(self._looking(), name="lobby-looks"),
        ]

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    # The board's news ------------------------------------------------------------------
    def _whole(self, tables: dict[str, LobbyTable]) -> None:
        """The whole board (at the start, or again after a gap): what differs is a change."""
        for table_id in self.tables.keys() | tables.keys():
            if self.tables.get(table_id) != tables.get(table_id):
                self._changed.add(table_id)
        self.tables = tables
        self._wake.set()

    def _put(self, table_id: str, entry: LobbyTable | None) -> None:
        if entry is None:
            if self.tables.pop(table_id, None) is None:
                return
        else:
            self.tables[table_id] = entry
        self._changed.add(table_id)
        self._wake.set()

    # Sockets ---------------------------------------------------------------------------
    async def listen(self, listener: LobbyListener) -> tuple[LobbyMessage, Callable[[], None]]:
        """The whole lobby now, and from now on each push to ``listener``; returns the whole
        lobby and the function that stops listening."""
        if not self._looked:
            try:
                await self._look()
            except Exception:  # noqa: BLE001 - the counts come with a later push
                log.exception("lobby: the queues or the people online not read")
        self._listeners.add(listener)

        def stop() -> None:
            self._listeners.discard(listener)

        return self.whole(), stop

    def whole(self) -> LobbyMessage:
        tables = sorted(self.tables.values(), key=lambda t: -t["table"]["created_at"])
        return {
            "type": "lobby",
            "tables": tables,
            "featured": featured(tables),
            "queues": self.queue_sizes,
            "online": self.online_count,
        }

    # Pushes ----------------------------------------------------------------------------
    async def _pushing(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            try:
                self._push()
            except Exception:  # noqa: BLE001 - the next push tries again
                log.exception("lobby push failed")
            await asyncio.sleep(self.push_every)  # what comes meanwhile waits for the next

    def _push(self) -> None:
        update = self.update()
        if update is None or not self._listeners:
            return
        text = orjson.dumps(update).decode()
        for listener in list(self._listeners):
            listener(text)

    def update(self) -> LobbyUpdateMessage | None:
        """What changed since the last push (None: nothing), and forgotten as pushed."""
        changed, self._changed = self._changed, set()
        now_featured = featured(list(self.tables.values()))
        news = changed or self._queues_changed or self._online_changed
        if not news and now_featured == self._featured:
            return None
        self._featured = now_featured
        update: LobbyUpdateMessage = {
            "type": "lobby_update",
            "tables": [self.tables[t] for t in sorted(changed) if t in self.tables],
            "gone": sorted(t for t in changed if t not in self.tables),
            "featured": now_featured,
        }
        if self._queues_changed:
            update["queues"] = self.queue_sizes
            self._queues_changed = False
        if self._online_changed:
            update["online"] = self.online_count
            self._online_changed = False
        return update

    # Looks at the queues and the people online -------------------------------------------
    async def _looking(self) -> None:
        while True:
            await asyncio.sleep(self.look_every)
            if not self._listeners:
                continue  # nobody here to tell: no look
            try:
                await self._look()
            except Exception:  # noqa: BLE001 - the next look tries again
                log.exception("lobby: the queues or the people online not read")

    async def _look(self) -> None:
        sizes = await self._queues()
        online = await self.online.count()
        self._looked = True
        if sizes != self.queue_sizes:
            self.queue_sizes = sizes
            self._queues_changed = True
            self._wake.set()
        if online != self.online_count:
            self.online_count = online
            self._online_changed = True
            self._wake.set()
