"""Rate limits: token buckets per key (an address, an account and an address), and the hall's limits.

A limit "10/15m" lets 10 happen at once, then one more each 1.5 minutes (a bucket of 10 tokens
refilled evenly over 15 minutes). A refused request gets 429 with ``Retry-After``: the seconds until
a token is back.

The buckets are in this process's memory (``MemoryBuckets``), or, when the hall's processes
share a Redis, in Redis (``redis_buckets.py``), so that a client spreading its requests over
the processes gets the limit once, not once per process.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from ..hall import HallError

_UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
_LIMIT = re.compile(r"^\s*(\d+)\s*/\s*(\d*\.?\d+)?\s*([smhd])\s*$")


class TooMany(HallError):
    """429: a limit was reached; ``retry_after`` is when to try again (seconds), when it is known."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(code, message)
        self.retry_after = None if retry_after is None else max(1, math.ceil(retry_after))


@dataclass(frozen=True)
class Limit:
    """At most ``count`` at once, refilled evenly over ``seconds``."""

    count: int
    seconds: float

    @classmethod
    def parse(cls, text: str) -> Limit | None:
        """``"10/15m"``, ``"5/1h"``, ``"20/30s"``; ``"off"`` is no limit (None)."""
        if text.strip().lower() == "off":
            return None
        match = _LIMIT.match(text)
        if not match or int(match[1]) < 1:
            raise ValueError(f"a limit is COUNT/TIME such as 10/15m or 5/1h, or off; not {text!r}")
        return cls(int(match[1]), float(match[2] or 1) * _UNITS[match[3]])

    def __str__(self) -> str:
        for unit, size in (("d", 86400), ("h", 3600), ("m", 60)):
            if self.seconds % size == 0:
                return f"{self.count}/{self.seconds / size:g}{unit}"
        return f"{self.count}/{self.seconds:g}s"

    def words(self) -> str:
        """``10 per hour``, ``10 per 15 minutes``."""
        for name, size in (("day", 86400), ("hour", 3600), ("minute", 60), ("second", 1)):
            if self.seconds % size == 0:
                n = self.seconds / size
                return f"{self.count} per {name}" if n == 1 else f"{self.count} per {n:g} {name}s"
        return f"{self.count} per {self.seconds:g} seconds"


@dataclass(frozen=True)
class Limits:
    """The hall's limits (README: settings); None turns one off."""

    sign_in_per_account: Limit | None = Limit(10, 15 * 60)  # wrong passwords, per account+address
    sign_in_per_address: Limit | None = Limit(30, 15 * 60)  # wrong passwords, per address
    accounts_per_address: Limit | None = Limit(10, 3600)
    tables_per_address: Limit | None = Limit(20, 60)
    open_tables: int | None = 10  # unfinished tables one player may sit at when creating another
    chat_per_player: Limit | None = Limit(5, 10)  # chat lines (hall/chat.py)
    sockets_per_address: int | None = 50  # open sockets (table, player, lobby) at once
    challenges_per_player: Limit | None = Limit(10, 3600)  # challenges sent (hall/challenges.py)
    reports_per_player: Limit | None = Limit(10, 3600)  # reports of players (hall/chat.py)


NO_LIMITS = Limits(None, None, None, None, None, None, None, None, None)


class Buckets(Protocol):
    """Token buckets for one limit, by key: ``MemoryBuckets`` (one process) or
    ``redis_buckets.RedisBuckets`` (shared by the hall's processes). Taking is one step, a look
    and a spend together, so that requests arriving at once (at any process) all count."""

    limit: Limit | None  # None: no limit, every take succeeds

    async def take(self, key: str) -> float:
        """Take one token of ``key`` if it has one (0.0); else the seconds until it has one,
        and nothing is taken."""
        ...

    async def give_back(self, key: str) -> None:
        """One token back to ``key`` (never beyond full; a full bucket stays full)."""
        ...

    async def reset(self, key: str) -> None:
        """``key``'s bucket full again."""
        ...

    def forget_full(self) -> None:
        """Drop the full buckets held, which hold nothing (memory's periodic clean-up)."""
        ...


BucketsOf = Callable[[str, Limit | None], Buckets]  # a limit's name and value -> its buckets


class MemoryBuckets:
    """Token buckets in this process's memory; full buckets are forgotten (they hold nothing)."""

    def __init__(self, limit: Limit | None, now: Callable[[], float]) -> None:
        self.limit = limit
        self._now = now
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, at)
        self._prune_at = 10_000  # keys held before the full buckets are looked for

    def _tokens(self, key: str, now: float) -> float:
        assert self.limit is not None
        tokens, at = self._buckets.get(key, (self.limit.count, now))
        rate = self.limit.count / self.limit.seconds
        return min(float(self.limit.count), tokens + (now - at) * rate)

    async def take(self, key: str) -> float:
        if self.limit is None:
            return 0.0
        now = self._now()
        tokens = self._tokens(key, now)
        if tokens < 1:
            return (1 - tokens) * self.limit.seconds / self.limit.count
        self._buckets[key] = (tokens - 1, now)
        if len(self._buckets) > self._prune_at:
            self.forget_full()
            self._prune_at = max(10_000, 2 * len(self._buckets))  # not again at every take
        return 0.0

    async def give_back(self, key: str) -> None:
        if self.limit is None or key not in self._buckets:
            return
        now = self._now()
        self._buckets[key] = (min(float(self.limit.count), self._tokens(key, now) + 1), now)

    async def reset(self, key: str) -> None:
        self._buckets.pop(key, None)

    def forget_full(self) -> None:
        if self.limit is None:
            return
        now = self._now()
        full = [k for k in self._buckets if self._tokens(k, now) >= self.limit.count]
        for key in full:
            del self._buckets[key]

    def __len__(self) -> int:
        return len(self._buckets)


