"""The matchmaking queue: seekers wait by pool, and groups of close rating become games.

``Queue`` is the interface; ``MemoryQueue`` keeps it in one process, and holds the policy
(windows that widen, no immediate rematch, balanced partnership teams, ``docs/ratings.md``). A
queue shared by several processes (``redis_queue.py``) pairs with the same policy: a
``MemoryQueue.of`` its seekers read at one moment.
"""

from __future__ import annotations

import bisect
import itertools
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Protocol

from .ratings import POOLS, Speed, get_pool

WINDOW_START = 50.0  # rating points a new seeker accepts either side
WINDOW_GROWTH = 10.0  # more points per second of waiting
RECENT_WAITS = 50  # pairings the average waiting time is taken over


class QueueError(ValueError):
    """A join the queue refuses; the message says why. The queue is unchanged."""


@dataclass(frozen=True)
class Bucket:
    """Who can be paired together: one pool, one player count, one speed, ranked or casual,
    and arena or not (arena seekers are paired only with arena seekers, docs/arena.md)."""

    pool: str
    players: int
    speed: Speed
    ranked: bool
    arena: bool = False


def bucket_of(pool: str, players: int, speed: Speed, ranked: bool, arena: bool = False) -> Bucket:
    """The bucket of a seek; QueueError when the pool is not played by ``players``, or when an
    arena seek is not ranked."""
    known = get_pool(pool)
    if players not in known.players:
        raise QueueError(f"pool {pool} is played by {known.players} players, not {players!r}")
    if arena and not ranked:
        raise QueueError("the arena is ranked play: an arena seek must be ranked")
    return Bucket(pool, players, speed, ranked, arena)


def holds_one_game(bucket: Bucket) -> bool:
    """Whether a pairing in ``bucket`` holds its players until its game ends: a player has one
    unfinished real-time ranked game at a time."""
    return bucket.ranked and bucket.speed is Speed.REAL_TIME


@dataclass(frozen=True)
class Seeker:
    player: str
    bucket: Bucket
    rating: int  # the shown rating (any number for casual play: it is not used)
    joined_at: float

    def window(self, now: float) -> float:
        if not self.bucket.ranked:
            return float("inf")
        return WINDOW_START + WINDOW_GROWTH * max(0.0, now - self.joined_at)


@dataclass(frozen=True)
class Pairing:
    """A game to start: its seekers in seat order (in partnership, seats 0 and 2 are a team)."""

    id: int
    bucket: Bucket
    seekers: tuple[Seeker, ...]
    at: float

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(s.player for s in self.seekers)

    @property
    def rating_gap(self) -> int:
        ratings = [s.rating for s in self.seekers]
        return max(ratings) - min(ratings)


@dataclass(frozen=True)
class QueueStatus:
    waiting: int
    average_wait: float | None  # seconds, over the recent pairings; None before the first


class Queue(Protocol):
    def join(
        self,
        player: str,
        pool: str,
        players: int,
        *,
        speed: Speed,
        ranked: bool,
        rating: int,
        now: float,
        arena: bool = False,
    ) -> Seeker: ...

    def cancel(self, player: str) -> bool: ...

    def seeking(self, player: str) -> Seeker | None: ...

    def pair(self, now: float) -> list[Pairing]: ...

    def game_over(self, pairing_id: int) -> None: ...

    def status(self, bucket: Bucket) -> QueueStatus: ...

    def __len__(self) -> int:
        """How many seek now, in every bucket."""
        ...


@dataclass
class _Waiting:
    """One bucket's seekers, by rating (for the window search) and by arrival (who goes first)."""

    by_rating: list[tuple[int, int, str]] = field(default_factory=list)  # (rating, order, player)
    waits: deque[float] = field(default_factory=lambda: deque(maxlen=RECENT_WAITS))


