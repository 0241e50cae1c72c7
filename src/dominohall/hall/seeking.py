"""Seeking a game: the matchmaking queue put to work for the hall (join, cancel, status, tables).

Pairing runs every half second of the hall's clock, and at once after each join; each pairing
becomes a started table (``Hall.open_pairing``): ranked, or casual quick play. The queue and
what the matchmaker remembers of its seekers are ``Seekers``: in this process's memory
(``LocalSeekers``), or shared in Redis by several processes (``redis_queue.RedisSeekers``), where
the one process holding the ``pairing`` claim runs the rounds and every process tells the others
which seekers have a socket open on it.
"""

from __future__ import annotations

import logging
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from .clock import Timer
from .errors import HallError
from .hall import Hall, Person
from .matchmaking import (
    Bucket,
    MemoryQueue,
    Pairing,
    QueueError,
    QueueStatus,
    Seeker,
    holds_one_game,
)
from .messages import QueueSize
from .options import BotLevel
from .ratings import NEW, PROVISIONAL_GAMES, RatingError, Skill, Speed, get_pool, get_speed

log = logging.getLogger(__name__)
TICK = 0.5  # seconds between two pairing rounds
IDLE_TICK = 2.0  # ... while nobody seeks, when seekers may join on another process
COMPUTER_AFTER = 20.0  # seconds of quick play with no one found before a computer is offered
# A real-time seek stays while its player is there: their own socket (/ws/me) open, or a look at
# the queue within POLL_KEEPS seconds. Otherwise it leaves the queue after AWAY_GRACE more
# seconds (a reload, a page changed), so that nobody is paired with a closed tab.
POLL_KEEPS = 20.0
AWAY_GRACE = 15.0
# Several processes: each tells the queue every SOCKETS_TOLD seconds which of its players have
# their socket open (there for SOCKET_KEEPS more: a process that dies stops keeping them), and
# at its next round whose last socket closed (there until then).
SOCKETS_TOLD = 5.0
SOCKET_KEEPS = 3 * SOCKETS_TOLD


@dataclass(frozen=True)
class Found:
    """Where a pairing seated a player: its table, and the pairing (to free it when it ends)."""

    table: str
    pairing: int


@dataclass(frozen=True)
class SeekStatus:
    """A player's seek as it stands at ``now``: seeking (with the queue it waits in, and for
    quick play the seconds after which a computer player is offered), or paired at ``table``."""

    seeker: Seeker | None
    table: str | None
    queue: QueueStatus | None
    computer_after: float | None
    now: float


class Seekers(Protocol):
    """The queue with what the matchmaker keeps of its seekers: their names, when each was last
    there, where a pairing seated them, and the real-time ranked game that holds them."""

    shared: bool  # several processes share it (then seekers may join on another process)

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
        """Queue ``person`` (QueueError, nothing changed, when the queue cannot take them); the
        table their last pairing seated them at is forgotten."""
        ...

    async def cancel(self, player: str) -> bool: ...

    async def seeking(self, player: str) -> Seeker | None: ...

    async def anyone(self) -> bool:
        """Whether anyone seeks, in any bucket."""
        ...

    async def pair(self, now: float) -> list[tuple[Pairing, list[Person]]]:
        """Form every game the queue can form now (its people in seat order); their seekers
        leave the queue, each in exactly one game."""
        ...

    async def seated(self, pairing: Pairing, table: str) -> None:
        """A pairing's table is open: its players' status says so until they seek again."""
        ...

    async def found(self, player: str) -> Found | None: ...

    async def held(self, player: str) -> Found | None:
        """The unfinished real-time ranked game a pairing seated ``player`` at, if any."""
        ...

    async def game_over(self, pairing_id: int) -> None: ...

    async def status(self, seeker: Seeker) -> QueueStatus: ...

    async def sizes(self) -> dict[Bucket, int]:
        """How many wait in each bucket that anyone waits in (the lobby shows it)."""
        ...

    async def looked(self, player: str, until: float) -> None:
        """A seeker asked for the queue: there until ``until``."""
        ...

    async def sockets(
        self, open_: Collection[str], until: float, closed: Mapping[str, float]
    ) -> None:
        """Players with their socket open on this process (there until ``until``), and those
        whose last socket here closed (there until it closed)."""
        ...

    async def drop_away(self, now: float, here: Collection[str]) -> list[str]:
        """Real-time seekers not there for ``AWAY_GRACE`` seconds leave (``here``: the players
        with their socket open on this process); those who left."""
        ...

    async def close(self) -> None: ...


