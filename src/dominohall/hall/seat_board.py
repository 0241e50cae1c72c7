"""The seats that have a connection, across processes: each process writes which seats it has a
socket for (``arrive``, ``leave``), and a table's owner reads which seats have one anywhere
(``present``). The same for the sockets without a seat: each process writes how many watch a
table through it (``watch``), and the owner reads each process's count (``watching``).

One process (``MemorySeatBoard``) counts in memory. Several (``RedisSeatBoard``) write one Redis
hash a table, a field for each seat and process that has a socket there, whose value is the
time it stops counting. Each process renews its own fields (``renew``) well within that time;
a process that dies renews nothing, and its sockets stop counting once their time is up (the
table's owner looks again on its rounds: ``Presence.tick``). A process that stops cleanly takes
its fields out (``close``).
"""

from __future__ import annotations

import logging
from typing import Protocol

import redis.asyncio as redis
from redis.exceptions import RedisError

from .clock import Clock

log = logging.getLogger("dominohall.redis")

SEAT_SECONDS = 10.0  # a dead process's sockets count this long at most
RENEW_CHUNK = 500  # tables a script call renews (a script holds Redis while it runs)


class SeatBoard(Protocol):
    """Where each process says which seats it has a socket for."""

    process_id: str  # this process, as its fields on the board name it

    async def arrive(self, table_id: str, seat: int) -> None:
        """This process has a socket for the seat now (its first)."""
        ...

    async def leave(self, table_id: str, seat: int) -> None:
        """This process has no socket for the seat any more."""
        ...

    async def present(self, table_id: str) -> dict[int, set[str]] | None:
        """Each seat with a socket on some live process, and those processes (None: the board
        could not be read; the caller keeps what it knew)."""
        ...

    async def watch(self, table_id: str, count: int) -> None:
        """This process has ``count`` sockets without a seat on the table now (0: none)."""
        ...

    async def watching(self, table_id: str) -> dict[str, int] | None:
        """How many watch the table through each live process (None: the board could not be
        read)."""
        ...

    async def renew(self) -> None:
        """This process's seats and watchers count on (a round, well within the time they count
        for)."""
        ...


class MemorySeatBoard:
    """One process: the seats with a socket are those it counts."""

    def __init__(self, process_id: str = "here") -> None:
        self.process_id = process_id
        self._seats: dict[str, set[int]] = {}
        self._watchers: dict[str, int] = {}

    async def arrive(self, table_id: str, seat: int) -> None:
        self._seats.setdefault(table_id, set()).add(seat)

    async def leave(self, table_id: str, seat: int) -> None:
        seats = self._seats.get(table_id)
        if seats is not None:
            seats.discard(seat)
            if not seats:
                del self._seats[table_id]

    async def present(self, table_id: str) -> dict[int, set[str]]:
        return {seat: {self.process_id} for seat in self._seats.get(table_id, ())}

    async def watch(self, table_id: str, count: int) -> None:
        if count > 0:
            self._watchers[table_id] = count
        else:
            self._watchers.pop(table_id, None)

    async def watching(self, table_id: str) -> dict[str, int]:
        count = self._watchers.get(table_id, 0)
        return {self.process_id: count} if count else {}

    async def renew(self) -> None:
        pass  # nothing expires in memory


