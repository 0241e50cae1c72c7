"""How many people are online: players with a socket open (a page of the hall) on any process.

Each process counts its own sockets a player (``arrived``, ``left``: the web's sockets,
``web/live_sockets.py``). On one process that is the count. On several, a Redis sorted set
(``<prefix>online``: player -> there until) holds everyone: a player is added when their first
socket opens here, kept by each process renewing its players every ``RENEW`` seconds (there for
three renewals more: a process that dies stops keeping them), and taken out when their last
socket here closes (a player with pages on two processes may then be missed until the other's
next renewal).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Collection
from typing import Protocol

import redis.asyncio as redis
from redis.exceptions import RedisError

from .clock import Clock

log = logging.getLogger("dominohall.redis")

RENEW = 5.0  # seconds between a process's renewals of its players


class Online(Protocol):
    def arrived(self, player: str) -> None: ...

    def left(self, player: str) -> None: ...

    async def count(self) -> int:
        """How many players are online now."""
        ...

    async def which(self, players: Collection[str]) -> set[str]:
        """Those of ``players`` online now (on any process)."""
        ...

    async def close(self) -> None: ...


class MemoryOnline:
    """One process: the players with a socket open here."""

    def __init__(self) -> None:
        self.sockets: dict[str, int] = {}  # player -> their sockets open here

    def arrived(self, player: str) -> None:
        self.sockets[player] = self.sockets.get(player, 0) + 1

    def left(self, player: str) -> None:
        held = self.sockets.get(player, 0) - 1
        if held > 0:
            self.sockets[player] = held
        else:
            self.sockets.pop(player, None)

    async def count(self) -> int:
        return len(self.sockets)

    async def which(self, players: Collection[str]) -> set[str]:
        return {p for p in players if p in self.sockets}

    async def close(self) -> None:
        pass


class RedisOnline:
    """Several processes: everyone's players in one sorted set (the module's docstring)."""

    def __init__(self, url: str, *, prefix: str, clock: Clock, renew: float = RENEW) -> None:
        self.key = f"{prefix}online"
        self.here = MemoryOnline()
        self._clock = clock
        self._renew = renew
        self._client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        self._writes: set[asyncio.Task[None]] = set()
        self._order = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._renewing(), name="online-renewal")

    def arrived(self, player: str) -> None:
        first = player not in self.here.sockets
        self.here.arrived(player)
        if first:
            self._write(self._client.zadd(self.key, {player: self._until()}))

    def left(self, player: str) -> None:
        self.here.left(player)
        if player not in self.here.sockets:
            self._write(self._client.zrem(self.key, player))

    async def count(self) -> int:
        try:
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.zremrangebyscore(self.key, "-inf", self._clock.now())
                pipe.zcard(self.key)
                _, count = await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("online: not counted (%s)", exc)
            return await self.here.count()
        return int(count)

    async def which(self, players: Collection[str]) -> set[str]:
        asked = list(players)
        if not asked:
            return set()
        try:
            until = await self._client.zmscore(self.key, asked)
        except (RedisError, OSError) as exc:
            log.warning("online: not read (%s)", exc)
            return await self.here.which(asked)
        now = self._clock.now()
        return {p for p, t in zip(asked, until, strict=True) if t is not None and t > now}

    def _until(self) -> float:
        return self._clock.now() + 3 * self._renew

    def _write(self, work: Awaitable[object]) -> None:
        """A write in the background, after those before it (a leave never overtakes its
        arrival)."""

        async def run() -> None:
            try:
                async with self._order:
                    await work
            except (RedisError, OSError) as exc:
                log.warning("online: not written (%s)", exc)

        task = asyncio.create_task(run())
        self._writes.add(task)
        task.add_done_callback(self._writes.discard)

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self._renew)
            players = list(self.here.sockets)
            if not players:
                continue
            until = self._until()
            try:
                await self._client.zadd(self.key, dict.fromkeys(players, until))
            except (RedisError, OSError) as exc:
                log.warning("online: not renewed (%s)", exc)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._writes:
            await asyncio.gather(*self._writes, return_exceptions=True)
        await self._client.aclose()
