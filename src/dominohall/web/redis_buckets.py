"""The rate limits' token buckets in Redis, shared by the hall's processes (``--redis-url``).

A bucket is a hash ``<prefix>limit:<name>:<key>`` of ``tokens`` and ``at`` (the hall's clock
when they were counted). A Lua script reads it, refills it for the time since, takes a token or
refuses, and writes it back, in one step however many processes ask at once. The times are the
asking process's clock (``now``, passed in: tests drive it by hand), never Redis's; a stamp is
never moved back, so a process whose clock is behind another's refills nothing meanwhile. A
bucket whose tokens are not all there expires once it would be full again (at the refill rate,
in Redis's time): a full bucket is no key at all, and nothing needs cleaning up.

Redis unreachable: a limit that cannot be checked lets the request through, with a warning
logged once (when Redis goes, and a line when it is back): these limits slow down abuse, and
refusing every new table, account or chat line while Redis is away would turn its outage into
the hall's. Except password guesses: letting them through would lift the guessing limit for as
long as Redis is away (or can be kept away), so a password is not checked then and the request
is refused with ``limits_unreachable`` (503, try again). Players already signed in stay so.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError

from ..hall import HallError
from .ratelimit import Buckets, BucketsOf, Limit, MemorySocketCount

log = logging.getLogger("dominohall.web")

# The limits whose requests are refused, not let through, when Redis cannot be reached.
CHECKED_OR_REFUSED = frozenset({"sign-in-account", "sign-in-address"})

# KEYS[1]: the bucket. ARGV: count, seconds (of a full refill), now, 'take' or 'give'.
# 'take': '0' if a token was taken, else the seconds until one is back (nothing written).
# 'give': a token back to a bucket that exists (a missing one is full).
_BUCKET = """
local count, seconds, now = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local held = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(held[1]), tonumber(held[2])
if tokens == nil or at == nil then
  if ARGV[4] == 'give' then return '0' end
  tokens, at = count, now
end
if now > at then
  tokens = math.min(count, tokens + (now - at) * count / seconds)
else
  now = at
end
if ARGV[4] == 'take' then
  if tokens < 1 then return string.format('%.17g', (1 - tokens) * seconds / count) end
  tokens = tokens - 1
else
  tokens = math.min(count, tokens + 1)
end
if tokens >= count then
  redis.call('DEL', KEYS[1])
else
  redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens),
             'at', string.format('%.17g', now))
  redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((count - tokens) * seconds / count * 1000)))
end
return '0'
"""


class RedisBuckets:
    """One limit's buckets in Redis (``ratelimit.Buckets``); ``fail_closed``: refuse a take
    when Redis cannot be reached (``limits_unreachable``) rather than let it through."""

    def __init__(
        self,
        client: redis.Redis,
        name: str,
        limit: Limit | None,
        now: Callable[[], float],
        *,
        prefix: str,
        fail_closed: bool = False,
    ) -> None:
        self.limit = limit
        self.name = name
        self._redis = client
        self._script = client.register_script(_BUCKET)
        self._now = now
        self._prefix = f"{prefix}limit:{name}:"
        self._fail_closed = fail_closed
        self._unreachable = False  # warned: the next success says Redis is back

    def key(self, key: str) -> str:
        """The Redis key of ``key``'s bucket."""
        return self._prefix + key

    async def take(self, key: str) -> float:
        if self.limit is None:
            return 0.0
        try:
            return float(await self._run(key, "take"))
        except RedisError as exc:
            self._went(exc)
            if self._fail_closed:
                raise HallError(
                    "limits_unreachable",
                    "the hall cannot check its limits now, so no password is checked: "
                    "try again in a moment",
                ) from exc
            return 0.0

    async def give_back(self, key: str) -> None:
        if self.limit is None:
            return
        try:
            await self._run(key, "give")
        except RedisError as exc:  # a token not given back: the limit a little stricter
            self._went(exc)

    async def reset(self, key: str) -> None:
        try:
            await self._redis.delete(self.key(key))
        except RedisError as exc:
            self._went(exc)
        else:
            self._back()

    def forget_full(self) -> None:
        """Nothing to do: a full bucket has no key (each expires once it would be full)."""

    async def _run(self, key: str, what: str) -> Any:
        assert self.limit is not None
        args: list[str | int] = [
            self.limit.count,
            repr(self.limit.seconds),
            repr(self._now()),
            what,
        ]
        answer = await self._script(keys=[self.key(key)], args=args)
        self._back()
        return answer

    def _went(self, exc: RedisError) -> None:
        if not self._unreachable:
            self._unreachable = True
            log.warning(
                "rate limit %s: Redis cannot be reached (%s); until it is back, %s",
                self.name,
                exc,
                "no password is checked (limits_unreachable)"
                if self._fail_closed
                else "its requests are let through unchecked",
            )

    def _back(self) -> None:
        if self._unreachable:
            self._unreachable = False
            log.info("rate limit %s: Redis is back", self.name)