class MemoryQueue:
    """The queue in one process's memory."""

    def __init__(self) -> None:
        self._seekers: dict[str, Seeker] = {}
        self._order: dict[str, int] = {}
        self._waiting: dict[Bucket, _Waiting] = {}
        self._counter = itertools.count()
        self._pairings = itertools.count(1)
        self._in_real_time_ranked: dict[str, int] = {}  # player -> unfinished pairing
        self._unfinished: dict[int, Pairing] = {}
        self._last_opponents: dict[str, frozenset[str]] = {}

    # Joining and leaving -------------------------------------------------------------------
    def join(
        self,
        player: str,
        pool: str,
        players: int,
        *,
        speed: Speed,
        ranked: bool,
        rating: int,
        now: float,
        arena: bool = False,
    ) -> Seeker:
        """Queue ``player``; raises QueueError (and changes nothing) when the queue cannot take it."""
        bucket = bucket_of(pool, players, speed, ranked, arena)
        if player in self._seekers:
            raise already_queued(player)
        if holds_one_game(bucket) and player in self._in_real_time_ranked:
            raise in_a_game(player)
        seeker = Seeker(player, bucket, rating, now)
        self._add(seeker, next(self._counter))
        return seeker

    def _add(self, seeker: Seeker, order: int) -> None:
        self._seekers[seeker.player] = seeker
        self._order[seeker.player] = order
        bisect.insort(
            self._waiting.setdefault(seeker.bucket, _Waiting()).by_rating,
            (seeker.rating, order, seeker.player),
        )

    @classmethod
    def of(
        cls,
        waiting: Iterable[tuple[int, Seeker]],
        last_opponents: Mapping[str, frozenset[str]],
    ) -> MemoryQueue:
        """A queue of ``waiting`` (each seeker with its place in the order of arrival) who last
        played ``last_opponents``: a shared queue read at one moment, paired by this policy."""
        queue = cls()
        for order, seeker in waiting:
            queue._add(seeker, order)
        queue._last_opponents.update(last_opponents)
        return queue

    def cancel(self, player: str) -> bool:
        """Take ``player`` out of the queue; False when they were not in it."""
        seeker = self._seekers.pop(player, None)
        if seeker is None:
            return False
        order = self._order.pop(player)
        waiting = self._waiting[seeker.bucket].by_rating
        waiting.pop(bisect.bisect_left(waiting, (seeker.rating, order, player)))
        return True

    def seeking(self, player: str) -> Seeker | None:
        return self._seekers.get(player)

    # Pairing ------------------------------------------------------------------------------
    def pair(self, now: float) -> list[Pairing]:
        """Form every game the queue can form now; their seekers leave the queue."""
        made = []
        for bucket, waiting in self._waiting.items():
            # The longest waiting are served first.
            for player in sorted((p for _, _, p in waiting.by_rating), key=self._order.__getitem__):
                if player not in self._seekers:
                    continue  # taken into a game earlier in this round
                group = self._group(self._seekers[player], waiting, now)
                if group is not None:
                    made.append(self._start(bucket, group, now))
        return made

    def _group(self, first: Seeker, waiting: _Waiting, now: float) -> list[Seeker] | None:
        need = first.bucket.players
        if len(waiting.by_rating) < need:
            return None
        # No rematch at once, in any pair of the group, while those waiting could make a group
        # with no such pair; when they cannot (four who just played in two pairs), nobody would
        # be served by keeping them apart.
        avoiding = self._fresh_group_waits(first, waiting)
        window = first.window(now)
        lo = bisect.bisect_left(waiting.by_rating, (first.rating - window, -1, ""))
        hi = bisect.bisect_right(waiting.by_rating, (first.rating + window, float("inf"), ""))
        near = [self._seekers[p] for _, _, p in waiting.by_rating[lo:hi] if p != first.player]
        near.sort(key=lambda s: (abs(s.rating - first.rating), self._order[s.player]))
        group = [first]
        for seeker in near:
            if avoiding and any(self._just_played(seeker.player, s.player) for s in group):
                continue
            trial = [*group, seeker]
            ratings = [s.rating for s in trial]
            # Everyone accepts everyone: the spread lies within the narrowest window.
            if max(ratings) - min(ratings) <= min(s.window(now) for s in trial):
                group = trial
                if len(group) == need:
                    return group
        return None

    def _just_played(self, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` met in the last game of either of them."""
        return b in self._last_opponents.get(a, ()) or a in self._last_opponents.get(b, ())

    def _fresh_group_waits(self, first: Seeker, waiting: _Waiting) -> bool:
        """Whether ``first`` and others waiting in its bucket could make a whole group in which
        no two just played each other (ratings aside: those who wait may come within reach)."""
        # Read lazily: in a long queue the first few others almost always do.
        unread = (
            p
            for _, _, p in waiting.by_rating
            if p != first.player and not self._just_played(first.player, p)
        )
        others: list[str] = []

        def other(i: int) -> str | None:
            while len(others) <= i:
                p = next(unread, None)
                if p is None:
                    return None
                others.append(p)
            return others[i]

        def extend(group: list[str], start: int) -> bool:
            if len(group) == first.bucket.players:
                return True
            i = start
            while (p := other(i)) is not None:
                if not any(self._just_played(p, q) for q in group[1:]) and extend(
                    [*group, p], i + 1
                ):
                    return True
                i += 1
            return False

        return extend([first.player], 0)

    def _start(self, bucket: Bucket, group: list[Seeker], now: float) -> Pairing:
        for seeker in group:
            self.cancel(seeker.player)
            self._waiting[bucket].waits.append(now - seeker.joined_at)
        seated = _balanced_teams(group) if POOLS[bucket.pool].teams else group
        pairing = Pairing(next(self._pairings), bucket, tuple(seated), now)
        players = frozenset(pairing.players)
        for p in players:
            self._last_opponents[p] = players - {p}
        if holds_one_game(bucket):
            for p in players:
                self._in_real_time_ranked[p] = pairing.id
        self._unfinished[pairing.id] = pairing
        return pairing

    def game_over(self, pairing_id: int) -> None:
        """The game of a pairing ended (finished, aborted, or never started): its players are free."""
        pairing = self._unfinished.pop(pairing_id, None)
        if pairing is None:
            return
        for p in pairing.players:
            if self._in_real_time_ranked.get(p) == pairing_id:
                del self._in_real_time_ranked[p]

    # What the page shows --------------------------------------------------------------------
    def status(self, bucket: Bucket) -> QueueStatus:
        waiting = self._waiting.get(bucket)
        if waiting is None:
            return QueueStatus(0, None)
        waits = waiting.waits
        return QueueStatus(len(waiting.by_rating), sum(waits) / len(waits) if waits else None)

    def buckets(self) -> Iterable[Bucket]:
        return list(self._waiting)

    def __len__(self) -> int:
        return len(self._seekers)


def already_queued(player: str) -> QueueError:
    return QueueError(f"{player} is already in a queue: cancel it first")


def in_a_game(player: str) -> QueueError:
    return QueueError(f"{player} has an unfinished real-time ranked game")


def _balanced_teams(group: list[Seeker]) -> list[Seeker]:
    """Seat four seekers as two teams (seats 0, 2 and 1, 3) with the closest summed ratings."""
    a, b, c, d = group
    splits = [((a, b), (c, d)), ((a, c), (b, d)), ((a, d), (b, c))]
    (x0, x2), (x1, x3) = min(
        splits, key=lambda s: abs(sum(p.rating for p in s[0]) - sum(p.rating for p in s[1]))
    )
    return [x0, x1, x2, x3]