class RedisSeatBoard:
    """Several processes: a Redis hash a table (``<prefix>seats:<table>``), a field
    ``<seat>|<process>`` a seat this process has a socket for, valued the time (the hall's
    clock) it stops counting unless renewed. The watchers likewise: a hash a table
    (``<prefix>watchers:<table>``), a field a process that has sockets without a seat there,
    valued ``<count>|<time it stops counting>``.

    Redis away: a write is logged and dropped (renewal writes every field again within a third of
    ``seconds``), and ``present`` answers None, so that nobody is put out of a game because
    Redis could not be read."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str,
        process_id: str,
        clock: Clock,
        seconds: float = SEAT_SECONDS,
    ) -> None:
        self.prefix = prefix
        self.process_id = process_id
        self.clock = clock
        self.seconds = seconds
        self._client = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        self._renew_script = self._client.register_script(_RENEW)
        self._mine: set[tuple[str, int]] = set()  # (table, seat) this process has a socket for
        self._watched: dict[str, int] = {}  # table -> this process's sockets without a seat

    def _key(self, table_id: str) -> str:
        return f"{self.prefix}seats:{table_id}"

    def _watchers_key(self, table_id: str) -> str:
        return f"{self.prefix}watchers:{table_id}"

    def _field(self, seat: int) -> str:
        return f"{seat}|{self.process_id}"

    # Redis forgets a table's hash a while after its last write, whatever the hall's clock says:
    # a hash nobody renews any more (every process with a socket there is gone) is not kept.
    @property
    def _kept_seconds(self) -> int:
        return max(60, int(self.seconds * 6))

    async def arrive(self, table_id: str, seat: int) -> None:
        self._mine.add((table_id, seat))
        await self._write([(table_id, seat)])

    async def leave(self, table_id: str, seat: int) -> None:
        self._mine.discard((table_id, seat))
        try:
            await self._client.hdel(self._key(table_id), self._field(seat))
        except (RedisError, OSError) as exc:
            log.warning("seat board: table %s seat %d not taken out: %s", table_id, seat, exc)

    async def watch(self, table_id: str, count: int) -> None:
        if count > 0:
            self._watched[table_id] = count
            await self._write([], (table_id,))
            return
        self._watched.pop(table_id, None)
        try:
            await self._client.hdel(self._watchers_key(table_id), self.process_id)
        except (RedisError, OSError) as exc:
            log.warning("seat board: table %s's watchers not taken out: %s", table_id, exc)

    async def watching(self, table_id: str) -> dict[str, int] | None:
        try:
            fields = await self._client.hgetall(self._watchers_key(table_id))
        except (RedisError, OSError) as exc:
            log.warning("seat board: table %s's watchers not read: %s", table_id, exc)
            return None
        now = self.clock.now()
        counts: dict[str, int] = {}
        for process, value in fields.items():
            count, _, until = value.decode().partition("|")
            if float(until) > now and int(count) > 0:
                counts[process.decode()] = int(count)
        return counts

    async def renew(self) -> None:
        """Every seat this process has a socket for, and its watchers, count for ``seconds``
        more."""
        await self._write(sorted(self._mine), tuple(sorted(self._watched)))

    async def _write(self, seats: list[tuple[str, int]], watched: tuple[str, ...] = ()) -> None:
        if not seats and not watched:
            return
        until = repr(self.clock.now() + self.seconds)
        fields: dict[str, list[str]] = {}
        for table_id, seat in seats:
            fields.setdefault(table_id, []).append(self._field(seat))
        tables = list(fields.items())
        try:
            # One script call a few hundred tables (``_RENEW``): a renewal of a thousand tables'
            # seats as two commands a table cost the hall about as much as a command a move.
            for start in range(0, max(len(tables), len(watched)), RENEW_CHUNK):
                end = start + RENEW_CHUNK
                await self._renew_chunk(tables[start:end], watched[start:end], until)
        except (RedisError, OSError) as exc:
            log.warning("seat board: %d seats not written: %s", len(seats) + len(watched), exc)

    async def _renew_chunk(
        self, seats: list[tuple[str, list[str]]], watched: tuple[str, ...], until: str
    ) -> None:
        keys = [self._key(table_id) for table_id, _ in seats]
        keys += [self._watchers_key(table_id) for table_id in watched]
        args: list[str | int] = [until, self._kept_seconds, self.process_id, len(seats)]
        for _, names in seats:
            args.append(len(names))
            args.extend(names)
        args.extend(self._watched.get(table_id, 0) for table_id in watched)
        await self._renew_script(keys=keys, args=args)

    async def present(self, table_id: str) -> dict[int, set[str]] | None:
        try:
            fields = await self._client.hgetall(self._key(table_id))
        except (RedisError, OSError) as exc:
            log.warning("seat board: table %s not read: %s", table_id, exc)
            return None
        now = self.clock.now()
        seats: dict[int, set[str]] = {}
        for name, until in fields.items():
            seat, _, process = name.decode().partition("|")
            if float(until) > now:
                seats.setdefault(int(seat), set()).add(process)
        return seats

    async def close(self) -> None:
        """Take this process's fields out (its sockets are closing with it), and disconnect."""
        mine, self._mine = sorted(self._mine), set()
        watched, self._watched = sorted(self._watched), {}
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                for table_id, seat in mine:
                    pipe.hdel(self._key(table_id), self._field(seat))
                for table_id in watched:
                    pipe.hdel(self._watchers_key(table_id), self.process_id)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            log.warning("seat board: not cleared on closing (they expire): %s", exc)
        await self._client.aclose()


# A renewal of this process's fields, as ``RedisSeatBoard`` describes them. KEYS: the seat
# hashes, then the watcher hashes. ARGV: the time the fields count until, how long Redis keeps
# a hash, this process, how many seat hashes; then for each seat hash its fields (a count, then
# the names); then for each watcher hash this process's count of watchers there.
_RENEW = """
local till, kept, process = ARGV[1], ARGV[2], ARGV[3]
local seat_keys = tonumber(ARGV[4])
local at = 5
for i = 1, seat_keys do
    local count = tonumber(ARGV[at])
    local values = {}
    for j = 1, count do
        values[2 * j - 1] = ARGV[at + j]
        values[2 * j] = till
    end
    at = at + count + 1
    redis.call('HSET', KEYS[i], unpack(values))
    redis.call('EXPIRE', KEYS[i], kept)
end
for i = seat_keys + 1, #KEYS do
    redis.call('HSET', KEYS[i], process, ARGV[at] .. '|' .. till)
    redis.call('EXPIRE', KEYS[i], kept)
    at = at + 1
end
return #KEYS
"""