# KEYS[1]: an address's sockets, a hash: a field ``<process>`` its count there, a field
# ``<process>:until`` when that count stops counting unless renewed.
# ARGV: process, most (-1: no cap), now, until, ttl (ms), 'open' | 'close' | 'set', count ('set').
# 'open': 1 and one more counted, or 0 (nothing written) when the live counts reach ``most``;
# a dead process's fields (its time up) are deleted on the way. 'set': the process's count as
# it knows it (its renewal). The key expires once no process renews it.
_SOCKETS = """
local process, most, now = ARGV[1], tonumber(ARGV[2]), tonumber(ARGV[3])
local what = ARGV[6]
if what == 'open' then
  local total = 0
  local held = redis.call('HGETALL', KEYS[1])
  local fields = {}
  for i = 1, #held, 2 do fields[held[i]] = held[i + 1] end
  for name, value in pairs(fields) do
    if string.sub(name, -6) ~= ':until' then
      local until_ = tonumber(fields[name .. ':until'] or '0')
      if until_ <= now then
        redis.call('HDEL', KEYS[1], name, name .. ':until')
      else
        total = total + tonumber(value)
      end
    end
  end
  if most >= 0 and total >= most then return 0 end
  redis.call('HINCRBY', KEYS[1], process, 1)
elseif what == 'close' then
  local count = tonumber(redis.call('HGET', KEYS[1], process) or '0')
  if count <= 1 then
    redis.call('HDEL', KEYS[1], process, process .. ':until')
    return 1
  end
  redis.call('HSET', KEYS[1], process, count - 1)
else
  if tonumber(ARGV[7]) <= 0 then
    redis.call('HDEL', KEYS[1], process, process .. ':until')
    return 1
  end
  redis.call('HSET', KEYS[1], process, ARGV[7])
end
redis.call('HSET', KEYS[1], process .. ':until', ARGV[4])
redis.call('PEXPIRE', KEYS[1], tonumber(ARGV[5]))
return 1
"""

SOCKETS_RENEW = 5.0  # seconds between a process's renewals of its sockets' counts


class RedisSocketCount:
    """The sockets open per address across the hall's processes (``ratelimit.SocketCount``):
    each process's count of an address in one hash, renewed every ``renew`` seconds and counting
    for three renewals more, so that the sockets of a process that died stop counting. The count
    here is kept in memory too (``here``): the renewal writes it as it is, which also mends a
    count a lost write left wrong. Redis unreachable: a socket is let through (logged)."""

    def __init__(
        self,
        client: redis.Redis,
        most: int | None,
        now: Callable[[], float],
        *,
        prefix: str,
        renew: float = SOCKETS_RENEW,
    ) -> None:
        self.most = most
        self.here = MemorySocketCount(None)
        self.process = uuid.uuid4().hex  # this process's fields
        self._redis = client
        self._script = client.register_script(_SOCKETS)
        self._now = now
        self._prefix = f"{prefix}sockets:"
        self._renew = renew
        self._task: asyncio.Task[None] | None = None
        self._unreachable = False

    def key(self, address: str) -> str:
        return self._prefix + address

    def start(self) -> None:
        self._task = asyncio.create_task(self._renewing(), name="socket-count-renewal")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def open(self, key: str) -> bool:
        if self.most is None:
            await self.here.open(key)
            return True
        try:
            counted = int(await self._run(key, "open"))
        except RedisError as exc:
            self._went(exc)
            counted = 1  # let through: a cap unchecked for a while, not a hall refusing all
        if counted:
            await self.here.open(key)
        return bool(counted)

    async def close(self, key: str) -> None:
        await self.here.close(key)
        if self.most is None:
            return
        try:
            await self._run(key, "close")
        except RedisError as exc:  # counted until this process's renewal sets it right
            self._went(exc)

    async def renew(self) -> None:
        """Every address's count here written again, with a new time to count until."""
        if self.most is None:
            return
        counts = dict(self.here.counts)
        try:
            for address, count in counts.items():
                await self._run(address, "set", count)
        except RedisError as exc:
            self._went(exc)

    async def _renewing(self) -> None:
        while True:
            await asyncio.sleep(self._renew)
            await self.renew()

    async def _run(self, key: str, what: str, count: int = 0) -> Any:
        now = self._now()
        ttl = 3 * self._renew
        args: list[str | int] = [
            self.process,
            -1 if self.most is None else self.most,
            repr(now),
            repr(now + ttl),
            max(1, int(ttl * 1000)),
            what,
            count,
        ]
        answer = await self._script(keys=[self.key(key)], args=args)
        if self._unreachable:
            self._unreachable = False
            log.info("sockets per address: Redis is back")
        return answer

    def _went(self, exc: RedisError) -> None:
        if not self._unreachable:
            self._unreachable = True
            log.warning(
                "sockets per address: Redis cannot be reached (%s); sockets let through", exc
            )


class RedisLimits:
    """The Redis connection of a process's rate limits, and their buckets on it."""

    def __init__(self, url: str, *, prefix: str, now: Callable[[], float]) -> None:
        # Short timeouts: every limited request waits for its bucket.
        self._redis: redis.Redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=2.0, socket_connect_timeout=2.0
        )
        self._prefix = prefix
        self._now = now
        self._sockets: RedisSocketCount | None = None

    def sockets(self, most: int | None, renew: float = SOCKETS_RENEW) -> RedisSocketCount:
        """The sockets per address, shared by the processes; renewed until ``close``."""
        if self._sockets is None:
            self._sockets = RedisSocketCount(
                self._redis, most, self._now, prefix=self._prefix, renew=renew
            )
            self._sockets.start()
        return self._sockets

    def buckets_of(self) -> BucketsOf:
        """What ``ratelimit.Guard`` makes its buckets with."""

        def make(name: str, limit: Limit | None) -> Buckets:
            closed = name in CHECKED_OR_REFUSED
            return RedisBuckets(
                self._redis, name, limit, self._now, prefix=self._prefix, fail_closed=closed
            )

        return make

    async def close(self) -> None:
        if self._sockets is not None:
            await self._sockets.stop()
        await self._redis.aclose()
