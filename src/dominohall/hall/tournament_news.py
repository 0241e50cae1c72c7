"""Which tournaments changed, told to every process (``tournament_feed.py`` re-reads those its
sockets watch): in memory on one process, in Redis on several.

Only the tournament's id travels: the tournament itself is in the store, saved before its id is
told, so a process that hears an id reads the tournament as saved then or later. In Redis,
``<prefix>tournaments:changes`` is a stream of ids (the last ``KEPT`` or so); each process reads
it on from where it joined. A process that lost Redis for a while, or fell behind the stream's
trimming, is told a gap: it may have missed any change, and reads again every tournament it
watches.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

import redis.asyncio as redis
from redis.exceptions import RedisError

from .backoff import Backoff
from .stream_pages import BLOCK_MS, read_after

log = logging.getLogger("dominohall.redis")

# A follower is told each changed tournament's id, and a gap (any may have changed).
OnChange = Callable[[str], None]
OnGap = Callable[[], None]

KEPT = 2_000  # ids the stream keeps (MAXLEN ~)


class TournamentNews(Protocol):
    async def changed(self, tournament_id: str) -> None:
        """Tell every process that the tournament changed (it is saved already); never raises:
        a change not told is logged, and the tournament's next change tells it."""
        ...

    def follow(self, on_change: OnChange, on_gap: OnGap) -> None:
        """From now on, ``on_change`` each changed tournament's id (``on_gap`` after a gap)."""
        ...

    async def close(self) -> None: ...


class MemoryTournamentNews:
    """One process: the followers are called at once."""

    def __init__(self) -> None:
        self._followers: list[OnChange] = []

    async def changed(self, tournament_id: str) -> None:
        for on_change in self._followers:
            on_change(tournament_id)

    def follow(self, on_change: OnChange, on_gap: OnGap) -> None:
        self._followers.append(on_change)

    async def close(self) -> None:
        self._followers.clear()


class RedisTournamentNews:
    """Several processes: a stream of ids in Redis (the module's docstring says how)."""

    def __init__(self, url: str, *, prefix: str, kept: int = KEPT) -> None:
        self.stream = f"{prefix}tournaments:changes"
        self._kept = kept
        self._client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        self._reader = redis.Redis.from_url(
            url, socket_timeout=BLOCK_MS / 1000 + 5.0, socket_connect_timeout=5.0
        )
        self._task: asyncio.Task[None] | None = None

    async def changed(self, tournament_id: str) -> None:
        try:
            await self._client.xadd(
                self.stream, {"t": tournament_id}, maxlen=self._kept, approximate=True
            )
        except (RedisError, OSError) as exc:
            log.warning("tournament %s: its change not told: %s", tournament_id, exc)

    def follow(self, on_change: OnChange, on_gap: OnGap) -> None:
        assert self._task is None, "one follower a process"
        self._task = asyncio.create_task(self._follow(on_change, on_gap), name="tournament-news")

    async def _follow(self, on_change: OnChange, on_gap: OnGap) -> None:
        backoff = Backoff()
        cursor: str | None = None
        while True:
            try:
                if cursor is None:  # (at the start, or after a gap: from now on)
                    last = await self._reader.xrevrange(self.stream, count=1)
                    cursor = last[0][0].decode() if last else "0-0"
                backoff.reset()
                while cursor is not None:
                    cursor = await self._read_on(cursor, on_change)
                on_gap()  # (fallen behind the trimming)
            except (RedisError, OSError) as exc:
                log.warning("tournaments: the changes cannot be read (%s): trying again", exc)
                cursor = None
                await asyncio.sleep(backoff.next())
                on_gap()  # (whatever changed meanwhile was not heard)

    async def _read_on(self, cursor: str, on_change: OnChange) -> str | None:
        """The ids after ``cursor``, told; the new cursor (None: some were trimmed unread)."""
        entries = await read_after(self._reader, self.stream, cursor)
        if entries is None:
            return None
        for entry_id, fields in entries:
            on_change(fields[b"t"].decode())
            cursor = entry_id
        return cursor

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._client.aclose()
        await self._reader.aclose()
