"""The lobby's board: every table the lobby shows (``lobby.py``), put there by the table's owner,
and followed by each process's lobby (``lobby_feed.py``): in memory on one process, in Redis on
several.

In Redis, ``<prefix>lobby:tables`` is a hash (a table's id -> its entry as JSON) and
``<prefix>lobby:changes`` a stream of the puts (the last ``KEPT`` or so). A put writes both in one
script call (atomic, as a transaction would be), so a follower that reads the hash and the
stream's last id in one transaction, then reads the stream on from that id, misses no put and
sees none twice. A follower that lost Redis, or fell so far behind that the stream was trimmed
past it, reads the whole hash again. A new owner puts a table again on taking it over
(``Hall.adopt``), so an entry its dead owner left stale is right again within the lease time.

The owner does not wait for Redis: a put is kept (the latest of each table) and written with the
other puts of the same moment in one script call by the board's writer (``PUT_GATHER_SECONDS``;
a call of its own for each put, awaited by the owner, cost about 35 us a move at 1,000 tables:
docs/scaling.md), and written again once Redis is back if it was away. The process's own
``listed`` shows its puts not yet written; other processes see them a moment later, as they see
every other put.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Protocol

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

from .backoff import Backoff
from .errors import HallError
from .messages import LobbyTable, TableSummary
from .stream_pages import BLOCK_MS, read_after

log = logging.getLogger("dominohall.redis")

# A follower is told the whole board (a dict it may keep), then each put as it comes.
OnWhole = Callable[[dict[str, LobbyTable]], None]
OnPut = Callable[[str, LobbyTable | None], None]

KEPT = 10_000  # puts the stream keeps (MAXLEN ~): a follower further behind reads the hash again
PUT_GATHER_SECONDS = 0.05  # puts of one moment written together (the lobby is seen by people)
CLOSE_SECONDS = 2.0  # a closing board's wait for its puts to be written


class LobbyBoard(Protocol):
    def put(self, table_id: str, entry: LobbyTable | None) -> None:
        """The table as the lobby shows it now (None: out of the lobby), written now or soon
        (never lost while this process lives: written again when the store comes back)."""
        ...

    async def written(self) -> None:
        """Every put made before now is written (or its table is no longer this process's)."""
        ...

    async def listed(self) -> list[TableSummary]:
        """The open tables' summaries, newest first (``GET /api/tables``)."""
        ...

    def follow(self, on_whole: OnWhole, on_put: OnPut) -> None:
        """Tell ``on_whole`` the whole board, then ``on_put`` each put from then on (again the
        whole board after a gap)."""
        ...

    async def close(self) -> None: ...


def open_summaries(entries: list[LobbyTable]) -> list[TableSummary]:
    tables = [e["table"] for e in entries if e["kind"] == "open"]
    tables.sort(key=lambda t: -t["created_at"])
    return tables


class MemoryLobbyBoard:
    """One process: the board is a dict, and its followers are called at each put."""

    def __init__(self) -> None:
        self.entries: dict[str, LobbyTable] = {}
        self._followers: list[OnPut] = []

    def put(self, table_id: str, entry: LobbyTable | None) -> None:
        if entry is None:
            self.entries.pop(table_id, None)
        else:
            self.entries[table_id] = entry
        for on_put in self._followers:
            on_put(table_id, entry)

    async def written(self) -> None:
        return None  # (written at once)

    async def listed(self) -> list[TableSummary]:
        return open_summaries(list(self.entries.values()))

    def follow(self, on_whole: OnWhole, on_put: OnPut) -> None:
        on_whole(dict(self.entries))
        self._followers.append(on_put)

    async def close(self) -> None:
        self._followers.clear()


class RedisLobbyBoard:
    """Several processes: the board in Redis (the module's docstring says how)."""

    def __init__(
        self, url: str, *, prefix: str, kept: int = KEPT, gather: float = PUT_GATHER_SECONDS
    ) -> None:
        self.key = f"{prefix}lobby:tables"
        self.stream = f"{prefix}lobby:changes"
        self._kept = kept
        self._client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        self._put_script = self._client.register_script(_PUT)
        # The follower's reads block for a second at a time: a timeout of its own above that.
        self._reader = redis.Redis.from_url(
            url, socket_timeout=BLOCK_MS / 1000 + 5.0, socket_connect_timeout=5.0
        )
        self._task: asyncio.Task[None] | None = None
        self._gather = gather
        # Puts not written yet, the latest of each table (b"": out of the lobby), and the batch
        # being written now.
        self._waiting: dict[str, bytes] = {}
        self._writing: dict[str, bytes] = {}
        self._to_write = asyncio.Event()
        self._all_written = asyncio.Event()
        self._all_written.set()
        self._writer: asyncio.Task[None] | None = None
        # Whether a put not written yet is still this process's to write (set by the wiring to
        # the tables it holds): one whose table moved to another process meanwhile is dropped,
        # lest it land after the new owner's.
        self.keeps: Callable[[str], bool] = lambda _table_id: True

    def put(self, table_id: str, entry: LobbyTable | None) -> None:
        self._waiting[table_id] = b"" if entry is None else orjson.dumps(entry)
        self._all_written.clear()
        self._to_write.set()
        if self._writer is None:
            self._writer = asyncio.create_task(self._write_forever(), name="lobby-writer")

    async def written(self) -> None:
        await self._all_written.wait()

    async def _write_forever(self) -> None:
        backoff = Backoff()
        while True:
            await self._to_write.wait()
            await asyncio.sleep(self._gather)  # the puts of the same moment, in one call
            self._to_write.clear()
            while self._waiting:
                self._writing = {t: b for t, b in self._waiting.items() if self.keeps(t)}
                self._waiting = {}
                try:
                    await self._write(self._writing)
                except (RedisError, OSError) as exc:
                    log.warning("lobby: %d tables not put yet: %s", len(self._writing), exc)
                    self._waiting = {**self._writing, **self._waiting}  # (later puts win)
                    await asyncio.sleep(backoff.next())
                    continue
                except Exception:  # a fault of ours: said, and the writer goes on
                    log.exception("lobby: %d tables not put", len(self._writing))
                finally:
                    self._writing = {}
                backoff.reset()
            self._all_written.set()

    async def _write(self, batch: dict[str, bytes]) -> None:
        if not batch:
            return
        args: list[str | bytes | int] = [self._kept]
        for table_id, body in batch.items():
            args += [table_id, body]
        # One script call (``_PUT``): atomic, so a follower never sees half a batch.
        await self._put_script(keys=[self.key, self.stream], args=args)

    async def listed(self) -> list[TableSummary]:
        """The open tables, this process's puts not written yet included (HallError when Redis
        cannot be read)."""
        try:
            values = await self._client.hgetall(self.key)
        except (RedisError, OSError) as exc:
            raise HallError(
                "lobby_unreachable", "the list of open tables cannot be read now: try again"
            ) from exc
        bodies = {k.decode(): v for k, v in values.items()}
        bodies.update(self._writing)
        bodies.update(self._waiting)
        return open_summaries([orjson.loads(v) for v in bodies.values() if v])

    def follow(self, on_whole: OnWhole, on_put: OnPut) -> None:
        assert self._task is None, "one follower a board"
        self._task = asyncio.create_task(self._follow(on_whole, on_put), name="lobby-follower")

    async def _follow(self, on_whole: OnWhole, on_put: OnPut) -> None:
        backoff = Backoff()
        while True:
            try:
                cursor: str | None = await self._whole(on_whole)
                backoff.reset()
                while cursor is not None:
                    cursor = await self._read_on(cursor, on_put)
                # (fallen behind the stream's trimming: the whole board again)
            except (RedisError, OSError) as exc:
                log.warning("lobby: the board cannot be read (%s): trying again", exc)
                await asyncio.sleep(backoff.next())

    async def _whole(self, on_whole: OnWhole) -> str:
        """The whole board and the stream's last id, read at one moment."""
        async with self._reader.pipeline(transaction=True) as pipe:
            pipe.hgetall(self.key)
            pipe.xrevrange(self.stream, count=1)
            entries, last = await pipe.execute()
        on_whole({k.decode(): orjson.loads(v) for k, v in entries.items()})
        return last[0][0].decode() if last else "0-0"

    async def _read_on(self, cursor: str, on_put: OnPut) -> str | None:
        """The puts after ``cursor``, told; the new cursor (None: some were trimmed unread)."""
        puts = await read_after(self._reader, self.stream, cursor)
        if puts is None:
            return None
        for put_id, fields in puts:
            body = fields[b"e"]
            on_put(fields[b"t"].decode(), orjson.loads(body) if body else None)
            cursor = put_id
        return cursor

    async def close(self) -> None:
        """Write what was put (for a moment at most: Redis may be away), then stop."""
        if self._writer is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.written(), CLOSE_SECONDS)
            self._writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._writer
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._client.aclose()
        await self._reader.aclose()


# Puts: KEYS, the board's hash and its stream; ARGV, how many puts the stream keeps (about), then
# each table and its entry as JSON (empty: out of the lobby). A stream entry a put, as before.
_PUT = """
for i = 2, #ARGV, 2 do
    if ARGV[i + 1] == '' then
        redis.call('HDEL', KEYS[1], ARGV[i])
    else
        redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1])
    end
    redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[1], '*', 't', ARGV[i], 'e', ARGV[i + 1])
end
return #ARGV
"""
