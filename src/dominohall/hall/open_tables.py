"""The lobby's list of open tables (public, seating, a seat free) across processes.

One process answers from the tables it holds (``Hall.open_tables``). Several keep the list in a
Redis hash (``<prefix>open-tables``: a table's id -> its summary as JSON), written by each
table's owner after every change of the table (``Hall._follow``): shown while it is open, taken
out once it is not. A new owner writes it again on taking the table over, so a table whose
owner died between a change and its write is right again within the lease time.
"""

from __future__ import annotations

import logging

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

from .errors import HallError
from .messages import TableSummary

log = logging.getLogger("dominohall.redis")


class RedisOpenTables:
    def __init__(self, url: str, *, prefix: str) -> None:
        self.key = f"{prefix}open-tables"
        self._client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)

    async def show(self, table_id: str, summary: TableSummary) -> None:
        """The table is open: listed with this summary (its free seats as they are now)."""
        try:
            await self._client.hset(self.key, table_id, orjson.dumps(summary))
        except (RedisError, OSError) as exc:
            log.warning("open tables: table %s not listed: %s", table_id, exc)

    async def hide(self, table_id: str) -> None:
        """The table is not open (started, full, closed, private): out of the list."""
        try:
            await self._client.hdel(self.key, table_id)
        except (RedisError, OSError) as exc:
            log.warning("open tables: table %s not taken out: %s", table_id, exc)

    async def listed(self) -> list[TableSummary]:
        """Every open table's summary, newest first (HallError when Redis cannot be read)."""
        try:
            values = await self._client.hvals(self.key)
        except (RedisError, OSError) as exc:
            raise HallError(
                "lobby_unreachable", "the list of open tables cannot be read now: try again"
            ) from exc
        tables: list[TableSummary] = [orjson.loads(v) for v in values]
        tables.sort(key=lambda t: -t["created_at"])
        return tables

    async def close(self) -> None:
        await self._client.aclose()
