"""``dominohall backup``: a consistent copy of a hall's SQLite database, also while the hall runs."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import click
from sqlalchemy.engine import make_url

from .serve import database_url_for, where_the_hall_keeps_its_data


def database_file(url: str) -> Path:
    """The SQLite file a database URL names; ClickException for any other database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        raise click.ClickException(
            f"{parsed.get_backend_name()} is not SQLite: back this database up with its own tool "
            "(for PostgreSQL, pg_dump: pg_dump --format=custom --file=hall.dump DBNAME)"
        )
    if not parsed.database or parsed.database == ":memory:":
        raise click.ClickException(f"{url} names no database file")
    return Path(parsed.database)


def back_up(source: Path, target: Path) -> dict[str, int]:
    """Copy ``source`` to ``target`` with SQLite's online backup; the rows the copy holds.

    The copy is made in one step, inside one read transaction: a snapshot of the database at one
    moment (in WAL mode the hall's writes go on meanwhile). It is written beside ``target`` first
    and renamed into place, so ``target`` never holds half a copy.
    """
    if not source.is_file():
        raise click.ClickException(f"there is no database at {source}")
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    hall = sqlite3.connect(f"{source.resolve().as_uri()}?mode=ro", uri=True, timeout=30)
    copy = sqlite3.connect(partial)
    try:
        hall.backup(copy)  # pages=-1: every page in one step, so one consistent snapshot
        copy.execute("PRAGMA journal_mode=DELETE")  # one self-contained file, no -wal beside it
        if copy.execute("PRAGMA integrity_check").fetchone()[0] != "ok":
            raise click.ClickException("the copy failed SQLite's integrity check: try again")
        rows = {
            table: copy.execute(f'SELECT count(*) FROM "{table}"').fetchone()[0]
            for (table,) in copy.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            )
        }
    finally:
        copy.close()
        hall.close()
    os.replace(partial, target)
    return rows


@click.command()
@click.option(
    "--to",
    "target",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The file to write the copy to (refused if it exists).",
)
@where_the_hall_keeps_its_data(
    "The hall's data folder (as given to `dominohall serve`).",
    "The hall's database URL, when it is not the SQLite file in the data folder.",
    "--database",
)
def backup(target: Path, data: Path, database_url: str | None) -> None:
    """Copy the hall's database to FILE, safely while the hall runs (SQLite's online backup).

    To restore: stop the hall, put the copy in place of the database file (removing any
    -wal and -shm files beside it), start the hall.
    """
    source = database_file(database_url or database_url_for(data))
    if target.exists():
        raise click.ClickException(f"{target} exists: name a new file")
    rows = back_up(source, target)
    counts = ", ".join(
        f"{rows[t]} {t}" for t in ("tables", "events", "games", "players") if t in rows
    )
    click.echo(f"Copied {source} to {target} ({counts}).")
