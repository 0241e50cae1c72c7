"""``dominohall bot``: a computer player over JSON lines, for other programs and for analysis.

Each line on standard input is a game record (DESIGN.md), usually stopping mid-hand, with one more
field ``"seat"``. Each gets one line on standard output: the move the bot makes for that seat, in
record notation (a draw is ``{"seat": s, "draw": true}``: the bot cannot know which tile comes), or
``{"error": "..."}`` saying what was wrong with the line. The bot decides from that seat's view
only; the other hands in the record never reach it.
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from ..bots import BOT_NAMES, make_bot
from ..bots.hard import DEFAULT_BUDGET, HardBot
from ..rules import DominoError, View
from ..rules.record import parse_record, replay


class PositionError(ValueError):
    """A line that is a record, but not a position where the seat is to move."""


def position(obj: object) -> View:
    """The view of the record's ``seat`` at the end of the record, where it must be its turn."""
    if not isinstance(obj, dict):
        raise PositionError("a line is a JSON object: a game record with a 'seat'")
    seat = obj.get("seat")
    if not isinstance(seat, int) or isinstance(seat, bool):
        raise PositionError(f"'seat' must be the integer seat to move, not {seat!r}")
    record = parse_record({k: v for k, v in obj.items() if k != "seat"})
    if not 0 <= seat < record.player_count:
        raise PositionError(f"seat {seat} is not a seat of a {record.player_count}-player game")
    game = replay(record)
    hand = game.hand
    if game.finished:
        raise PositionError("the game is over: there is no move to make")
    if hand is None or hand.result is not None:
        raise PositionError("no hand is in play: the record must include the current hand's deal")
    if hand.turn != seat:
        raise PositionError(f"it is seat {hand.turn}'s turn, not seat {seat}'s")
    return hand.view(seat)


def answer(line: str, bot_name: str, seed: int | None, budget: float) -> dict[str, Any]:
    """The reply to one input line (a move, or an error)."""
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"not JSON: {exc}"}
    try:
        view = position(obj)
    except (PositionError, DominoError) as exc:
        return {"error": str(exc)}
    # A fresh bot per line: the same line with the same seed gets the same answer.
    if bot_name == "hard":
        move = HardBot(seed=seed, budget=budget, time_cap=2 * budget).choose(view)
    else:
        move = make_bot(bot_name, seed=seed).choose(view)
    assert view.seat is not None
    return move.to_json(view.seat)


@click.command()
@click.option("--bot", "bot_name", type=click.Choice(BOT_NAMES), default="hard", show_default=True)
@click.option("--seed", type=int, default=None, help="Seeds the bot (same seed, same answers).")
@click.option(
    "--budget",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_BUDGET,
    show_default=True,
    help="Seconds Hard thinks per move: more is stronger. Spent as work at a fixed rate, so a"
    " seed gives the same answers; a busy machine stops it at twice that by the clock.",
)
def bot(bot_name: str, seed: int | None, budget: float) -> None:
    """Answer JSON lines: each a game record plus "seat"; each reply the move for that seat."""
    for line in sys.stdin:
        if not line.strip():
            continue
        click.echo(json.dumps(answer(line, bot_name, seed, budget)))
        sys.stdout.flush()
