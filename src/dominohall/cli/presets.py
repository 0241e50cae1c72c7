"""``dominohall presets``: the rule sets, their options, names and targets."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.table import Table

from ..rules import PRESET_LIST


@click.command()
@click.option("--json", "as_json", is_flag=True, help="Print the presets as JSON.")
def presets(as_json: bool) -> None:
    """List every preset with its options."""
    if as_json:
        click.echo(json.dumps([p.as_dict() for p in PRESET_LIST], indent=2))
        return
    table = Table(title="Domino Hall presets")
    for column in ("id", "name", "drawing", "layout", "count", "bonus", "game end", "targets"):
        table.add_column(column)
    for p in PRESET_LIST:
        count = (
            p.count.value
            if p.count.value in ("none", "headers")
            else (f"{p.count.value} ({p.count_value.value})")
        )
        targets = ", ".join(
            f"[bold]{t}[/bold]" if t == p.default_target else str(t) for t in p.targets
        )
        game_end = p.game_end.value + (f", floor {p.floor}" if p.floor is not None else "")
        table.add_row(
            p.id, p.name, p.drawing.value, p.layout.value, count, p.bonus.value, game_end, targets
        )
    Console().print(table)
