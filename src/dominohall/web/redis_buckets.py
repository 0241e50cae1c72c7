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

import logging
from collections.abc import Callable
from typing import Any

import redis.asyncio as redis
from redis.exceptions import RedisError

from ..hall import HallError
from .ratelimit import Buckets, BucketsOf, Limit

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


class RedisLimits:
    """The Redis connection of a process's rate limits, and their buckets on it."""

    def __init__(self, url: str, *, prefix: str, now: Callable[[], float]) -> None:
        # Short timeouts: every limited request waits for its bucket.
        self._redis: redis.Redis = redis.Redis.from_url(
            url, decode_responses=True, socket_timeout=2.0, socket_connect_timeout=2.0
        )
        self._prefix = prefix
        self._now = now

    def buckets_of(self) -> BucketsOf:
        """What ``ratelimit.Guard`` makes its buckets with."""

        def make(name: str, limit: Limit | None) -> Buckets:
            closed = name in CHECKED_OR_REFUSED
            return RedisBuckets(
                self._redis, name, limit, self._now, prefix=self._prefix, fail_closed=closed
            )

        return make

    async def close(self) -> None:
        await self._redis.aclose()
