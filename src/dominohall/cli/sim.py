"""``dominohall sim``: a tournament of computer players, with win rates and decision times."""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from functools import partial

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..bots.match import GameResult, seating, series_game, tally
from ..rules import ConfigError
from .choices import bot_names, preset_named


@click.command()
@click.option("--preset", "preset_id", default="draw", show_default=True, help="The rule set.")
@click.option(
    "--bots",
    "bots_text",
    default="hard,normal",
    show_default=True,
    help="One bot per seat, comma-separated (partnership: two names play as pairs).",
)
@click.option("--games", default=100, show_default=True, type=click.IntRange(min=1))
@click.option("--seed", default=0, show_default=True, type=int, help="Seeds the deals and bots.")
@click.option(
    "--first-game",
    default=0,
    show_default=True,
    type=click.IntRange(min=0),
    help="Play the series from this game on: a long series run in parts, whose wins add up.",
)
@click.option("--target", type=int, default=None, help="Play to this score (the preset's choices).")
@click.option("--workers", default=1, show_default=True, type=click.IntRange(min=1))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of a table.")
def sim(
    preset_id: str,
    bots_text: str,
    games: int,
    seed: int,
    first_game: int,
    target: int | None,
    workers: int,
    as_json: bool,
) -> None:
    """Play GAMES whole games between bots, seats rotating over the same deals.

    Prints each bot's game win rate with its 95% Wilson interval, its average points per hand,
    and its decision time (mean and 95th percentile).
    """
    preset = preset_named(preset_id)
    bots = bot_names(bots_text, "--bots")
    try:
        seating(preset, bots)
        if target is not None:
            preset.check_target(target)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    play = partial(series_game, preset_id, bots, seed, target=target)
    err = Console(stderr=True)
    with Progress(
        TextColumn(f"{preset_id} {','.join(bots)}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeRemainingColumn(),
        console=err,
        transient=as_json,
    ) as progress:
        task = progress.add_task("games", total=games)
        results: list[GameResult] = []
        for result in _run(play, range(first_game, first_game + games), workers):
            results.append(result)
            progress.advance(task)
    report = {
        "games": games,
        "first_game": first_game,
        "bots": [t.as_dict() for t in tally(preset, results)],
    }
    if as_json:
        click.echo(json.dumps(report))
    else:
        _print_table(preset_id, report)


def _run(play: partial[GameResult], games: range, workers: int) -> Iterator[GameResult]:
    if workers == 1:
        for g in games:
            yield play(g)
        return
    # Spawned, not forked: the progress bar runs a thread, and forking a threaded process can
    # leave a lock held in the child.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        # In game order, so the tally is the same whatever the number of workers.
        yield from pool.map(play, games, chunksize=4)


def _print_table(preset_id: str, report: dict[str, object]) -> None:
    table = Table(title=f"{preset_id}: {report['games']} games")
    for column in (
        "bot",
        "wins",
        "win rate",
        "95% interval",
        "points/hand",
        "decision mean",
        "p95",
    ):
        table.add_column(column, justify="left" if column == "bot" else "right")
    rows = report["bots"]
    assert isinstance(rows, list)
    for row in rows:
        low, high = row["ci95"]
        table.add_row(
            row["name"],
            str(row["wins"]),
            f"{row['win_rate']:.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{row['points_per_hand']:.2f}",
            f"{row['decision_mean_s'] * 1000:.1f} ms",
            f"{row['decision_p95_s'] * 1000:.1f} ms",
        )
    Console().print(table)
