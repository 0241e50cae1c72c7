"""The matchmaking queue shared in Redis by the hall's processes (``--redis-url``).

Every process takes joins, cancels and looks, and answers status; the one process holding the
``pairing`` claim (``once_only.py``) runs the rounds. A round reads the seekers at one moment
and pairs them with the one policy there is (``MemoryQueue.of``, ``matchmaking.py``); then each
group is taken out of the queue by a Lua script only if every one of its seekers still waits as
read (the same join, by its number in the order of arrival). So a seeker is never in two games,
and never paired once cancelled, even if two processes paired at once (one paused past its
claim): a cancel and a take are each one script, run one after the other by Redis.

Keys, under ``<prefix>queue:``: ``seekers`` (player -> "order bucket json"), ``order`` and
``pairings`` (counters), ``count`` (bucket -> seekers), ``waits:<bucket>`` (the recent waits),
``polled`` and ``sockets`` (player -> there until: a look at the queue, a socket open on some
process), and per player ``last:`` (the last opponents), ``held:`` (an unfinished real-time ranked
game), ``found:`` (the table of the last pairing); ``pairing:<id>`` lists a pairing's players.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

from ..i18n import English
from .errors import HallError
from .hall import Person
from .matchmaking import (
    RECENT_WAITS,
    Bucket,
    MemoryQueue,
    Pairing,
    QueueStatus,
    Seeker,
    already_queued,
    bucket_of,
    holds_one_game,
    in_a_game,
)
from .ratings import Speed
from .seeking import AWAY_GRACE, Found

LAST_KEPT = 24 * 3600  # seconds a player's last opponents are kept (no rematch at once)
FOUND_KEPT = 24 * 3600  # ... the table of their last pairing
HELD_KEPT = 24 * 3600  # ... their unfinished real-time ranked game
# A pairing taken whose table was never opened (its process died between the two) holds its
# players this long only.
UNOPENED_KEPT = 120

_JOIN = """
local P, player = ARGV[1], ARGV[2]
if redis.call('HEXISTS', P .. 'seekers', player) == 1 then return -1 end
if ARGV[4] == '1' and redis.call('EXISTS', P .. 'held:' .. player) == 1 then return -2 end
local order = redis.call('INCR', P .. 'order')
redis.call('HSET', P .. 'seekers', player, order .. ' ' .. ARGV[3] .. ' ' .. ARGV[5])
redis.call('HINCRBY', P .. 'count', ARGV[3], 1)
redis.call('DEL', P .. 'found:' .. player)
return order
"""

# Shared by the scripts that take a seeker out of the queue.
_LEAVE = """
local function leave(P, player, entry)
  local bucket = string.match(entry, '^%d+ (%S+) ')
  redis.call('HDEL', P .. 'seekers', player)
  if redis.call('HINCRBY', P .. 'count', bucket, -1) <= 0 then
    redis.call('HDEL', P .. 'count', bucket)
  end
  return bucket
end
"""

# ARGV: prefix, player, the order of the join to cancel ('' for any).
_CANCEL = (
    _LEAVE
    + """
local P, player = ARGV[1], ARGV[2]
local entry = redis.call('HGET', P .. 'seekers', player)
if not entry then return 0 end
if ARGV[3] ~= '' and string.match(entry, '^(%d+) ') ~= ARGV[3] then return 0 end
leave(P, player, entry)
return 1
"""
)

# ARGV: prefix, now, holds (1/0), recent waits kept, then per seat: player, order, wait, the
# last opponents (JSON). The pairing's id, or 0 when one of its seekers no longer waits as read.
_TAKE = (
    _LEAVE
    + f"""
local P, now, holds, kept = ARGV[1], ARGV[2], ARGV[3], tonumber(ARGV[4])
for i = 5, #ARGV, 4 do
  local entry = redis.call('HGET', P .. 'seekers', ARGV[i])
  if not entry or string.match(entry, '^(%d+) ') ~= ARGV[i + 1] then return 0 end
end
local id = redis.call('INCR', P .. 'pairings')
for i = 5, #ARGV, 4 do
  local player = ARGV[i]
  local bucket = leave(P, player, redis.call('HGET', P .. 'seekers', player))
  redis.call('LPUSH', P .. 'waits:' .. bucket, ARGV[i + 2])
  redis.call('LTRIM', P .. 'waits:' .. bucket, 0, kept - 1)
  redis.call('SET', P .. 'last:' .. player, ARGV[i + 3], 'EX', {LAST_KEPT})
  redis.call('RPUSH', P .. 'pairing:' .. id, player)
  if holds == '1' then
    redis.call('DEL', P .. 'held:' .. player)
    redis.call('HSET', P .. 'held:' .. player, 'pairing', id, 'table', '')
    redis.call('EXPIRE', P .. 'held:' .. player, {UNOPENED_KEPT})
  end
