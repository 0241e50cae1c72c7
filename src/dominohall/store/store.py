"""The hall's storage: one object over a SQLAlchemy async engine (SQLite in WAL mode by default).

Table events are written by one writer (``event_writer.py``) that commits whatever is waiting in
one transaction (group commit): a move is acknowledged only once the transaction holding it is
committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import weakref
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson
from alembic import command
from alembic.config import Config
from sqlalchemy import and_, delete, event, exists, insert, or_, select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from . import (
    abandonment,
    addresses,
    arena,
    challenges,
    chat,
    emails,
    follows,
    history,
    leases,
    moderation,
    ratings,
    schema,
    tournaments,
    vacations,
    wakes,
)
from .arena import ArenaGame
from .errors import Conflict, Fenced
from .event_writer import EVENT_COLUMNS, EventWriter, Job, TaskWriter, ThreadWriter
from .uninterrupted import calls_ended, uninterrupted_calls

MIGRATIONS = Path(__file__).parent / "migrations"


@dataclass(frozen=True)
class Finish:
    """A table's end, stored with the events that end it: the game's record (None: the table
    closed with no game), a ranked game's rating change (None: unrated) and an arena game's
    change to its season's standings (None: not an arena game)."""

    record: dict[str, Any] | None
    rated: ratings.RatedGame | None = None
    arena: ArenaGame | None = None


@dataclass(frozen=True)
class StoredPlayer:
    id: str
    name: str
    username: str | None
    password_hash: str | None
    language: str | None = None  # the language chosen (``i18n``), None: not chosen


POOL_SIZE = 10  # PostgreSQL connections each process keeps open
POOL_OVERFLOW = 10  # and those it may open beyond them at a busy moment

# Alembic's migration context is global to the Python process: two stores of one process
# opening at once (two halls in a test) take turns at the upgrade. One lock per event loop.
_UPGRADING: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, asyncio.Lock] = (
    weakref.WeakKeyDictionary()
)


