"""``dominohall mod``: the operator's moderation from the command line (docs/moderation.md).

Each command writes to the hall's database, with its entry in the moderation log; the running
hall processes follow that log and apply the action to their live sockets within a second or two
(``hall/moderating.py``), so this works on a machine with no hall process at all. Only this
command sets who the operators are.
"""

from __future__ import annotations

import asyncio
import datetime
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from ..hall.clock import SystemClock
from ..hall.errors import HallError
from ..hall.moderating import DEFAULT_TIME_OUT_MINUTES, Moderating, ReportSeen
from ..store import Store
from .serve import database_url_for, where_the_hall_keeps_its_data

T = TypeVar("T")


def _run(data: Path, database_url: str | None, work: Callable[[Moderating], Awaitable[T]]) -> T:
    """``work`` on the hall's database; a refusal (``HallError``) said as a clear error."""

    async def run() -> T:
        store = await Store.open(database_url or database_url_for(data))
        try:
            return await work(Moderating(store, SystemClock()))
        finally:
            await store.close()

    try:
        return asyncio.run(run())
    except HallError as error:
        raise click.ClickException(error.message) from None


def _when(at: float) -> str:
    return datetime.datetime.fromtimestamp(at, datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def _name(player: Any) -> str:
    if player is None:
        return "(deleted)"
    return (
        f"{player.name} (@{player.username})" if player.username else f"{player.name} ({player.id})"
    )


_database = where_the_hall_keeps_its_data(
    "The hall's data folder (as given to `dominohall serve`).",
    "The hall's database URL, when it is not the SQLite file in the data folder.",
)
_reason = click.option("--reason", required=True, help="Why (kept in the moderation log).")
_by = click.option(
    "--by",
    required=True,
    help="The operator acting: the username of an operator (kept in the moderation log).",
)


async def _by_id(mod: Moderating, by: str) -> str:
    return (await mod.operator(by)).id


@click.group()
def mod() -> None:
    """The operator's moderation: reports, time-outs, bans, names, operators, the log.

    PLAYER is a username, or a player id (a guest has only an id: the reports show it).
    """


@mod.command()
@_database
def reports(data: Path, database_url: str | None) -> None:
    """The open reports, newest first."""
    found = _run(data, database_url, lambda m: m.reports())
    if not found:
        click.echo("No open reports.")
    for seen in found:
        r = seen.report
        line = f" (line {r.line_id})" if r.line_id is not None else ""
        click.echo(
            f"#{r.id} {_when(r.at)}: {_name(seen.reporter)} reported {_name(seen.reported)}{line}: "
            f"{r.reason}"
        )


@mod.command()
@click.argument("report_id", type=int)
@_database
def context(report_id: int, data: Path, database_url: str | None) -> None:
    """The chat lines around a reported message (the reported one marked >)."""
    seen: ReportSeen = _run(data, database_url, lambda m: m.report(report_id))
    r = seen.report
    click.echo(f"Report #{r.id} of {_name(seen.reported)} by {_name(seen.reporter)}: {r.reason}")
    if r.closed_at is not None:
        click.echo(f"(closed {_when(r.closed_at)})")
    if r.line_id is None:
        click.echo("It names no chat line: the player as a whole.")
    elif not r.context:
        click.echo("The reported line is no longer kept.")
    for line in r.context:
        mark = ">" if line.id == r.line_id else " "
        said = line.text if line.text is not None else f"[{line.phrase}]"
        name = seen.names.get(line.player_id or "", "Deleted player")
        click.echo(f"{mark} {_when(line.at)} {name}: {said}")


@mod.command()
@click.argument("player")
@click.option(
    "--minutes",
    type=click.FloatRange(0, None),
    default=DEFAULT_TIME_OUT_MINUTES,
    show_default=True,
    help="How long (0 lifts a time-out under way).",
)
@_reason
@_by
@_database
def timeout(
    player: str, minutes: float, reason: str, by: str, data: Path, database_url: str | None
) -> None:
    """Take PLAYER out of every chat for a while."""

    async def work(m: Moderating) -> str:
        actor = await _by_id(m, by)
        subject = await m.player(player)
        done = await m.time_out(subject.id, minutes, actor, reason)
        return f"{_name(subject)} is out of every chat until {_when(done.until)}."

    click.echo(_run(data, database_url, work))


@mod.command()
@click.argument("player")
@click.option(
    "--address",
    "addresses",
    multiple=True,
    help="An address the ban covers too (repeat for more): no guest or new account from it.",
)
@click.option(
    "--with-addresses",
    is_flag=True,
    help="Cover the addresses PLAYER signed in from in the last 30 days too (none to type).",
)
@_reason
@_by
@_database
def ban(
    player: str,
    addresses: tuple[str, ...],
    with_addresses: bool,
    reason: str,
    by: str,
    data: Path,
    database_url: str | None,
) -> None:
    """Ban PLAYER: no sign-in, play, chat or watching as itself; its sessions end, its sockets
    close and its tables are handed over as when a player leaves."""

    async def work(m: Moderating) -> str:
        actor = await _by_id(m, by)
        subject = await m.player(player)
        done = await m.ban(subject.id, actor, reason, addresses, with_addresses=with_addresses)
        covered = f" and {', '.join(sorted(done.addresses))}" if done.addresses else ""
        return f"{_name(subject)}{covered} banned (ban #{done.id})."

    click.echo(_run(data, database_url, work))


@mod.command()
@click.argument("player")
@_reason
@_by
@_database
def unban(player: str, reason: str, by: str, data: Path, database_url: str | None) -> None:
    """Lift PLAYER's bans (their addresses' too)."""

    async def work(m: Moderating) -> str:
        actor = await _by_id(m, by)
        subject = await m.player(player)
        await m.unban(subject.id, actor, reason)
        return f"{_name(subject)} is no longer banned."

    click.echo(_run(data, database_url, work))


@mod.command()
@click.argument("player")
@click.argument("new_name")
@_reason
@_by
@_database
def rename(
    player: str, new_name: str, reason: str, by: str, data: Path, database_url: str | None
) -> None:
    """Reset PLAYER's name (an offensive one) to NEW_NAME; guests too, by their id."""
    from ..web.accounts import check_name  # the one rule of names

    async def work(m: Moderating) -> str:
        actor = await _by_id(m, by)
        subject = await m.player(player)
        renamed = await m.rename(subject.id, check_name(new_name), actor, reason)
        return f"{_name(subject)} is now named {renamed.name!r}."

    click.echo(_run(data, database_url, work))


@mod.command("close-report")
@click.argument("report_id", type=int)
@_reason
@_by
@_database
def close_report(
    report_id: int, reason: str, by: str, data: Path, database_url: str | None
) -> None:
    """Close a report (dealt with, or unfounded: the reason says which)."""

    async def work(m: Moderating) -> str:
        actor = await _by_id(m, by)
        await m.close_report(report_id, actor, reason)
        return f"Report #{report_id} closed."

    click.echo(_run(data, database_url, work))


@mod.command("log")
@click.option("--limit", type=click.IntRange(1, 10_000), default=50, show_default=True)
@_database
def log_command(limit: int, data: Path, database_url: str | None) -> None:
    """The moderation log, newest first: who did what to whom, and why."""

    async def work(m: Moderating) -> list[str]:
        lines = []
        for a in await m.log(limit=limit):
            subject = await m.name_of(a.subject_id) if a.subject_id else ""
            why = f": {a.reason}" if a.reason else ""
            detail = f" {a.detail}" if a.detail else ""
            actor = await m.name_of(a.actor_id)
            lines.append(f"{a.id} {_when(a.at)} {actor} {a.action} {subject}{detail}{why}")
        return lines

    lines = _run(data, database_url, work)
    click.echo("\n".join(lines) if lines else "The log is empty.")


@mod.group()
def operators() -> None:
    """Who may moderate (set here only, never by a player)."""


@operators.command("add")
@click.argument("username")
@_database
def add_operator(username: str, data: Path, database_url: str | None) -> None:
    """USERNAME may moderate (an account: a guest has no password)."""
    player = _run(data, database_url, lambda m: m.add_operator(username))
    click.echo(f"{_name(player)} is an operator.")


@operators.command("remove")
@click.argument("username")
@_database
def remove_operator(username: str, data: Path, database_url: str | None) -> None:
    player = _run(data, database_url, lambda m: m.remove_operator(username))
    click.echo(f"{_name(player)} is no longer an operator.")


@operators.command("list")
@_database
def list_operators(data: Path, database_url: str | None) -> None:
    found = _run(data, database_url, lambda m: m.operators())
    click.echo("\n".join(_name(p) for p in found) if found else "No operators.")