end
redis.call('EXPIRE', P .. 'pairing:' .. id, {HELD_KEPT})
return id
"""
)

# ARGV: prefix, pairing id, table, then its players.
_SEATED = f"""
local P, id, tbl = ARGV[1], ARGV[2], ARGV[3]
for i = 4, #ARGV do
  local player = ARGV[i]
  redis.call('DEL', P .. 'found:' .. player)
  redis.call('HSET', P .. 'found:' .. player, 'table', tbl, 'pairing', id)
  redis.call('EXPIRE', P .. 'found:' .. player, {FOUND_KEPT})
  if redis.call('HGET', P .. 'held:' .. player, 'pairing') == id then
    redis.call('HSET', P .. 'held:' .. player, 'table', tbl)
    redis.call('EXPIRE', P .. 'held:' .. player, {HELD_KEPT})
  end
end
"""

# ARGV: prefix, pairing id.
_GAME_OVER = """
local P, id = ARGV[1], ARGV[2]
for _, player in ipairs(redis.call('LRANGE', P .. 'pairing:' .. id, 0, -1)) do
  if redis.call('HGET', P .. 'held:' .. player, 'pairing') == id then
    redis.call('DEL', P .. 'held:' .. player)
  end
end
redis.call('DEL', P .. 'pairing:' .. id)
"""

# ARGV: prefix, the key (polled, sockets), then player, until for each.
_THERE = """
local P = ARGV[1]
for i = 3, #ARGV, 2 do
  if redis.call('HEXISTS', P .. 'seekers', ARGV[i]) == 1 then
    redis.call('HSET', P .. ARGV[2], ARGV[i], ARGV[i + 1])
  end
end
"""

# ARGV: prefix, now, grace, then the players whose socket is open on the asking process. The
# real-time seekers there neither by a look nor by a socket for ``grace`` seconds leave; the
# times of those who no longer seek are forgotten. Those who left.
_DROP_AWAY = (
    _LEAVE
    + """
local P, now, grace = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local here = {}
for i = 4, #ARGV do here[ARGV[i]] = true end
local seeking = {}
local all = redis.call('HGETALL', P .. 'seekers')
for i = 1, #all, 2 do seeking[all[i]] = all[i + 1] end
local till = {}
for _, key in ipairs({'polled', 'sockets'}) do
  local times = redis.call('HGETALL', P .. key)
  for i = 1, #times, 2 do
    local player, at = times[i], tonumber(times[i + 1])
    if not seeking[player] then
      redis.call('HDEL', P .. key, player)
    elseif not till[player] or at > till[player] then
      till[player] = at
    end
  end
end
local gone = {}
for player, at in pairs(till) do
  local entry = seeking[player]
  local bucket = string.match(entry, '^%d+ (%S+) ')
  if string.find(bucket, '|real-time|', 1, true) and not here[player] and now > at + grace then
    leave(P, player, entry)
    redis.call('HDEL', P .. 'polled', player)
    redis.call('HDEL', P .. 'sockets', player)
    table.insert(gone, player)
  end
end
return gone
"""
)


def bucket_key(bucket: Bucket) -> str:
    """A bucket as one word (``draw|2|real-time|1``, an arena one ``draw|2|real-time|1|arena``),
    the queue's name for it in Redis."""
    arena = "|arena" if bucket.arena else ""
    return f"{bucket.pool}|{bucket.players}|{bucket.speed.value}|{int(bucket.ranked)}{arena}"


def _bucket(key: str) -> Bucket:
    pool, players, speed, ranked, *arena = key.split("|")
    return Bucket(pool, int(players), Speed(speed), ranked == "1", arena == ["arena"])


def _entry(player: str, text: str) -> tuple[int, Seeker, str]:
    """A seeker's entry ("order bucket json") as its order, the seeker and their name."""
    order, key, rest = text.split(" ", 2)
    body = orjson.loads(rest)
    seeker = Seeker(player, _bucket(key), int(body["rating"]), float(body["joined_at"]))
    return int(order), seeker, str(body["name"])


