"""Tournaments as this process's tournament sockets are told them (docs/protocol.md 15): a
socket watching a tournament gets it whole when it opens, then again each time it changes.

A change is heard from any process (``tournament_news.py``, only the id); the tournament is then
read from the store once for every socket here that watches it, at most once every
``push_every`` seconds (the changes meanwhile are one read), and pushed only when what a page
shows differs from the last push, written once as JSON for every socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

import orjson

from . import messages
from .errors import HallError
from .tournament_news import TournamentNews

log = logging.getLogger("dominohall.hall")

PUSH_EVERY = 0.25  # seconds: at most four reads and pushes a second per tournament

# A socket's listener is handed each push as JSON text.
TournamentListener = Callable[[str], None]
Read = Callable[[str], Awaitable[messages.Tournament]]


def message(tournament: messages.Tournament) -> messages.TournamentMessage:
    """What a tournament socket is sent: the tournament whole (docs/protocol.md 15)."""
    return {"type": "tournament", "tournament": tournament}


class TournamentFeed:
    def __init__(self, news: TournamentNews, read: Read, *, push_every: float = PUSH_EVERY) -> None:
        """``read``: a tournament as the API answers it (``Tournaments.get``)."""
        self.news = news
        self._read = read
        self.push_every = push_every
        self._listeners: dict[str, set[TournamentListener]] = {}
        self._last: dict[str, str] = {}  # each watched tournament's last push
        self._changed: set[str] = set()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.news.follow(self._heard, self._gap)
        self._task = asyncio.create_task(self._pushing(), name="tournament-pushes")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def _heard(self, tournament_id: str) -> None:
        if tournament_id in self._listeners:
            self._changed.add(tournament_id)
            self._wake.set()

    def _gap(self) -> None:
        self._changed |= self._listeners.keys()
        self._wake.set()

    async def listen(
        self, tournament_id: str, listener: TournamentListener
    ) -> tuple[messages.TournamentMessage, Callable[[], None]]:
        """The tournament now (``no_tournament`` if there is none), and from now on each push
        to ``listener``; returns the whole message and the function that stops listening."""
        whole = message(await self._read(tournament_id))
        # Listening from after the read (a push never comes before the whole it follows), then
        # read once more by the pusher: a change between the read and now is pushed too.
        self._listeners.setdefault(tournament_id, set()).add(listener)
        self._last.setdefault(tournament_id, orjson.dumps(whole).decode())
        self._changed.add(tournament_id)
        self._wake.set()

        def stop() -> None:
            left = self._listeners.get(tournament_id)
            if left is not None:
                left.discard(listener)
                if not left:
                    del self._listeners[tournament_id]
                    self._last.pop(tournament_id, None)

        return whole, stop

    async def _pushing(self) -> None:
        while True:
            await self._wake.wait()
            self._wake.clear()
            changed, self._changed = self._changed, set()
            for tournament_id in sorted(changed):
                try:
                    await self._push(tournament_id)
                except Exception:  # noqa: BLE001 - the next change tries again
                    log.exception("tournament %s: push failed", tournament_id)
            await asyncio.sleep(self.push_every)  # what comes meanwhile waits for the next

    async def _push(self, tournament_id: str) -> None:
        if tournament_id not in self._listeners:
            return
        try:
            tournament = await self._read(tournament_id)
        except HallError:
            return  # (gone: nothing to tell)
        text = orjson.dumps(message(tournament)).decode()
        if self._last.get(tournament_id) == text:
            return  # saved again, but nothing a page shows changed
        self._last[tournament_id] = text
        for listener in list(self._listeners.get(tournament_id, ())):
            listener(text)
