"""``dominohall tournament``: an operator's tournaments from the command line
(docs/tournaments.md): ``demo`` creates one with computer players entered, for a demonstration or
a load test. It writes to the hall's database; the running hall steps it within a few seconds."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import click

from ..hall.clock import SystemClock
from ..hall.errors import HallError
from ..hall.messages import Tournament
from ..hall.options import BotLevel, Options, capped
from ..hall.tournaments import Plan, Tournaments
from ..store import Store
from .serve import database_url_for, where_the_hall_keeps_its_data

_database = where_the_hall_keeps_its_data(
    "The hall's data folder (as given to `dominohall serve`).",
    "The hall's database URL, when it is not the SQLite file in the data folder.",
)


@click.group()
def tournament() -> None:
    """Tournaments (the operator's)."""


@tournament.command()
@_database
@click.option("--kind", type=click.Choice(["arena", "swiss"]), default="arena", show_default=True)
@click.option("--name", default="Demo tournament", show_default=True)
@click.option("--preset", default="draw", show_default=True)
@click.option("--entrants", type=click.IntRange(2, 500), default=16, show_default=True)
@click.option("--level", type=click.Choice([b.value for b in BotLevel]), default="normal")
@click.option("--minutes", type=int, default=10, show_default=True, help="An arena's length.")
@click.option("--rounds", type=int, default=3, show_default=True, help="A swiss' rounds.")
@click.option("--cap", type=int, default=None, help="Each game's cap in minutes (RULES.md 5).")
@click.option("--starts-in", type=int, default=0, help="Seconds until it starts.")
def demo(
    data: Path,
    database_url: str | None,
    kind: str,
    name: str,
    preset: str,
    entrants: int,
    level: str,
    minutes: int,
    rounds: int,
    cap: int | None,
    starts_in: int,
) -> None:
    """A tournament of computer players, entered as entrants; prints it as JSON."""

    async def run() -> Tournament:
        store = await Store.open(database_url or database_url_for(data))
        try:
            service = Tournaments(store.tournaments, None, None, SystemClock())
            options = capped(Options.choose(preset=preset), cap)
            plan = Plan(
                name,
                kind,
                options,
                service.clock.now() + starts_in,
                minutes=minutes if kind == "arena" else None,
                rounds=rounds if kind == "swiss" else None,
                pairs=options.preset == "partnership",
            )
            made = await service.create(None, plan)
            return await service.seat_computers(str(made["id"]), entrants, BotLevel(level))
        finally:
            await store.close()

    try:
        click.echo(json.dumps(asyncio.run(run())))
    except HallError as error:
        raise click.ClickException(error.message) from None
