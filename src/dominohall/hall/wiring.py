"""The one place a hall is put together and taken apart: the store, the secret, the hall and
the services around it (the accounts, matchmaking, the games' index, email notices). ``serve``
(through the web app), the tests and the benches all open a hall here."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import AsyncIterator, Awaitable
from dataclasses import dataclass, field
from pathlib import Path

from ..store import Store
from .accounts import Accounts, StoreAccounts
from .chat_retention import RETENTION_DAYS, ChatRetention
from .clock import Clock, SystemClock
from .dormancy import IDLE_SECONDS
from .hall import GRACE_SECONDS, Hall
from .history import Indexer
from .lobby_board import RedisLobbyBoard
from .lobby_feed import LOOK_EVERY, PUSH_EVERY, Lobby
from .mail import MailSettings, Outbox
from .mail_links import MailLinks
from .mail_notices import EmailNotices
from .moderating import Follower, Moderating
from .once_only import CLAIM_SECONDS, Claim, ClaimedJob
from .online import MemoryOnline, Online, RedisOnline
from .outage import PROBE_SECONDS, Part
from .owner_link import OwnerLink
from .ownership import LEASE_SECONDS, Ownership, new_process_id
from .redis_broker import RedisBroker
from .redis_queue import RedisSeekers
from .seasons import SEASON_DAYS, Seasons
from .seat_board import RedisSeatBoard
from .secret import database_secret, kept_in_database, load_secret, new_secret
from .seeking import Matchmaker
from .tournament_feed import TournamentFeed
from .tournament_news import MemoryTournamentNews, RedisTournamentNews, TournamentNews
from .tournaments import TournamentRunner, Tournaments
from .turn_based import TurnBasedSettings

log = logging.getLogger("dominohall.hall")


@dataclass(frozen=True)
class HallSettings:
    """How a hall runs. ``secret``: the secret when a file holds it (``secret.secret_at_hand``);
    None: on PostgreSQL the database's, made once, else the data folder's (``hall/secret.py``)."""

    database_url: str
    data: Path | None = None
    secret: str | None = None
    clock: Clock | None = None
    bot_delay: float = 0.8
    grace_seconds: float = GRACE_SECONDS
    rng: random.Random | None = None
    heartbeat: bool = True
    hard_budget: float | None = None
    turn_based: TurnBasedSettings | None = None
    mail: MailSettings | None = None  # None: the hall sends no email
    # Redis between the hall's processes (``redis_broker.py``); None: one process, in memory.
    redis_url: str | None = None
    redis_prefix: str = "dominohall:"  # of its keys and channels (tests use one each)
    # This process's name to the others on the database (None: made up, unique to this start):
    # its claims on once-only jobs (``once_only.py``) and, with Redis, the leases of the live
    # tables it plays (``ownership.py``, each table played by one process); and how
    # long a lease lasts unless renewed (every third of it): a dead process's tables wait up to
    # this long for another to take them over.
    process_id: str | None = None
    lease_seconds: float = LEASE_SECONDS
    # The lobby's pushes: at most one every ``lobby_push`` seconds; the queues and the people
    # online looked at every ``lobby_look`` seconds (``lobby_feed.py``).
    lobby_push: float = PUSH_EVERY
    lobby_look: float = LOOK_EVERY
    # How often the database is tried while it is away (``outage.py``; tests use a short one).
    probe_seconds: float = PROBE_SECONDS
    # A turn-based table nobody used for this many seconds leaves memory until it is needed
    # again (``dormancy.py``); None: none does (a start still leaves asleep those that were).
    idle_seconds: float | None = IDLE_SECONDS
    # Chat lines older than this many days are deleted (``chat_retention.py``).
    chat_days: float = RETENTION_DAYS
    # An arena season's length in days (``seasons.py``; a new length holds from the next season).
    season_days: float = SEASON_DAYS
    # Seconds between two steps of the tournaments (``tournaments.py``); None: no steps run by
    # themselves (a test steps them by hand).
    tournament_every: float | None = TournamentRunner.EVERY
    # False: the socket tier (``serve --sockets-only``, needs Redis): this process plays no
    # table (no lease, no table's clock or computer player), opens none and pairs no queue; it
    # serves HTTP and the sockets, every command sent to the game tier (``owners.py``).
    plays_tables: bool = True


@dataclass
class OpenHall:
    """A hall running, with what runs around it; ``close`` stops them all, the store last."""

    store: Store
    hall: Hall
    secret: str
    mail_links: MailLinks
    indexer: Indexer
    matchmaker: Matchmaker
    accounts: Accounts  # what the web asks about people, in place of the store
    process_id: str
    moderating: Moderating  # the operators' actions (the /mod page's)
    follower: Follower  # the moderation log followed: each action applied to this process
    lobby: Lobby  # the live lobby, as this process's lobby sockets are told it
    online: Online  # the players with a socket open, on every process
    seasons: Seasons  # the arena's seasons begun and ended (once, on one process at a time)
    email: EmailNotices | None = None
    email_job: ClaimedJob | None = None  # the email notices, on one process at a time
    pairing_job: ClaimedJob | None = None  # several processes: the pairing rounds, on one
    outbox: Outbox | None = None
    broker: RedisBroker | None = None  # None: the hall's own MemoryBroker
    link: OwnerLink | None = None  # several processes: requests to the tables' owners
    seat_board: RedisSeatBoard | None = None  # several processes: the seats with sockets
    board: RedisLobbyBoard | None = None  # several processes: the lobby's tables in Redis
    tournaments: Tournaments | None = None  # the tournaments service (docs/tournaments.md)
    # The tournaments as this process's tournament sockets are told them (docs/protocol.md 15).
    tournament_feed: TournamentFeed | None = None
    _tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def claim(self, job: str, ttl: float = CLAIM_SECONDS) -> Claim:
        """This process's claim on a once-only job (``once_only.py``)."""
        return Claim(self.store.job_leases, job, self.process_id, self.hall.clock, ttl)

    async def close(self) -> None:
        """Stop every part, the store last; a part stuck in its stop is left behind (and its
        stack logged) after ``STOP_SECONDS``, so that a close always ends."""
        await stopped("the moderation follower", self.follower.stop())
        await stopped("the lobby", self.lobby.stop())
        if self.tournament_feed is not None:
            await stopped("the tournaments' feed", self.tournament_feed.stop())
            await stopped("the tournaments' news", self.tournament_feed.news.close())
        if self.email_job is not None:
            await stopped("the email notices", self.email_job.end())
        for task in self._tasks:
            task.cancel()
        # Waited for: a task cancelled in a transaction lets go of the database's write lock,
        # which the hall's last write (its heartbeat) would otherwise find taken.
        await stopped("the hall's jobs", asyncio.gather(*self._tasks, return_exceptions=True))
        if self.outbox is not None:
            await stopped("the outbox", self.outbox.stop())
        if self.pairing_job is not None:
            await stopped("the pairing rounds", self.pairing_job.end())
        self.matchmaker.stop()
        await stopped("the queues", self.matchmaker.seekers.close())
        await stopped("the hall", self.hall.stop())  # (several processes: its leases released)
        if self.link is not None:
            await stopped("the owner link", self.link.close())
        if self.seat_board is not None:
            await stopped("the seat board", self.seat_board.close())
        await stopped("the people online", self.online.close())
        await stopped("the lobby board", self.hall.board.close())
        if self.broker is not None:  # after the hall: what it tells as it stops is still sent
            await stopped("the broker", self.broker.close())
        await stopped("the store", self.store.close())


