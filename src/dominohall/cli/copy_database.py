"""``dominohall copy-database``: a stopped hall's database copied into another (SQLite to PostgreSQL).

The target is migrated to the schema the hall runs on, then every table of ``store/schema.py`` is
copied in one transaction (all or nothing), its rows counted against the source's before the
commit. A SQLite source is read from a snapshot (SQLite's online backup, upgraded to the current
schema on the side), so the source file is never written to.
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import click
from alembic.script import ScriptDirectory
from alembic.util import CommandError
from sqlalchemy import Table, func, insert, inspect, select, text
from sqlalchemy.engine import URL, Connection, make_url
from sqlalchemy.exc import ArgumentError, DBAPIError, SQLAlchemyError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine

from ..hall.secret import read_secret_file
from ..store import Store, schema
from ..store.store import MIGRATIONS
from .backup import back_up

BATCH = 1000  # rows per insert
SHOWN = ("tables", "events", "games", "players", "sessions", "ratings")  # named first
SECRET = "secret"  # the meta row of the hall's secret (hall/secret.py)


class CopyError(click.ClickException):
    """What stopped the copy; nothing was written to the target."""


@dataclass(frozen=True)
class Secret:
    """The hall's secret (``hall/secret.py``) to keep in the target, and where it was found."""

    value: str
    found_in: str


@dataclass(frozen=True)
class Copied:
    """The rows copied into each table, and where the hall's secret came from (None: nowhere)."""

    rows: dict[str, int]
    secret: str | None


def parse_url(url: str, which: str) -> URL:
    """A database URL the hall can use (an async driver), or a CopyError saying what is wrong."""
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise CopyError(
            f"{which} {url!r} is not a database URL: write sqlite+aiosqlite:///PATH/hall.db "
            "or postgresql+asyncpg://USER@HOST/DATABASE"
        ) from None
    backend = parsed.get_backend_name()
    driver = {"sqlite": "aiosqlite", "postgresql": "asyncpg"}.get(backend)
    if driver is None:
        raise CopyError(f"{which} {url!r}: the hall runs on sqlite or postgresql, not {backend}")
    if parsed.get_driver_name() != driver:
        raise CopyError(
            f"{which} {url!r}: the hall reaches {backend} through {driver}, "
            f"not {parsed.get_driver_name()}: write {backend}+{driver}://..."
        )
    if not parsed.database or parsed.database == ":memory:":
        raise CopyError(f"{which} {url!r} names no database")
    return parsed


def _head() -> str:
    script = ScriptDirectory(str(MIGRATIONS))
    head = script.get_current_head()
    assert head is not None, "the migrations have no head"
    return head


def _revision(conn: Connection) -> str | None:
    if not inspect(conn).has_table("alembic_version"):
        return None
    return conn.execute(text("SELECT version_num FROM alembic_version")).scalar()


def _counts(conn: Connection) -> dict[str, int]:
    """The rows of each of the hall's tables that the database holds."""
    present = set(inspect(conn).get_table_names())
    return {
        t.name: int(conn.execute(select(func.count()).select_from(t)).scalar_one())
        for t in schema.metadata.sorted_tables
        if t.name in present
    }


@contextlib.asynccontextmanager
async def _engine(url: URL, which: str) -> AsyncIterator[AsyncEngine]:
    """An engine on ``url`` that has connected once, disposed of after."""
    engine = create_async_engine(url)
    try:
        try:
            async with engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
        except (OSError, SQLAlchemyError) as error:
            reason = getattr(error, "orig", None) or error
            raise CopyError(f"{which} {url.render_as_string()}: cannot connect: {reason}") from None
        yield engine
    finally:
        await engine.dispose()


async def _refuse_a_hall(conn: AsyncConnection, url: URL) -> None:
    holding = {t: n for t, n in (await conn.run_sync(_counts)).items() if n}
    if holding:
        rows = ", ".join(f"{n} {t}" for t, n in holding.items())
        raise CopyError(
            f"the target {url.render_as_string(hide_password=True)} already holds a hall "
            f"({rows}): copy into a new, empty database (nothing was written)"
        )


async def _copy_table(source: AsyncConnection, target: AsyncConnection, table: Table) -> int:
    copied = 0
    order = list(table.primary_key.columns)
    result = await source.stream(select(table).order_by(*order))
    async for batch in result.partitions(BATCH):
        await target.execute(insert(table), [dict(row._mapping) for row in batch])
        copied += len(batch)
    return copied


async def _fix_sequences(target: AsyncConnection) -> None:
    """PostgreSQL's sequences set past the ids copied (the chat's and moderation's ids have them)."""
    columns = await target.execute(
        text(
            "SELECT table_name, column_name FROM information_schema.columns "
            "WHERE table_schema = current_schema() AND column_default LIKE 'nextval(%'"
        )
    )
    for table, column in columns.all():
        await target.execute(
            text(
                f"SELECT setval(pg_get_serial_sequence(:table, :column), "
                f'coalesce(max("{column}"), 0) + 1, false) FROM "{table}"'
            ),
            {"table": table, "column": column},
        )


async def _copy(source_url: URL, target_url: URL, secret: Secret | None) -> Copied:
    async with (
        _engine(source_url, "the source") as source,
        _engine(target_url, "the target") as target,
    ):
        try:
            return await _copy_between(source, target, source_url, target_url, secret)
        except DBAPIError as error:
            raise CopyError(f"the copy failed, nothing was written: {error.orig}") from None


