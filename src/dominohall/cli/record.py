"""``dominohall record``: check, show and generate game records."""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import click

from ..rules import Game, Move, MoveKind, tile_name
from ..rules.record import (
    RecordFormatError,
    RecordMoveError,
    check_record,
    dumps,
    loads,
    new_game,
    parse_record,
    record_of,
    replay_steps,
)
from ..rules.text import hand_end_text, layout_text


@click.group()
def record() -> None:
    """Game records: check, show, random."""


def _read(path: str) -> object:
    try:
        data = Path(path).read_bytes() if path != "-" else sys.stdin.buffer.read()
        text = data.decode("utf-8")
    except FileNotFoundError:
        raise RecordFormatError(f"{path}: no such file") from None
    except UnicodeDecodeError:
        raise RecordFormatError(f"{path}: not UTF-8 text") from None
    return loads(text)


@record.command()
@click.argument("file")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
def check(file: str, as_json: bool) -> None:
    """Check a record by the rules. Exit status: 0 legal, 1 an illegal move, 2 not a record."""
    try:
        report = check_record(_read(file))
    except RecordFormatError as exc:
        if as_json:
            click.echo(json.dumps({"ok": False, "error": str(exc)}))
        else:
            click.echo(f"not a game record: {exc}", err=True)
        sys.exit(2)
    if as_json:
        click.echo(json.dumps(report))
    elif not report["ok"]:
        click.echo(f"illegal: hand {report['hand']}, move {report['move']}: {report['error']}")
    else:
        _print_summary(report)
    sys.exit(0 if report["ok"] else 1)


def _print_summary(report: dict[str, object]) -> None:
    hands = report["hands"]
    assert isinstance(hands, list)
    click.echo(f"legal {report['preset']} record, {len(hands)} hand(s)")
    for i, h in enumerate(hands):
        if h["winner"] is None:
            how = "blocked, no sole winner" if h["blocked"] else "unfinished"
        else:
            how = f"seat {h['winner']} {'wins the blocked hand' if h['blocked'] else 'goes out'}"
            how += f", bonus {h['bonus']}"
        click.echo(f"  hand {i}: {how}; points {h['points']}")
    state = "finished" if report["finished"] else "not finished"
    winner = f", seat {report['winner']} wins" if report["winner"] is not None else ""
    click.echo(f"scores {report['scores']}; game {state}{winner}")


@record.command()
@click.argument("file")
def show(file: str) -> None:
    """Print a game hand by hand: each move, what it scored, and the layout."""
    try:
        rec = parse_record(_read(file))
    except RecordFormatError as exc:
        click.echo(f"not a game record: {exc}", err=True)
        sys.exit(2)
    names = [str(p) for p in rec.players]
    click.echo(f"{rec.preset.name} ({rec.preset.id}) to {rec.target}: {', '.join(names)}")
    game = new_game(rec)
    before: list[int] = []
    try:
        for step in replay_steps(rec, game):
            hand = step.hand
            if step.move is None:
                click.echo(f"\nHand {step.hand_index + 1}: {names[hand.leader]} leads")
                for seat, mask in enumerate(hand.dealt):
                    tiles = " ".join(tile_name(t) for t in sorted_tiles(mask))
                    click.echo(f"  {names[seat]}: {tiles}")
            else:
                assert step.seat is not None
                gained = [a - b for a, b in zip(hand.scores, before, strict=True)]
                teams = rec.preset.teams
                click.echo(
                    f"  {names[step.seat]}: {_describe(step.move)}{_gains(gained, names, teams)}"
                )
                if hand.result is not None:
                    click.echo(layout_text(hand.layout, indent="  "))
                    click.echo(f"  {hand_end_text(hand.result, names)}")
                    click.echo(f"  scores: {game.seat_scores()}")
            before = list(hand.scores)
    except RecordMoveError as exc:  # an illegal move: show where, then stop
        click.echo(f"  ! {exc}")
        sys.exit(1)
    except RecordFormatError as exc:
        click.echo(f"not a game record: {exc}", err=True)
        sys.exit(2)
    if game.hand is not None and game.hand.result is None:
        click.echo(layout_text(game.hand.layout, indent="  "))  # the hand so far
    if game.finished and game.winner is not None:
        click.echo(f"\n{names[game.winner]} wins the game.")


def sorted_tiles(mask: int) -> list[int]:
    from ..rules import RANK, tiles_of

    return sorted(tiles_of(mask), key=RANK.__getitem__, reverse=True)


def _describe(move: Move) -> str:
    if move.kind is MoveKind.DRAW:
        return f"draws {tile_name(move.tile)}"
    if move.kind is MoveKind.PASS:
        return "passes"
    if move.arm is None:
        return f"leads {tile_name(move.tile, move.first)}"
    return f"plays {tile_name(move.tile)} on arm {move.arm}"


def _gains(gained: list[int], names: list[str], teams: bool) -> str:
    parts = [
        f"{'team ' if teams else ''}{names[i] if not teams else i}{g:+d}"
        for i, g in enumerate(gained)
        if g
    ]
    return f"  ({', '.join(parts)})" if parts else ""


@record.command("random")
@click.option("--preset", "preset_id", required=True, help="Preset id, e.g. draw.")
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--seed", type=int, default=None, help="Seed for the deals and moves.")
@click.option("--target", type=int, default=None, help="Target (default: the preset's).")
def random_record(preset_id: str, players: int, seed: int | None, target: int | None) -> None:
    """Play a complete game of random legal moves and print its record."""
    from ..rules import ConfigError

    rng = random.Random(seed)
    try:
        game = Game(preset_id, players, target, rng=rng)
    except ConfigError as exc:
        raise click.BadParameter(str(exc)) from None
    while not game.finished:
        hand = game.start_hand()
        while not hand.over:
            hand.push(rng.choice(hand.legal_moves()))
        game.end_hand()
    names = [f"Player {i + 1}" for i in range(players)]
    click.echo(dumps(record_of(game, names)), nl=False)


__all__ = ["record"]