class RedisSeekers:
    """The queue and what the matchmaker keeps of its seekers, in Redis (``seeking.Seekers``)."""

    shared = True

    def __init__(self, url: str, *, prefix: str) -> None:
        self.prefix = prefix + "queue:"
        self._redis: redis.Redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=5.0, socket_connect_timeout=5.0
        )
        self._join = self._redis.register_script(_JOIN)
        self._cancel = self._redis.register_script(_CANCEL)
        self._take = self._redis.register_script(_TAKE)
        self._seated = self._redis.register_script(_SEATED)
        self._game_over = self._redis.register_script(_GAME_OVER)
        self._there = self._redis.register_script(_THERE)
        self._drop_away = self._redis.register_script(_DROP_AWAY)

    async def close(self) -> None:
        await self._redis.aclose()

    async def _run(self, script: Any, *args: object) -> Any:
        try:
            return await script(args=[self.prefix, *args])
        except RedisError as exc:
            raise _unreachable(exc) from exc

    # Joining and leaving -------------------------------------------------------------------
    async def join(
        self,
        person: Person,
        pool: str,
        players: int,
        *,
        speed: Speed,
        ranked: bool,
        rating: int,
        now: float,
        arena: bool = False,
    ) -> Seeker:
        bucket = bucket_of(pool, players, speed, ranked, arena)
        body = orjson.dumps({"name": person.name, "rating": rating, "joined_at": now}).decode()
        key = bucket_key(bucket)
        order = await self._run(self._join, person.id, key, int(holds_one_game(bucket)), body)
        if order == -1:
            raise already_queued(person.id)
        if order == -2:
            raise in_a_game(person.id)
        return Seeker(person.id, bucket, rating, now)

    async def cancel(self, player: str) -> bool:
        return bool(await self._run(self._cancel, player, ""))

    async def seeking(self, player: str) -> Seeker | None:
        text = await self._call(self._redis.hget(self.prefix + "seekers", player))
        return None if text is None else _entry(player, text)[1]

    async def anyone(self) -> bool:
        return bool(await self._call(self._redis.hlen(self.prefix + "seekers")))

    # Pairing ------------------------------------------------------------------------------
    async def pair(self, now: float) -> list[tuple[Pairing, list[Person]]]:
        entries = await self._call(self._redis.hgetall(self.prefix + "seekers"))
        if not entries:
            return []
        read = {player: _entry(player, text) for player, text in entries.items()}
        players = list(read)
        lasts = await self._call(self._redis.mget([self.prefix + "last:" + p for p in players]))
        last_opponents = {
            p: frozenset(orjson.loads(text))
            for p, text in zip(players, lasts, strict=True)
            if text is not None
        }
        snapshot = MemoryQueue.of([(o, s) for o, s, _ in read.values()], last_opponents)
        made = []
        for pairing in snapshot.pair(now):
            args: list[object] = [now, int(holds_one_game(pairing.bucket)), RECENT_WAITS]
            for seeker in pairing.seekers:
                others = sorted(set(pairing.players) - {seeker.player})
                wait = now - seeker.joined_at
                args += [seeker.player, read[seeker.player][0], wait, orjson.dumps(others).decode()]
            pairing_id = await self._run(self._take, *args)
            if pairing_id:  # (0: one of them cancelled, or was paired, meanwhile)
                people = [Person(p, read[p][2]) for p in pairing.players]
                taken = Pairing(pairing_id, pairing.bucket, pairing.seekers, now)
                made.append((taken, people))
        return made

    async def seated(self, pairing: Pairing, table: str) -> None:
        await self._run(self._seated, pairing.id, table, *pairing.players)

    async def found(self, player: str) -> Found | None:
        found = await self._call(self._redis.hgetall(self.prefix + "found:" + player))
        return Found(found["table"], int(found["pairing"])) if found else None

    async def held(self, player: str) -> Found | None:
        held = await self._call(self._redis.hgetall(self.prefix + "held:" + player))
        if not held or not held["table"]:
            return None  # (a table being opened: the queue holds them until it is, or lapses)
        return Found(held["table"], int(held["pairing"]))

    async def game_over(self, pairing_id: int) -> None:
        await self._run(self._game_over, pairing_id)

    # What the page shows --------------------------------------------------------------------
    async def status(self, seeker: Seeker) -> QueueStatus:
        key = bucket_key(seeker.bucket)
        async with self._redis.pipeline(transaction=True) as pipe:
            pipe.hget(self.prefix + "count", key)
            pipe.lrange(self.prefix + "waits:" + key, 0, -1)
            count, waits = await self._call(pipe.execute())
        average = sum(map(float, waits)) / len(waits) if waits else None
        return QueueStatus(int(count or 0), average)

    async def sizes(self) -> dict[Bucket, int]:
        counts = await self._call(self._redis.hgetall(self.prefix + "count"))
        return {_bucket(key): int(n) for key, n in counts.items() if int(n) > 0}

    # Whether a seeker is still there --------------------------------------------------------
    async def looked(self, player: str, until: float) -> None:
        await self._run(self._there, "polled", player, until)

    async def sockets(
        self, open_: Collection[str], until: float, closed: Mapping[str, float]
    ) -> None:
        times: list[object] = []
        for player in open_:
            times += [player, until]
        for player, at in closed.items():
            times += [player, at]
        await self._run(self._there, "sockets", *times)

    async def drop_away(self, now: float, here: Collection[str]) -> list[str]:
        gone = await self._run(self._drop_away, now, AWAY_GRACE, *here)
        return [str(player) for player in gone]

    async def _call(self, work: Any) -> Any:
        try:
            return await work
        except RedisError as exc:
            raise _unreachable(exc) from exc


def _unreachable(exc: RedisError) -> HallError:
    return HallError(
        "queue_unreachable",
        "the matchmaking queue cannot be reached now ({exc})",
        exc=English(str(exc)),
    )