class LocalSeekers:
    """The queue in this process's memory (one process: ``make run``)."""

    shared = False

    def __init__(self) -> None:
        self.queue = MemoryQueue()
        self._names: dict[str, str] = {}
        self._found: dict[str, Found] = {}  # a player's last pairing, until they seek again
        self._held: dict[str, Found] = {}  # a player's unfinished real-time ranked game
        self._there_until: dict[str, float] = {}  # seeker -> when, with no socket, they left

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
        seeker = self.queue.join(
            person.id,
            pool,
            players,
            speed=speed,
            ranked=ranked,
            rating=rating,
            now=now,
            arena=arena,
        )
        self._names[person.id] = person.name
        self._found.pop(person.id, None)
        return seeker

    async def cancel(self, player: str) -> bool:
        return self.queue.cancel(player)

    async def seeking(self, player: str) -> Seeker | None:
        return self.queue.seeking(player)

    async def anyone(self) -> bool:
        return len(self.queue) > 0

    async def pair(self, now: float) -> list[tuple[Pairing, list[Person]]]:
        return [
            (p, [Person(s, self._names.get(s, s)) for s in p.players]) for p in self.queue.pair(now)
        ]

    async def seated(self, pairing: Pairing, table: str) -> None:
        for p in pairing.players:
            self._found[p] = Found(table, pairing.id)
            if holds_one_game(pairing.bucket):
                self._held[p] = self._found[p]

    async def found(self, player: str) -> Found | None:
        return self._found.get(player)

    async def held(self, player: str) -> Found | None:
        return self._held.get(player)

    async def game_over(self, pairing_id: int) -> None:
        self.queue.game_over(pairing_id)
        for player, held in list(self._held.items()):
            if held.pairing == pairing_id:
                del self._held[player]

    async def status(self, seeker: Seeker) -> QueueStatus:
        return self.queue.status(seeker.bucket)

    async def sizes(self) -> dict[Bucket, int]:
        sizes = {b: self.queue.status(b).waiting for b in self.queue.buckets()}
        return {b: n for b, n in sizes.items() if n > 0}

    async def looked(self, player: str, until: float) -> None:
        if self.queue.seeking(player) is not None:
            self._there_until[player] = until

    async def sockets(
        self, open_: Collection[str], until: float, closed: Mapping[str, float]
    ) -> None:
        # (The sockets open are this process's, asked at each round: ``here``.)
        for player, at in closed.items():
            if player in self._there_until:
                self._there_until[player] = max(self._there_until[player], at)

    async def drop_away(self, now: float, here: Collection[str]) -> list[str]:
        gone = []
        for player, until in list(self._there_until.items()):
            seeker = self.queue.seeking(player)
            if seeker is None:
                del self._there_until[player]  # paired or cancelled meanwhile
            elif seeker.bucket.speed is not Speed.REAL_TIME:
                del self._there_until[player]  # a turn-based seek waits for days: it stays
            elif player not in here and now > until + AWAY_GRACE:
                self.queue.cancel(player)
                del self._there_until[player]
                gone.append(player)
        return gone

    async def close(self) -> None:
        pass