STOP_SECONDS = 20.0  # a part's stop that takes longer is stuck: the close goes on without it


async def stopped(part: str, stopping: Awaitable[object]) -> None:
    """Wait for ``part`` to stop, at most ``STOP_SECONDS``. A part that does not is logged with
    every task's stack, to show what it waits for, and left behind: a process that cannot
    stop would hold its port and its tables' leases (and a test would hang)."""
    task = asyncio.ensure_future(stopping)
    done, _ = await asyncio.wait({task}, timeout=STOP_SECONDS)
    if task in done:
        task.result()  # (its failure, as before)
        return
    stacks = "\n".join(
        f"{other.get_name()}: {' <- '.join(_frames(other))}" for other in asyncio.all_tasks()
    )
    log.error(
        "closing: %s did not stop within %g s; left behind. Tasks:\n%s", part, STOP_SECONDS, stacks
    )


def _frames(task: asyncio.Task[object]) -> list[str]:
    return [
        f"{f.f_code.co_name} ({f.f_code.co_filename.rsplit('/', 1)[-1]}:{f.f_lineno})"
        for f in task.get_stack()
    ]


async def open_hall(settings: HallSettings) -> OpenHall:
    """Open the store, load every live table and start the services around the hall."""
    store = await Store.open(settings.database_url)
    broker: RedisBroker | None = None
    link: OwnerLink | None = None
    ownership: Ownership | None = None
    seat_board: RedisSeatBoard | None = None
    board: RedisLobbyBoard | None = None
    clock = settings.clock or SystemClock()
    # This process's name to the others on the database: its tables' leases, its job claims.
    process_id = settings.process_id or new_process_id()
    if not settings.plays_tables and settings.redis_url is None:
        await store.close()
        raise ValueError("a hall that plays no tables needs Redis to reach the ones that do")
    try:
        if settings.redis_url is not None:
            # Started before the hall, which may tell its players things as it loads.
            broker = RedisBroker(settings.redis_url, prefix=settings.redis_prefix)
            await broker.start()
            ownership = Ownership(
                store.table_leases,
                clock,
                process_id=process_id,
                lease_seconds=settings.lease_seconds,
                plays=settings.plays_tables,
            )
            # The tables this process holds publish their changes from here: it needs no
            # channel to hear them (``redis_broker.py``).
            broker.owns = ownership.holds
            ownership.changed = broker.owner_changed
            link = OwnerLink(
                settings.redis_url,
                prefix=settings.redis_prefix,
                process_id=process_id,
                plays=settings.plays_tables,
            )
            await link.start()
            seat_board = RedisSeatBoard(
                settings.redis_url,
                prefix=settings.redis_prefix,
                process_id=process_id,
                clock=clock,
                seconds=settings.lease_seconds,
            )
            board = RedisLobbyBoard(settings.redis_url, prefix=settings.redis_prefix)
        secret = await _secret_of(settings, store)
        mail = settings.mail
        # The links in emails are signed with the hall's secret; they are read even with email off.
        links = MailLinks(secret, mail.public_url if mail is not None else "")
        hall = Hall(
            store,
            clock=clock,
            bot_delay=settings.bot_delay,
            grace_seconds=settings.grace_seconds,
            rng=settings.rng,
            heartbeat=settings.heartbeat,
            hard_budget=settings.hard_budget,
            turn_based=settings.turn_based,
            broker=broker,
            ownership=ownership,
            link=link,
            seat_board=seat_board,
            board=board,
            probe_seconds=settings.probe_seconds,
            idle_seconds=settings.idle_seconds,
        )
        if broker is not None:  # Redis away: the clocks stop until it is back (``outage.py``)
            outage = hall.outage

            def reachable(up: bool) -> None:
                if up:
                    outage.back(Part.REDIS)
                else:
                    outage.noticed(Part.REDIS)

            broker.on_reachable = reachable
        if board is not None and ownership is not None:
            held, rooms = ownership.holds, hall.rooms
            board.keeps = lambda table_id: held(table_id) or rooms.is_asleep(table_id)
        await hall.start()
    except BaseException:
        if board is not None:
            await board.close()
        if seat_board is not None:
            await seat_board.close()
        if link is not None:
            await link.close()
        if broker is not None:
            await broker.close()
        await store.close()
        raise
    matchmaker = Matchmaker(
        hall,
        None
        if settings.redis_url is None
        else RedisSeekers(settings.redis_url, prefix=settings.redis_prefix),
    )
    online: Online
    if settings.redis_url is None:
        online = MemoryOnline()
    else:
        online = redis_online = RedisOnline(
            settings.redis_url, prefix=settings.redis_prefix, clock=clock
        )
        redis_online.start()
    lobby = Lobby(
        hall.board,
        matchmaker.queue_sizes,
        online,
        push_every=settings.lobby_push,
        look_every=settings.lobby_look,
    )
    opened = OpenHall(
        store,
        hall,
        secret,
        links,
        Indexer(store),
        matchmaker,
        accounts=StoreAccounts(store),
        process_id=process_id,
        moderating=Moderating(store, clock),
        follower=Follower(hall),
        lobby=lobby,
        online=online,
        seasons=Seasons(
            store,
            clock,
            Claim(store.job_leases, "arena-seasons", process_id, clock),
            settings.season_days,
        ),
        broker=broker,
        link=link,
        seat_board=seat_board,
        board=board,
    )
    await opened.follower.start()
    lobby.start()
    opened.matchmaker.start()
    # The queue is shared: one process pairs at a time, one that plays tables (a pairing's
    # table is opened where it pairs).
    if settings.redis_url is not None and settings.plays_tables:
        opened.pairing_job = ClaimedJob(
            opened.claim("pairing", settings.lease_seconds),
            opened.matchmaker.begin_pairing,
            opened.matchmaker.end_pairing,
        )
        await opened.pairing_job.begin()
    if mail is not None:
        opened.outbox = Outbox(mail)
        opened.outbox.start()
        email = opened.email = EmailNotices(hall, store.emails, opened.outbox, links, mail)

        async def stop_email() -> None:
            email.stop()

        if settings.plays_tables:  # (the socket tier mails only what its web asks: confirmations)
            opened.email_job = ClaimedJob(
                opened.claim("email-notices"), email.start, stop_email, keep=email.catch_up
            )
            await opened.email_job.begin()
    # Seasons begun, and any that ended meanwhile (the hall down at the time) ended, before the
    # hall serves; then a look every minute.
    await opened.seasons.look()
    opened._tasks.append(asyncio.create_task(opened.seasons.run(), name="arena-seasons"))
    # Games finished before the games' index (or just before a crash) are indexed now rather
    # than by the first reader (by one process, when several start together).
    opened._tasks.append(asyncio.create_task(_index_now(opened.indexer, opened.claim("index"))))
    # Old chat deleted now and every hour, by one process (the claim outlives a round).
    retention = ChatRetention(
        store.chat, clock, opened.claim("chat-retention", 3 * 3600.0), settings.chat_days
    )
    opened._tasks.append(asyncio.create_task(retention.run(), name="chat-retention"))
    # Tournaments stepped every 2 s, by the one process holding the claim (of those that play
    # tables: a step opens tables).
    news: TournamentNews = (
        MemoryTournamentNews()
        if settings.redis_url is None
        else RedisTournamentNews(settings.redis_url, prefix=settings.redis_prefix)
    )
    tournaments = opened.tournaments = Tournaments(
        store.tournaments,
        hall.owner,
        hall.broker,
        clock,
        held_back=hall.abandonment.check,
        news=news,
    )
    opened.tournament_feed = TournamentFeed(news, tournaments.get, push_every=settings.lobby_push)
    opened.tournament_feed.start()
    if settings.tournament_every is not None and settings.plays_tables:
        runner = TournamentRunner(tournaments, opened.claim("tournaments"))
        step = runner.run(settings.tournament_every)
        opened._tasks.append(asyncio.create_task(step, name="tournaments"))
    return opened


async def _secret_of(settings: HallSettings, store: Store) -> str:
    if settings.secret is not None:
        return settings.secret
    if kept_in_database(settings.database_url):
        return await database_secret(store, settings.data)
    if settings.data is not None:
        return load_secret(settings.data)
    return new_secret()  # SQLite with no data folder (a test's hall): good for this run only


@contextlib.asynccontextmanager
async def running(settings: HallSettings) -> AsyncIterator[OpenHall]:
    opened = await open_hall(settings)
    try:
        yield opened
    finally:
        await opened.close()


async def _index_now(indexer: Indexer, claim: Claim) -> None:
    try:
        if not await claim.claim():
            return  # another process is at it
        added = await indexer.catch_up()
        if added:
            log.info("games' index: %d finished games added", added)
    except Exception:  # noqa: BLE001 - readers catch up again
        log.exception("indexing the finished games failed")
    finally:
        await claim.release()