class SocketCount(Protocol):
    """The sockets open at once per key (an address), up to a cap: ``MemorySocketCount`` in this
    process, or ``redis_buckets.RedisSocketCount`` shared by the hall's processes."""

    most: int | None  # None: no cap

    async def open(self, key: str) -> bool:
        """Count one more socket of ``key``: False (nothing counted) when it has ``most``."""
        ...

    async def close(self, key: str) -> None:
        """One socket of ``key`` closed."""
        ...


class MemorySocketCount:
    def __init__(self, most: int | None) -> None:
        self.most = most
        self.counts: dict[str, int] = {}  # key -> its sockets open

    async def open(self, key: str) -> bool:
        count = self.counts.get(key, 0)
        if self.most is not None and count >= self.most:
            return False
        self.counts[key] = count + 1
        return True

    async def close(self, key: str) -> None:
        count = self.counts.get(key, 0) - 1
        if count > 0:
            self.counts[key] = count
        else:
            self.counts.pop(key, None)


class Guard:
    """Every limit of the hall, each with its buckets (``buckets_of`` makes them: in memory, or
    in Redis, ``redis_buckets.py``)."""

    def __init__(
        self, limits: Limits, buckets_of: BucketsOf, sockets: SocketCount | None = None
    ) -> None:
        self.limits = limits
        self.sockets = sockets or MemorySocketCount(limits.sockets_per_address)
        self.sign_in_account = buckets_of("sign-in-account", limits.sign_in_per_account)
        self.sign_in_address = buckets_of("sign-in-address", limits.sign_in_per_address)
        self.accounts = buckets_of("accounts", limits.accounts_per_address)
        self.tables = buckets_of("tables", limits.tables_per_address)
        self.chat = buckets_of("chat", limits.chat_per_player)  # spent by the hall's chat service
        # Spent by the hall's challenges service, per player.
        self.challenges = buckets_of("challenges", limits.challenges_per_player)
        self.reports = buckets_of("reports", limits.reports_per_player)

    @classmethod
    def in_memory(cls, limits: Limits, now: Callable[[], float]) -> Guard:
        """One process's limits, in its memory."""
        return cls(limits, lambda _name, limit: MemoryBuckets(limit, now))

    async def guess(self, username: str, address: str) -> None:
        """Before a password is checked: count it as a wrong guess, or refuse while this
        account+address or this address is slowed (nothing counted). Counted first, so that
        guesses sent at once all count; a right one is given back (``right_guess``)."""
        account = f"{username}\n{address}"
        wait = await self.sign_in_account.take(account)
        if wait == 0:
            wait = await self.sign_in_address.take(address)
            if wait > 0:
                await self.sign_in_account.give_back(account)
        if wait > 0:
            raise TooMany(
                "too_many_attempts",
                f"too many wrong passwords: try again in {math.ceil(wait)} s",
                wait,
            )

    async def right_guess(self, username: str, address: str) -> None:
        """The password was right: give back its token; this account+address starts afresh."""
        await self.sign_in_account.reset(f"{username}\n{address}")
        await self.sign_in_address.give_back(address)

    async def new_account(self, address: str) -> None:
        await self._take(
            self.accounts, address, "too_many_accounts", "new accounts from one address"
        )

    async def new_table(self, address: str, open_tables: int) -> None:
        """Before a table is made: the player's unfinished tables, then one of the address's
        tokens taken (``table_not_made`` gives it back)."""
        most = self.limits.open_tables
        if most is not None and open_tables >= most:
            raise TooMany(
                "too_many_tables",
                f"you already sit at {open_tables} unfinished tables, the most one player may "
                f"have ({most}): finish or leave one first",
            )
        await self._take(self.tables, address, "too_many_tables", "new tables from one address")

    async def table_not_made(self, address: str) -> None:
        """The table was refused after all: it does not count."""
        await self.tables.give_back(address)

    async def _take(self, buckets: Buckets, key: str, code: str, what: str) -> None:
        wait = await buckets.take(key)
        if wait > 0:
            assert buckets.limit is not None
            raise TooMany(
                code,
                f"at most {buckets.limit.words()} {what}: try again in {math.ceil(wait)} s",
                wait,
            )

    async def report(self, player: str) -> None:
        """Before a player's report of another is kept."""
        await self._take(self.reports, player, "too_many_reports", "reports from one player")

    def forget_full(self) -> None:
        """Memory's clean-up; buckets in Redis have none to do (their keys expire once full)."""
        every = (
            self.sign_in_account,
            self.sign_in_address,
            self.accounts,
            self.tables,
            self.chat,
            self.challenges,
            self.reports,
        )
        for buckets in every:
            buckets.forget_full()