class Matchmaker:
    def __init__(self, hall: Hall, seekers: Seekers | None = None) -> None:
        self.hall = hall
        self.seekers: Seekers = seekers if seekers is not None else LocalSeekers()
        # Whether this process runs the pairing rounds: always on one process; with several,
        # while it holds the ``pairing`` claim (``begin_pairing``, ``end_pairing``).
        self.pairs = not self.seekers.shared
        self._timer: Timer | None = None  # the next round (one process: while anyone seeks)
        self._timer_at = 0.0
        self._started = False
        self._sockets: dict[str, int] = {}  # player -> their own sockets open on this process
        self._closed: dict[str, float] = {}  # player -> when their last socket here closed
        self._sockets_told_at = float("-inf")

    # The pairing rounds -----------------------------------------------------------------
    def start(self) -> None:
        self._started = True
        self._arm(busy=False)

    def stop(self) -> None:
        self._started = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    async def begin_pairing(self) -> None:
        """This process holds the pairing claim: the rounds pair here."""
        self.pairs = True

    async def end_pairing(self) -> None:
        self.pairs = not self.seekers.shared

    def _arm(self, busy: bool) -> None:
        """Set the next round, unless one is set. One process sleeps while nobody seeks (a join
        wakes it); with several, seekers may join elsewhere: the rounds only slow down."""
        if not self._started or not (busy or self.seekers.shared):
            return
        at = self.hall.clock.now() + (TICK if busy else IDLE_TICK)
        if self._timer is not None:
            if self._timer_at <= at:
                return
            self._timer.cancel()  # (an idle pause cut short by a join)
        self._timer, self._timer_at = self.hall.clock.call_at(at, self._round), at

    async def _round(self) -> None:
        self._timer = None
        busy = True
        try:
            if self.pairs:
                await self.pair()
            else:
                await self._tell_sockets()
            busy = await self.seekers.anyone()
        except Exception:  # noqa: BLE001 - the next round tries again
            log.exception("pairing round")
        self._arm(busy)

    async def pair(self) -> list[Pairing]:
        await self._tell_sockets()
        for player in await self.seekers.drop_away(self.hall.clock.now(), self._sockets):
            log.info("seek of %s ended: its player was away", player)
        made = await self.seekers.pair(self.hall.clock.now())
        failed: Exception | None = None
        for pairing, people in made:
            try:
                state = await self.hall.open_pairing(
                    pairing.bucket.pool,
                    people,
                    ranked=pairing.bucket.ranked,
                    speed=pairing.bucket.speed,
                    arena=pairing.bucket.arena,
                )
            except Exception as exc:  # noqa: BLE001 - the other pairings are opened first
                await self.seekers.game_over(pairing.id)  # no game: nobody is held by it
                failed = failed or exc
                continue
            await self.seekers.seated(pairing, state.id)
        if failed is not None:
            raise failed
        return [pairing for pairing, _ in made]

    async def _tell_sockets(self) -> None:
        """Tell the queue whose socket closed here, and (several processes, now and then)
        whose sockets are open here."""
        now = self.hall.clock.now()
        open_: Collection[str] = ()
        if self.seekers.shared and self._sockets and now >= self._sockets_told_at + SOCKETS_TOLD:
            open_ = list(self._sockets)
            self._sockets_told_at = now
        if open_ or self._closed:
            closed, self._closed = self._closed, {}
            await self.seekers.sockets(open_, now + SOCKET_KEEPS, closed)

    # A player's requests ----------------------------------------------------------------
    async def seek(
        self,
        person: Person,
        *,
        account: bool,
        pool: Any,
        players: Any,
        speed: Any,
        ranked: bool,
        arena: bool = False,
    ) -> Seeker:
        """Queue ``person``; HallError (nothing changed) when the queue cannot take them. An
        arena seek is ranked, by a player whose rating in the pool and speed is settled."""
        try:
            known = get_pool(pool)
            how_fast = get_speed(speed if speed is not None else Speed.REAL_TIME.value)
        except RatingError as exc:
            raise HallError("bad_option", str(exc)) from None
        if ranked and not account:
            raise HallError("account_needed", "ranked play is for accounts: sign up first")
        if arena and not ranked:
            raise HallError("bad_option", "the arena is ranked play: seek a ranked game")
        if how_fast is Speed.TURN_BASED:
            self.hall.turn_based.check_room_for(person.id)
        else:  # walked away from real-time games lately (abandonment.py)
            await self.hall.abandonment.check(person.id)
        count = players if players is not None else known.players[0]
        await self._free_if_over(person.id)
        rating = await self._rating(person.id, known.id, how_fast) if ranked else 0
        if arena:
            await self._check_settled(person.id, known.id, how_fast)
        try:
            seeker = await self.seekers.join(
                person,
                known.id,
                count,
                speed=how_fast,
                ranked=ranked,
                rating=rating,
                now=self.hall.clock.now(),
                arena=arena,
            )
        except QueueError as exc:
            raise HallError("cannot_queue", str(exc)) from None
        await self.looked(person.id)
        if person.id in self._sockets:  # (several processes: the queue hears it at once)
            self._sockets_told_at = float("-inf")
        if self.pairs:
            await self.pair()
        self._arm(busy=True)
        return seeker

    async def cancel(self, player: str) -> bool:
        return await self.seekers.cancel(player)

    async def seeking(self, player: str) -> Seeker | None:
        return await self.seekers.seeking(player)

    # Whether a seeker is still there --------------------------------------------------------
    def socket_opened(self, player: str) -> None:
        """The player's own socket (/ws/me) opened: their seek stays while it is open."""
        self._sockets[player] = self._sockets.get(player, 0) + 1
        self._closed.pop(player, None)

    def socket_closed(self, player: str) -> None:
        left = self._sockets.get(player, 1) - 1
        if left > 0:
            self._sockets[player] = left
            return
        self._sockets.pop(player, None)
        self._closed[player] = self.hall.clock.now()  # told to the queue at the next round

    async def looked(self, player: str) -> None:
        """The player asked for the queue (a seek, a poll): there for ``POLL_KEEPS`` more."""
        await self.seekers.looked(player, self.hall.clock.now() + POLL_KEEPS)

    async def play_computer(self, person: Person) -> str:
        """Quick play's fallback: a player who waited ``COMPUTER_AFTER`` seconds with no one
        found leaves the queue for a started table of the same game against Normal computer
        players (one fewer than the players sought). Returns the table."""
        seeker = await self.seekers.seeking(person.id)
        if seeker is None or seeker.bucket.ranked or seeker.bucket.speed is not Speed.REAL_TIME:
            raise HallError(
                "cannot_play_computer",
                "only a player waiting in real-time quick play may take a computer",
            )
        waited = self.hall.clock.now() - seeker.joined_at
        if waited < COMPUTER_AFTER:
            raise HallError(
                "cannot_play_computer",
                "a computer is offered after {after:g} s of waiting, not {waited:.1f} s",
                after=COMPUTER_AFTER,
                waited=waited,
            )
        pool = get_pool(seeker.bucket.pool)
        bots = [BotLevel.NORMAL] * (seeker.bucket.players - 1)
        if not await self.seekers.cancel(person.id):
            raise HallError("cannot_play_computer", "you were paired meanwhile: see the queue")
        try:
            state = await self.hall.play_with_bots(person, bots, pool.preset, pool.target)
        except HallError:
            await self.seekers.join(
                person,
                seeker.bucket.pool,
                seeker.bucket.players,
                speed=seeker.bucket.speed,
                ranked=False,
                rating=seeker.rating,
                now=seeker.joined_at,
            )  # back in the queue as they were
            self._arm(busy=True)
            raise
        alone = Pairing(-1, seeker.bucket, (seeker,), self.hall.clock.now())
        await self.seekers.seated(alone, state.id)
        return state.id

    async def status(self, player: str) -> SeekStatus:
        """What the page shows: the player's seek and its queue, or the table they were paired at."""
        now = self.hall.clock.now()
        seeker = await self.seekers.seeking(player)
        if seeker is None:
            found = await self.seekers.found(player)
            return SeekStatus(None, found.table if found is not None else None, None, None, now)
        bucket = seeker.bucket
        quick = not bucket.ranked and bucket.speed is Speed.REAL_TIME
        return SeekStatus(
            seeker, None, await self.seekers.status(seeker), COMPUTER_AFTER if quick else None, now
        )

    async def queue_sizes(self) -> list[QueueSize]:
        """How many wait in each queue, as the lobby shows it (quick play and ranked, per pool,
        player count and speed; a queue nobody waits in is left out)."""
        # Arena seekers wait in a queue of their own, counted here with ranked play's.
        sizes: dict[tuple[str, int, Speed, bool], int] = {}
        for b, n in (await self.seekers.sizes()).items():
            key = (b.pool, b.players, b.speed, b.ranked)
            sizes[key] = sizes.get(key, 0) + n
        shown: list[QueueSize] = [
            {"pool": pool, "players": players, "speed": speed.value, "ranked": ranked, "waiting": n}
            for (pool, players, speed, ranked), n in sizes.items()
        ]
        shown.sort(key=lambda q: (q["ranked"], q["pool"], q["players"], q["speed"]))
        return shown

    async def _free_if_over(self, player: str) -> None:
        held = await self.seekers.held(player)
        if held is not None and await self.hall.store.table_finished(held.table):
            await self.seekers.game_over(held.pairing)

    async def _check_settled(self, player: str, pool: str, speed: Speed) -> None:
        """The arena is for players whose rating in the pool and speed is no longer provisional
        (docs/arena.md): else ``arena_provisional``, saying how many games are still to play."""
        games = 0
        for r in await self.hall.store.ratings.of_player(player):
            if r.pool == pool and r.speed == speed.value:
                games = r.games
        if games < PROVISIONAL_GAMES:
            raise HallError(
                "arena_provisional",
                "the {pool} {speed} arena opens once your rating there is settled: "
                "{games} more rated games to play",
                pool=pool,
                speed=speed.value,
                games=PROVISIONAL_GAMES - games,
            )

    async def _rating(self, player: str, pool: str, speed: Speed) -> int:
        for r in await self.hall.store.ratings.of_player(player):
            if r.pool == pool and r.speed == speed.value:
                return Skill(r.mu, r.sigma, r.games).shown
        return NEW.shown
