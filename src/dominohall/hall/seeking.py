"""Seeking a game: the matchmaking queue put to work for the hall (join, cancel, status, tables).

Pairing runs every half second of the hall's clock, and at once after each join; each pairing
becomes a started table (``Hall.open_pairing``): ranked, or casual quick play.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from .clock import Timer
from .errors import HallError
from .hall import Hall, Person
from .matchmaking import MemoryQueue, Pairing, Queue, QueueError, QueueStatus, Seeker
from .options import BotLevel
from .ratings import NEW, RatingError, Skill, Speed, get_pool, get_speed

log = logging.getLogger(__name__)
TICK = 0.5  # seconds between two pairing rounds
COMPUTER_AFTER = 20.0  # seconds of quick play with no one found before a computer is offered
# A real-time seek stays while its player is there: their own socket (/ws/me) open, or a look at
# the queue within POLL_KEEPS seconds. Otherwise it leaves the queue after AWAY_GRACE more
# seconds (a reload, a page changed), so that nobody is paired with a closed tab.
POLL_KEEPS = 20.0
AWAY_GRACE = 15.0


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


class Matchmaker:
    def __init__(self, hall: Hall, queue: Queue | None = None) -> None:
        self.hall = hall
        self.queue: Queue = queue if queue is not None else MemoryQueue()
        self._names: dict[str, str] = {}
        self._found: dict[str, Found] = {}  # a player's last pairing, until they seek again
        self._held: dict[str, Found] = {}  # a player's unfinished real-time ranked game
        self._timer: Timer | None = None  # the next pairing round, while anyone seeks
        self._started = False
        self._sockets: dict[str, int] = {}  # player -> their own sockets open
        self._there_until: dict[str, float] = {}  # seeker -> when, with no socket, they left

    # The pairing rounds -----------------------------------------------------------------
    def start(self) -> None:
        self._started = True
        self._arm()

    def stop(self) -> None:
        self._started = False
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _arm(self) -> None:
        """Set the next round, unless one is set or nobody seeks (the rounds sleep then)."""
        if self._started and self._timer is None and len(self.queue):
            self._timer = self.hall.clock.call_at(self.hall.clock.now() + TICK, self._round)

    async def _round(self) -> None:
        self._timer = None
        try:
            await self.pair()
        except Exception:  # noqa: BLE001 - the next round tries again
            log.exception("pairing round")
        self._arm()

    async def pair(self) -> list[Pairing]:
        self._drop_the_away()
        made = self.queue.pair(self.hall.clock.now())
        for pairing in made:
            people = [Person(p, self._names.get(p, p)) for p in pairing.players]
            try:
                state = await self.hall.open_pairing(
                    pairing.bucket.pool,
                    people,
                    ranked=pairing.bucket.ranked,
                    speed=pairing.bucket.speed,
                )
            except Exception:
                self.queue.game_over(pairing.id)  # no game: nobody is held by it
                raise
            bucket = pairing.bucket
            for p in pairing.players:
                self._found[p] = Found(state.id, pairing.id)
                if bucket.ranked and bucket.speed is Speed.REAL_TIME:
                    self._held[p] = self._found[p]
        return made

    # A player's requests ----------------------------------------------------------------
    async def seek(
        self, person: Person, *, account: bool, pool: Any, players: Any, speed: Any, ranked: bool
    ) -> Seeker:
        """Queue ``person``; HallError (nothing changed) when the queue cannot take them."""
        try:
            known = get_pool(pool)
            how_fast = get_speed(speed if speed is not None else Speed.REAL_TIME.value)
        except RatingError as exc:
            raise HallError("bad_option", str(exc)) from None
        if ranked and not account:
            raise HallError("account_needed", "ranked play is for accounts: sign up first")
        if how_fast is Speed.TURN_BASED:
            self.hall.turn_based.check_room_for(person.id)
        count = players if players is not None else known.players[0]
        await self._free_if_over(person.id)
        rating = await self._rating(person.id, known.id, how_fast) if ranked else 0
        try:
            seeker = self.queue.join(
                person.id,
                known.id,
                count,
                speed=how_fast,
                ranked=ranked,
                rating=rating,
                now=self.hall.clock.now(),
            )
        except QueueError as exc:
            raise HallError("cannot_queue", str(exc)) from None
        self._names[person.id] = person.name
        self._found.pop(person.id, None)
        self.looked(person.id)
        await self.pair()
        self._arm()
        return seeker

    def cancel(self, player: str) -> bool:
        return self.queue.cancel(player)

    # Whether a seeker is still there --------------------------------------------------------
    def socket_opened(self, player: str) -> None:
        """The player's own socket (/ws/me) opened: their seek stays while it is open."""
        self._sockets[player] = self._sockets.get(player, 0) + 1

    def socket_closed(self, player: str) -> None:
        left = self._sockets.get(player, 1) - 1
        if left > 0:
            self._sockets[player] = left
            return
        self._sockets.pop(player, None)
        if player in self._there_until:
            now = self.hall.clock.now()
            self._there_until[player] = max(self._there_until[player], now)

    def looked(self, player: str) -> None:
        """The player asked for the queue (a seek, a poll): there for ``POLL_KEEPS`` more."""
        if self.queue.seeking(player) is not None:
            self._there_until[player] = self.hall.clock.now() + POLL_KEEPS

    def _drop_the_away(self) -> None:
        """Real-time seekers neither connected nor looking for ``AWAY_GRACE`` seconds leave."""
        now = self.hall.clock.now()
        for player, until in list(self._there_until.items()):
            seeker = self.queue.seeking(player)
            if seeker is None:
                del self._there_until[player]  # paired or cancelled meanwhile
            elif seeker.bucket.speed is not Speed.REAL_TIME:
                del self._there_until[player]  # a turn-based seek waits for days: it stays
            elif player not in self._sockets and now > until + AWAY_GRACE:
                self.queue.cancel(player)
                del self._there_until[player]
                log.info("seek of %s ended: away for %.0f s", player, now - until)

    async def play_computer(self, person: Person) -> str:
        """Quick play's fallback: a player who waited ``COMPUTER_AFTER`` seconds with no one
        found leaves the queue for a started table of the same game against Normal computer
        players (one fewer than the players sought). Returns the table."""
        seeker = self.queue.seeking(person.id)
        if seeker is None or seeker.bucket.ranked or seeker.bucket.speed is not Speed.REAL_TIME:
            raise HallError(
                "cannot_play_computer",
                "only a player waiting in real-time quick play may take a computer",
            )
        waited = self.hall.clock.now() - seeker.joined_at
        if waited < COMPUTER_AFTER:
            raise HallError(
                "cannot_play_computer",
                f"a computer is offered after {COMPUTER_AFTER:g} s of waiting, not {waited:.1f} s",
            )
        pool = get_pool(seeker.bucket.pool)
        bots = [BotLevel.NORMAL] * (seeker.bucket.players - 1)
        self.queue.cancel(person.id)
        try:
            state = await self.hall.play_with_bots(person, bots, pool.preset, pool.target)
        except HallError:
            self.queue.join(
                person.id,
                seeker.bucket.pool,
                seeker.bucket.players,
                speed=seeker.bucket.speed,
                ranked=False,
                rating=seeker.rating,
                now=seeker.joined_at,
            )  # back in the queue as they were
            self._arm()
            raise
        self._found[person.id] = Found(state.id, -1)
        return state.id

    def status(self, player: str) -> SeekStatus:
        """What the page shows: the player's seek and its queue, or the table they were paired at."""
        seeker = self.queue.seeking(player)
        found = self._found.get(player)
        if seeker is None:
            table = found.table if found is not None else None
            return SeekStatus(None, table, None, None, self.hall.clock.now())
        bucket = seeker.bucket
        quick = not bucket.ranked and bucket.speed is Speed.REAL_TIME
        return SeekStatus(
            seeker,
            None,
            self.queue.status(bucket),
            COMPUTER_AFTER if quick else None,
            self.hall.clock.now(),
        )

    async def _free_if_over(self, player: str) -> None:
        held = self._held.get(player)
        if held is not None and await self.hall.store.table_finished(held.table):
            self.queue.game_over(held.pairing)
            del self._held[player]

    async def _rating(self, player: str, pool: str, speed: Speed) -> int:
        for r in await self.hall.store.ratings.of_player(player):
            if r.pool == pool and r.speed == speed.value:
                return Skill(r.mu, r.sigma, r.games).shown
        return NEW.shown
