"""``dominohall play``: a person plays in the terminal against computer players.

The person sits at seat 0 (in partnership, with seat 2 as partner). Each turn shows the layout,
the open ends, the person's tiles and the moves they may make, numbered; each play's score and the
running scores are shown as they happen.
"""

from __future__ import annotations

import random

import click
from rich.console import Console

from ..bots import Bot, make_bot
from ..rules import ConfigError, Game, Hand, Layout, Move, MoveKind, Preset, tile_name
from ..rules.layout import NO_ARM
from ..rules.text import hand_end_text
from ..rules.tiles import HIGH, LOW, OTHER_HALF, tiles_of
from .choices import bot_names, preset_named


def face(a: int, b: int) -> str:
    return f"[{a}|{b}]"


def layout_lines(layout: Layout) -> list[str]:
    """The layout as text: the line through the lead, then any spinner's arms, one a line."""
    if layout.lead_tile < 0:
        return ["(no tile down yet)"]
    arms: dict[int, list[tuple[int, int]]] = {}
    for tile, arm, match in layout.chain:
        if arm != NO_ARM:
            arms.setdefault(arm, []).append((match, OTHER_HALF[tile][match]))
    first = layout.lead_first
    lead = face(first, OTHER_HALF[layout.lead_tile][first])
    left = "".join(face(other, match) for match, other in reversed(arms.get(0, [])))
    right = "".join(face(match, other) for match, other in arms.get(1, []))
    lines = [f"{left}{lead}{right}"]
    for arm in sorted(a for a in arms if a >= 2):
        lines.append(f"arm {arm}: " + "".join(face(m, o) for m, o in arms[arm]))
    return lines


def describe(move: Move, layout: Layout) -> str:
    if move.kind is MoveKind.PASS:
        return "pass"
    if move.kind is MoveKind.DRAW:
        return "draw from the boneyard"
    if move.arm is None:
        return f"lead {tile_name(move.tile, move.first)}"
    return f"{tile_name(move.tile)} on arm {move.arm} (end {layout.tips[move.arm]})"


class Table:
    """One terminal game: the person at seat 0, bots elsewhere."""

    def __init__(self, preset: Preset, bots: list[Bot | None], game: Game, console: Console):
        self.preset = preset
        self.bots = bots
        self.game = game
        self.console = console
        self.names = ["You"] + [
            f"Seat {s} ({b.name}{', your partner' if preset.side_of(s) == 0 else ''})"
            for s, b in enumerate(bots)
            if b is not None
        ]

    def run(self) -> None:
        game = self.game
        while not game.finished:
            hand = game.start_hand()
            self.console.rule(f"Hand {len(game.hands)}: {self.names[hand.leader]} leads")
            while hand.result is None:
                self.turn(hand)
            game.end_hand()
            self.hand_over(hand)
            if not game.finished:
                click.prompt("Press Enter for the next hand", default="", show_default=False)
        assert game.winner is not None
        if self.preset.teams:
            team = "your team" if self.preset.side_of(game.winner) == 0 else "the other team"
            self.console.print(f"[bold]The game is over: {team} wins.[/bold]")
        else:
            self.console.print(f"[bold]The game is over: {self.names[game.winner]} won.[/bold]")

    def turn(self, hand: Hand) -> None:
        seat = hand.turn
        bot = self.bots[seat]
        before = list(hand.scores)
        layout = hand.layout
        if bot is None:
            self.show(hand)
            moves = hand.legal_moves()
            for i, move in enumerate(moves, 1):
                self.console.print(f"  {i}. {describe(move, layout)}")
            choice = click.prompt(
                "Your move",
                type=click.IntRange(1, len(moves)),
                default=1 if len(moves) == 1 else None,
            )
            move = moves[choice - 1]
            text = describe(move, layout)
        else:
            move = bot.choose(hand.view(seat))
            text = describe(move, layout)
        hand.push(move)
        if move.kind is MoveKind.DRAW:
            drawn = hand.history[-1][1].tile
            text = f"draws {tile_name(drawn)}" if bot is None else "draws a tile"
        side = self.preset.side_of(seat)
        scored = hand.scores[side] - before[side]
        note = f"  [green]scores {scored}[/green]" if scored and hand.result is None else ""
        self.console.print(f"{self.names[seat]}: {text}{note}")

    def show(self, hand: Hand) -> None:
        console = self.console
        console.print()
        for line in layout_lines(hand.layout):
            console.print(line, highlight=False)
        if hand.layout.lead_tile >= 0:
            ends = ", ".join(f"arm {k}: {hand.layout.tips[k]}" for k in hand.layout.open_arms)
            count = (
                f" (count {hand.layout.count_total()})" if self.preset.count.value != "none" else ""
            )
            console.print(f"Open ends: {ends}{count}")
        others = ", ".join(
            f"{self.names[s]} {hand.holdings[s].bit_count()} tiles"
            for s in range(hand.players)
            if s != 0
        )
        boneyard = f", boneyard {hand.drawable}" if self.preset.drawing.value != "none" else ""
        console.print(f"{others}{boneyard}. Scores: {self.scores_text(hand.scores)}")
        mine = " ".join(face(HIGH[t], LOW[t]) for t in tiles_of(hand.holdings[0]))
        console.print(f"Your tiles: {mine}", highlight=False)

    def scores_text(self, scores: list[int]) -> str:
        if self.preset.teams:
            return f"your team {scores[0]}, the other team {scores[1]}"
        return ", ".join(f"{self.names[s]} {scores[s]}" for s in range(len(scores)))

    def hand_over(self, hand: Hand) -> None:
        result = hand.result
        assert result is not None
        console = self.console
        text = hand_end_text(result, self.names)
        console.print(f"{text[0].upper()}{text[1:]}.")
        for s in range(hand.players):
            tiles = " ".join(face(HIGH[t], LOW[t]) for t in tiles_of(hand.holdings[s])) or "-"
            console.print(f"  {self.names[s]}: {tiles}", highlight=False)
        console.print(f"Scores: {self.scores_text(hand.scores)}")


@click.command()
@click.option("--preset", "preset_id", default="draw", show_default=True, help="The rule set.")
@click.option(
    "--opponents",
    default="normal",
    show_default=True,
    help="The bots at seats 1, 2, ... (comma-separated; partnership: one name, or three).",
)
@click.option("--target", type=int, default=None, help="Play to this score (the preset's choices).")
@click.option(
    "--seed", type=int, default=None, help="Seed the deals (and bots) for a replayable game."
)
def play(preset_id: str, opponents: str, target: int | None, seed: int | None) -> None:
    """Play a game in the terminal against computer players."""
    preset = preset_named(preset_id)
    names = bot_names(opponents, "--opponents")
    if preset.teams and len(names) == 1:
        names = names * 3
    rng = random.Random(seed) if seed is not None else None
    try:
        game = Game(preset, 1 + len(names), target, rng=rng)
    except ConfigError as exc:
        raise click.UsageError(str(exc)) from None
    bots: list[Bot | None] = [None]
    for s, name in enumerate(names, 1):
        bots.append(make_bot(name, seed=None if seed is None else seed * 10 + s))
    Table(preset, bots, game, Console(highlight=False)).run()