def _upgrade(connection: Connection) -> None:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    command.upgrade(config, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL lets readers go on while a move commits; NORMAL sync is still safe against a killed
    # process (a committed transaction is in the WAL file), not against a power cut.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=30000")
    cursor.close()


@uninterrupted_calls
class Store:
    def __init__(self, engine: AsyncEngine, writer: EventWriter) -> None:
        self.engine = engine
        self.ratings = ratings.Ratings(engine)
        self.arena = arena.Arena(engine)
        self.emails = emails.Emails(engine)
        self.history = history.History(engine)
        self.vacations = vacations.Vacations(engine)
        self.chat = chat.Chat(engine)
        self.moderation = moderation.Moderation(engine)
        self.challenges = challenges.Challenges(engine)
        self.follows = follows.Follows(engine)
        self.abandonments = abandonment.Abandonments(engine)
        self.addresses = addresses.Addresses(engine)
        self.tournaments = tournaments.Tournaments(engine)
        # Several processes on one database: who plays each live table, who runs each job.
        self.table_leases = leases.TableLeases(engine)
        # Live turn-based tables out of memory: what a start needs of each (``wakes.py``).
        self.wakes = wakes.TableWakes(engine)
        self.job_leases = leases.Leases(engine, leases.JOB)
        self._writer = writer

    @classmethod
    async def open(cls, url: str) -> Store:
        """Connect to ``url``, create or upgrade the schema, and start the event writer."""
        sqlite = url.startswith("sqlite")
        if sqlite:
            engine = create_async_engine(url, connect_args={"timeout": 30})
        else:
            # Connections kept open for the reads a busy process makes at once (past the pool,
            # each read opened and closed a connection of its own: a fifth of a process's CPU).
            engine = create_async_engine(url, pool_size=POOL_SIZE, max_overflow=POOL_OVERFLOW)
        if sqlite:
            event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
        try:
            upgrading = _UPGRADING.setdefault(asyncio.get_running_loop(), asyncio.Lock())
            async with upgrading, engine.begin() as conn:
                await conn.run_sync(_upgrade)
        except BaseException:
            # A schema this hall cannot upgrade (a newer hall's): let go of the connection the
            # engine holds, rather than leave it to the garbage collector.
            await engine.dispose()
            raise
        database = make_url(url).database
        if sqlite and database and database != ":memory:":
            writer: EventWriter = ThreadWriter(database)
        else:
            writer = TaskWriter(engine)
        return cls(engine, writer)

    async def close(self) -> None:
        await self._writer.close()
        await calls_ended()  # (a call left running by its caller keeps its connection till then)
        await self.engine.dispose()

    # Players ----------------------------------------------------------------------------
    async def add_player(self, player: StoredPlayer, now: float | None = None) -> None:
        """Add a player, seen at ``now`` (the hall's clock; None: the system's); raises Conflict
        when the username is taken. Seen as it is made: the idle guests' clean-up spares it until
        its session is written."""
        seen = time.time() if now is None else now
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(schema.players).values(
                        id=player.id,
                        name=player.name,
                        username=player.username,
                        password_hash=player.password_hash,
                        created_at=seen,
                        seen_at=seen,
                    )
                )
        except IntegrityError:
            raise Conflict(f"username {player.username!r} is taken") from None

    async def update_player(self, player: StoredPlayer) -> None:
        """Change a player's name or account; raises Conflict when the username is taken."""
        try:
            async with self.engine.begin() as conn:
                await conn.execute(
                    update(schema.players)
                    .where(schema.players.c.id == player.id)
                    .values(
                        name=player.name,
                        username=player.username,
                        password_hash=player.password_hash,
                    )
                )
        except IntegrityError:
            raise Conflict(f"username {player.username!r} is taken") from None

    async def set_language(self, player_id: str, language: str) -> None:
        """Keep a player's language (``update_player`` leaves it as it is)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(schema.players)
                .where(schema.players.c.id == player_id)
                .values(language=language)
            )

    async def player(self, player_id: str) -> StoredPlayer | None:
        return await self._one_player(schema.players.c.id == player_id)

    async def player_by_username(self, username: str) -> StoredPlayer | None:
        return await self._one_player(schema.players.c.username == username)

    async def _one_player(self, where: Any) -> StoredPlayer | None:
        p = schema.players.c
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(p.id, p.name, p.username, p.password_hash, p.language).where(where)
                )
            ).first()
        return StoredPlayer(*row) if row is not None else None

    # Sessions ---------------------------------------------------------------------------
    async def add_session(
        self, session_id: str, player_id: str, now: float, expires_at: float
    ) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                insert(schema.sessions).values(
                    id=session_id,
                    player_id=player_id,
                    created_at=now,
                    seen_at=now,
                    expires_at=expires_at,
                )
            )
            await self._seen(conn, player_id, now)

    async def session(self, session_id: str, now: float) -> tuple[StoredPlayer, float] | None:
        """The player of a session that has not expired, and when the session was last seen."""
        p, s = schema.players.c, schema.sessions.c
        query = (
            select(p.id, p.name, p.username, p.password_hash, p.language, s.seen_at)
            .join_from(schema.sessions, schema.players, p.id == s.player_id)
            .where(s.id == session_id, s.expires_at > now)
        )
        async with self.engine.connect() as conn:
            row = (await conn.execute(query)).first()
        return (StoredPlayer(*row[:5]), row[5]) if row is not None else None

    async def touch_session(
        self, session_id: str, player_id: str, now: float, expires_at: float
    ) -> None:
        s = schema.sessions
        async with self.engine.begin() as conn:
            await conn.execute(
                update(s).where(s.c.id == session_id).values(seen_at=now, expires_at=expires_at)
            )
            await self._seen(conn, player_id, now)

    @staticmethod
    async def _seen(conn: Any, player_id: str, now: float) -> None:
        p = schema.players
        await conn.execute(update(p).where(p.c.id == player_id).values(seen_at=now))

    async def end_session(self, session_id: str) -> None:
        s = schema.sessions
        async with self.engine.begin() as conn:
            await conn.execute(delete(s).where(s.c.id == session_id))

    async def end_sessions(self, player_id: str, keep: str | None = None) -> int:
        """End every session of a player (but ``keep``), and any old cookie of theirs."""
        s, p = schema.sessions, schema.players
        where = s.c.player_id == player_id
        if keep is not None:
            where = and_(where, s.c.id != keep)
        async with self.engine.begin() as conn:
            ended = (await conn.execute(delete(s).where(where))).rowcount
            await conn.execute(update(p).where(p.c.id == player_id).values(legacy_cookie=False))
        return int(ended)

    async def legacy_cookie(self, player_id: str) -> bool:
        """Whether an old cookie of this player may still be exchanged for a session."""
        p = schema.players.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(p.legacy_cookie).where(p.id == player_id))).first()
        return bool(row and row[0])

    async def take_legacy_cookie(self, player_id: str) -> bool:
        """Exchange a player's old cookie: True the first time only."""
        p = schema.players
        async with self.engine.begin() as conn:
            taken = await conn.execute(
                update(p)
                .where(p.c.id == player_id, p.c.legacy_cookie.is_(True))
                .values(legacy_cookie=False)
            )
        return bool(taken.rowcount == 1)

    async def forget_guests(self, seen_before: float, now: float) -> int:
        """Drop expired sessions, then every guest with no game, no session and not seen since
        ``seen_before``: a seat at a table that is still on or that has a game keeps a guest."""
        p, s, seats, t, g = (
            schema.players.c,
            schema.sessions.c,
            schema.seats.c,
            schema.tables.c,
            schema.games.c,
        )
        has_game = exists().where(
            seats.player_id == p.id,
            t.id == seats.table_id,
            or_(t.finished_at.is_(None), exists().where(g.table_id == t.id)),
        )
        has_session = exists().where(s.player_id == p.id, s.expires_at > now)
        idle = and_(
            p.username.is_(None),
            or_(p.seen_at.is_(None), p.seen_at < seen_before),
            ~has_session,
            ~has_game,
        )
        # Short transactions (the event log waits for the write lock): find them, then delete
        # them a few at a time, asking again in the delete (one may have come back meanwhile).
        async with self.engine.connect() as conn:
            ids = [row[0] for row in await conn.execute(select(p.id).where(idle))]
        async with self.engine.begin() as conn:
            await conn.execute(delete(schema.sessions).where(s.expires_at <= now))
        forgotten = 0
        for start in range(0, len(ids), 200):
            chunk = ids[start : start + 200]
            async with self.engine.begin() as conn:
                gone = await conn.execute(delete(schema.players).where(p.id.in_(chunk), idle))
                forgotten += gone.rowcount
                kept = select(p.id).where(p.id.in_(chunk))
                await conn.execute(
                    delete(schema.seats).where(
                        seats.player_id.in_(chunk), ~seats.player_id.in_(kept)
                    )
                )
                still = {row[0] for row in await conn.execute(kept)}
                gone_ids = [i for i in chunk if i not in still]
                await emails.forget_players(conn, gone_ids)
                # A guest who chatted only as a spectator has no seat: their lines stay, said
                # by nobody, as a deleted account's do.
                await chat.anonymise(conn, gone_ids)
                await moderation.forget_players(conn, gone_ids)
                await challenges.forget_players(conn, gone_ids)
                await follows.forget_players(conn, gone_ids)
                await addresses.forget_players(conn, gone_ids)
        return forgotten

    # Tables and their events --------------------------------------------------------------
    async def add_table(self, table_id: str, at: float) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(insert(schema.tables).values(id=table_id, created_at=at))

    async def add_seat(self, player_id: str, table_id: str) -> None:
        """Note that a player sits (or is about to sit) at a table; once is enough."""
        with contextlib.suppress(IntegrityError):  # already noted
            async with self.engine.begin() as conn:
                await conn.execute(
                    insert(schema.seats).values(player_id=player_id, table_id=table_id)
                )

    async def append(
        self,
        table_id: str,
        first_version: int,
        bodies: list[dict[str, Any]],
        at: float,
        finish: Finish | None = None,
        *,
        token: int | None = None,
    ) -> None:
        """Commit events ``first_version``, ``first_version + 1``, ... of a table, all or none.

        Returns once they are committed; raises Conflict when one of those versions exists.
        Events that end the table bring its ``finish``: the table marked finished, its record
        and its rating change are committed in the same transaction as they are (all or none).
        With a fencing ``token`` (``leases.py``), they are committed only if the table's lease
        still carries it, and stored with it; else Fenced, and nothing is written.
        """
        await self.start_append(table_id, first_version, bodies, at, finish, token=token)

    def start_append(
        self,
        table_id: str,
        first_version: int,
        bodies: list[dict[str, Any]],
        at: float,
        finish: Finish | None = None,
        *,
        token: int | None = None,
    ) -> asyncio.Future[None]:
        """``append`` begun: the future settles once the events are committed (or refused).
        The write goes on whether or not anyone still waits for it."""
        rows = [
            (table_id, first_version + i, at, orjson.dumps(b).decode())
            for i, b in enumerate(bodies)
        ]
        if finish is not None:
            return asyncio.ensure_future(self._append_finishing(table_id, rows, at, finish, token))
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._writer.submit(Job(table_id, rows, done, token))
        return done

    async def events(self, table_id: str) -> list[tuple[int, float, dict[str, Any]]]:
        """Every event of a table, oldest first, as (version, at, body)."""
        e = schema.events.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(e.version, e.at, e.body).where(e.table_id == table_id).order_by(e.version)
            )
            return [(v, at, json.loads(body)) for v, at, body in rows]

    async def live_tables(self) -> list[str]:
        """The tables whose game is not over (oldest first)."""
        t = schema.tables.c
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(t.id).where(t.finished_at.is_(None)).order_by(t.created_at)
            )
            return [r[0] for r in rows]

    async def live_tables_of(self, player_id: str) -> list[str]:
        """The tables whose game is not over at which ``player_id`` sat (or sits: a seat left
        stays noted), oldest first."""
        t, s = schema.tables.c, schema.seats.c
        query = (
            select(t.id)
            .join(schema.seats, s.table_id == t.id)
            .where(s.player_id == player_id, t.finished_at.is_(None))
            .order_by(t.created_at)
        )
        async with self.engine.connect() as conn:
            return [r[0] for r in await conn.execute(query)]

    async def table_finished(self, table_id: str) -> bool | None:
        """Whether a table is finished (None: there is no such table)."""
        t = schema.tables.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(t.finished_at).where(t.id == table_id))).first()
        return None if row is None else row[0] is not None

    async def finish_table(
        self,
        table_id: str,
        at: float,
        record: dict[str, Any] | None,
        rated: ratings.RatedGame | None = None,
    ) -> None:
        """Mark a table finished and keep its game's record (None: it closed with no game).

        A ranked game's rating change (``rated``) is applied in the same transaction, after the
        table's row is written (so the write lock is held while the ratings are read). Used for
        a table whose log ended it without its finish (written by a hall before the finish went
        with the last events); the hall's own ends go with their events (``append``).
        """
        async with self.engine.begin() as conn:
            await self._finish(conn, table_id, at, Finish(record, rated))

    async def _append_finishing(
        self,
        table_id: str,
        rows: list[tuple[str, int, float, str]],
        at: float,
        finish: Finish,
        token: int | None,
    ) -> None:
        """The events that end a table and its finish, in one transaction (not the event
        writer's: its batches hold no ratings). The events go first, taking the write lock
        (on SQLite a read first could not take it later: another writer may have committed
        since); the lease is checked after them, before the commit, which is as good."""
        async with self.engine.begin() as conn:
            try:
                await conn.execute(
                    insert(schema.events),
                    [dict(zip(EVENT_COLUMNS, (*r, token), strict=True)) for r in rows],
                )
            except IntegrityError:
                raise Conflict(f"table {table_id} has moved on: try again") from None
            if token is not None:
                held = await leases.held_tokens(conn, [table_id])
                if held.get(table_id) != token:
                    raise Fenced.lost(table_id, token)  # the events are rolled back
            await self._finish(conn, table_id, at, finish)

    @staticmethod
    async def _finish(conn: Any, table_id: str, at: float, finish: Finish) -> None:
        await conn.execute(
            update(schema.tables).where(schema.tables.c.id == table_id).values(finished_at=at)
        )
        if finish.record is not None:
            await conn.execute(
                insert(schema.games).values(
                    table_id=table_id, record=json.dumps(finish.record), finished_at=at
                )
            )
        if finish.rated is not None:
            await ratings.apply(conn, table_id, at, finish.rated)
        if finish.arena is not None:
            await arena.apply(conn, table_id, at, finish.arena)

    async def record(self, table_id: str) -> dict[str, Any] | None:
        g = schema.games.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(g.record).where(g.table_id == table_id))).first()
        return json.loads(row[0]) if row is not None else None

    # A little key-value state: the hall's heartbeat ---------------------------------------
    async def set_meta(self, key: str, value: str) -> None:
        """Store ``value`` under ``key`` in one statement: processes starting together each
        write their heartbeat, and an update-then-insert would let two of them insert."""
        m = schema.meta
        upsert = sqlite_insert if self.engine.dialect.name == "sqlite" else postgresql_insert
        statement = upsert(m).values(key=key, value=value)
        async with self.engine.begin() as conn:
            await conn.execute(
                statement.on_conflict_do_update(index_elements=[m.c.key], set_={"value": value})
            )

    async def first_meta(self, key: str, value: str) -> str:
        """The value stored under ``key``, storing ``value`` first if there is none.

        Race-free across processes: of several inserting at once, the key lets one in and the
        others fail; every one then reads the one value stored.
        """
        with contextlib.suppress(IntegrityError):  # another process stored it first
            async with self.engine.begin() as conn:
                await conn.execute(insert(schema.meta).values(key=key, value=value))
        stored = await self.meta(key)
        assert stored is not None, f"meta {key!r} vanished after it was stored"
        return stored

    async def meta(self, key: str) -> str | None:
        m = schema.meta.c
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(m.value).where(m.key == key))).first()
        return row[0] if row is not None else None