async def _copy_between(
    source: AsyncEngine,
    target: AsyncEngine,
    source_url: URL,
    target_url: URL,
    secret: Secret | None,
) -> Copied:
    async with source.connect() as conn:
        revision = await conn.run_sync(_revision)
    if revision != _head():
        raise CopyError(
            f"the source is at schema {revision or 'none'}, not {_head()}: start the hall "
            "on it once (that upgrades it), then copy"
        )
    async with target.connect() as conn:
        await _refuse_a_hall(conn, target_url)
    # The target's schema is the hall's own: migrated as the hall does at its start.
    migrated = await Store.open(target_url.render_as_string(hide_password=False))
    await migrated.close()
    rows: dict[str, int] = {}
    async with source.connect() as read, target.begin() as write:
        if source_url.get_backend_name() == "postgresql":
            # One snapshot of a database that may still be written to (a SQLite source is a
            # snapshot file already).
            await read.execution_options(isolation_level="REPEATABLE READ")
        await read.begin()
        await _refuse_a_hall(write, target_url)  # not filled meanwhile
        for table in schema.metadata.sorted_tables:
            rows[table.name] = await _copy_table(read, write, table)
        source_secret = await read.scalar(
            select(schema.meta.c.value).where(schema.meta.c.key == SECRET)
        )
        added = source_secret is None and secret is not None
        if added and secret is not None:
            await write.execute(insert(schema.meta).values(key=SECRET, value=secret.value))
            rows[schema.meta.name] += 1
        if target_url.get_backend_name() == "postgresql":
            await _fix_sequences(write)
        there = await write.run_sync(_counts)
        want = await read.run_sync(_counts)
        want[schema.meta.name] += int(added)  # the secret row the source kept in a file
        if there != rows or want != rows:
            raise CopyError(
                f"the row counts differ after the copy (source {want}, target {there}): "
                "nothing was written"
            )
    if source_secret is not None:
        return Copied(rows, "the source database")
    return Copied(rows, secret.found_in if secret is not None else None)


async def copy_database(source: str, target: str, secret_file: Path | None = None) -> Copied:
    """Copy the hall in ``source`` into the empty database ``target`` (both URLs)."""
    source_url = parse_url(source, "the source")
    target_url = parse_url(target, "the target")
    secret = None
    if secret_file is not None:
        try:
            secret = Secret(read_secret_file(secret_file), str(secret_file))
        except ValueError as error:
            raise CopyError(str(error)) from None
    if source_url.get_backend_name() != "sqlite":
        return await _copy(source_url, target_url, secret)
    file = Path(source_url.database or "")
    if not file.is_file():
        raise CopyError(f"the source: there is no database at {file}")
    beside = file.parent / "secret"  # as in the hall's data folder
    if secret is None and beside.is_file() and beside.read_text().strip():
        secret = Secret(beside.read_text().strip(), str(beside))
    with tempfile.TemporaryDirectory(prefix="dominohall-copy-") as folder:
        # A snapshot, upgraded on the side to the schema the hall runs on.
        snapshot = Path(folder) / "hall.db"
        await asyncio.to_thread(back_up, file, snapshot)
        snapshot_url = f"sqlite+aiosqlite:///{snapshot}"
        try:
            upgraded = await Store.open(snapshot_url)
        except CommandError as error:  # a database of a newer hall than this one
            raise CopyError(f"the source's schema cannot be read by this hall: {error}") from None
        await upgraded.close()
        return await _copy(make_url(snapshot_url), target_url, secret)


@click.command("copy-database")
@click.option(
    "--from",
    "source",
    required=True,
    metavar="URL",
    help="The hall's database, e.g. sqlite+aiosqlite:///data/dominohall.db (stop the hall "
    "first, or copy from a `dominohall backup` file).",
)
@click.option(
    "--to",
    "target",
    required=True,
    metavar="URL",
    help="An empty database, e.g. postgresql+asyncpg://hall@127.0.0.1/hall (refused if it "
    "already holds a hall).",
)
@click.option(
    "--secret-file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="The hall's secret to keep in the target (default: the `secret` file beside a SQLite "
    "source, as in its data folder).",
)
def copy_database_command(source: str, target: str, secret_file: Path | None) -> None:
    """Copy a hall's database into another, e.g. SQLite into PostgreSQL: every table resumes.

    The target is migrated to the hall's schema, then everything is copied in one transaction
    and the rows counted. Writes the hall makes after the copy are not in it: stop the hall
    first (docs/deploy.md).
    """
    copied = asyncio.run(copy_database(source, target, secret_file))
    first = [t for t in SHOWN if t in copied.rows]
    rest = sorted(t for t in copied.rows if t not in SHOWN)
    counts = ", ".join(f"{copied.rows[t]} {t}" for t in first + rest)
    shown = [make_url(url).render_as_string(hide_password=True) for url in (source, target)]
    click.echo(f"Copied {shown[0]} into {shown[1]}: {counts}.")
    if make_url(target).get_backend_name() == "sqlite":
        click.echo("On SQLite the hall signs with its data folder's secret: copy that file too.")
    elif copied.secret is not None:
        click.echo(f"The hall's secret came from {copied.secret}: cookies and emailed links work.")
    else:
        click.echo(
            "No secret found: the hall makes a new one, so links already emailed stop working "
            "(give --secret-file DATA/secret to keep the old one)."
        )
