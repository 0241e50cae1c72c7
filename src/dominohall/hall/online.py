"""Who is online: a player with their own socket (``/ws/me``, on any page) open on some process.

One process (``MemoryOnline``) counts its sockets. Several (``RedisOnline``) write one Redis hash
a player (``<prefix>online:<player>``), a field a process with a socket of theirs, valued the
time (the hall's clock) it stops counting unless renewed; each process renews its own every third
of that time, so that a process that dies stops counting its players within ``ONLINE_SECONDS``.
Redis away: a write is logged and dropped (the renewal writes again), a read says nobody is online.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection
from typing import Protocol

import redis.asyncio as redis
from redis.exceptions import RedisError

from .clock import Clock

log = logging.getLogger("dominohall.redis")

ONLINE_SECONDS = 30.0


class Online(Protocol):
    async def opened(self, player: str) -> None:
        """One more socket of the player's is open on this process."""
        ...

    async def closed(self, player: str) -> None:
        """One socket of the player's closed on this process."""
        ...

    async def which(self, players: Collection[str]) -> set[str]:
        """Those of ``players`` online on some process."""
        ...

    async def close(self) -> None: ...


class MemoryOnline:
    def __init__(self) -> None:
        self._sockets: dict[str, int] = {}

    async def opened(self, player: str) -> None:
        self._sockets[player] = self._sockets.get(player, 0) + 1

    async def closed(self, player: str) -> None:
        left = self._sockets.get(player, 1) - 1
        if left > 0:
            self._sockets[player] = left
        else:
            self._sockets.pop(player, None)

    async def which(self, players: Collection[str]) -> set[str]:
        return {p for p in players if p in self._sockets}

    async def close(self) -> None:
        pass


class RedisOnline:
    def __init__(
        self,
        url: str,
        *,
        prefix: str,
        process_id: str,
        clock: Clock,
        seconds: float = ONLINE_SECONDS,
    ) -> None:
        self.prefix = prefix
        self.process_id = process_id
        self.clock = clock
        self.seconds = seconds
        self._client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        self._here = MemoryOnline()  # this process's own count
        self._renewing: asyncio.Task[None] | None = None

    def _key(self, player: str) -> str:
        return f"{self.prefix}online:{player}"

    async def opened(self, player: str) -> None:
        first = not await self._here.which([player])
        await self._here.opened(player)
        if self._renewing is None:
            self._renewing = asyncio.create_task(self._renew_now_and_then())
        if first:
            await self._write([player])

    async def closed(self, player: str) -> None:
        await self._here.closed(player)
        if await self._here.which([player]):
            return
        try:
            await self._client.hdel(self._key(player), self.process_id)
        except (RedisError, OSError) as exc:
            log.warning("online: %s not taken out: %s", player, exc)

    async def which(self, players: Collection[str]) -> set[str]:
        ordered = list(players)
        if not ordered:
            return set()
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for player in ordered:
                    pipe.hvals(self._key(player))
                answers = await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("online: not read: %s", exc)
            return set()
        now = self.clock.now()
        return {
            p
            for p, values in zip(ordered, answers, strict=True)
            if any(float(v) > now for v in values)
        }

    async def _write(self, players: list[str]) -> None:
        until = repr(self.clock.now() + self.seconds)
        kept = max(60, int(self.seconds * 4))  # a hash nobody renews goes, whatever the clock says
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for player in players:
                    pipe.hset(self._key(player), self.process_id, until)
                    pipe.expire(self._key(player), kept)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("online: %d players not written: %s", len(players), exc)

    async def _renew_now_and_then(self) -> None:
        while True:
            await asyncio.sleep(self.seconds / 3)
            players = sorted(self._here._sockets)
            if players:
                await self._write(players)

    async def close(self) -> None:
        if self._renewing is not None:
            self._renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._renewing
        players = sorted(self._here._sockets)
        with contextlib.suppress(RedisError, OSError):
            async with self._client.pipeline(transaction=False) as pipe:
                for player in players:
                    pipe.hdel(self._key(player), self.process_id)
                await pipe.execute()
        await self._client.aclose()
