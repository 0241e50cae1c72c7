"""``dominohall bench engine``: hands and moves per second of the rules engine."""

from __future__ import annotations

import json
import random
import time

import click

from ...rules import ConfigError, Game, get_preset


def engine_bench(preset_id: str, players: int, seconds: float, seed: int = 1) -> dict[str, float]:
    """Random legal moves from a fresh deal to the end of a hand, over and over.

    Goes through ``legal_moves()`` and ``push()`` exactly as the bots do.
    """
    preset = get_preset(preset_id)
    rng = random.Random(seed)
    # The move is picked by 32 random bits modulo the number of moves: as uniform as makes no
    # difference (off by under one part in 200 million) and cheaper than scaling a float, so
    # that the figure is more the engine's and less the picking's.
    bits = rng.getrandbits
    hands = moves = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while True:
        for _ in range(50):
            hand = Game(preset, players, rng=rng).start_hand()
            while hand.result is None:
                legal = hand.legal_moves()
                hand.push(legal[bits(32) % len(legal)])
            moves += len(hand.history)
            hands += 1
        if time.perf_counter() >= deadline:
            break
    elapsed = time.perf_counter() - start
    return {
        "preset": preset_id,  # type: ignore[dict-item]
        "players": players,
        "seconds": round(elapsed, 3),
        "hands": hands,
        "moves": moves,
        "hands_per_s": round(hands / elapsed, 1),
        "moves_per_s": round(moves / elapsed, 1),
    }


@click.command()
@click.option("--preset", "preset_id", default="block", show_default=True)
@click.option("--players", type=int, default=2, show_default=True)
@click.option("--seconds", type=float, default=5.0, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def engine(preset_id: str, players: int, seconds: float, seed: int, as_json: bool) -> None:
    """Hands and moves per second of the rules engine on one core."""
    try:
        get_preset(preset_id).check_players(players)
    except ConfigError as exc:
        raise click.BadParameter(str(exc)) from None
    result = engine_bench(preset_id, players, seconds, seed)
    if as_json:
        click.echo(json.dumps(result))
    else:
        click.echo(
            f"{preset_id}, {players} players: {result['hands_per_s']:,.0f} hands/s, "
            f"{result['moves_per_s']:,.0f} moves/s ({result['hands']} hands in {result['seconds']} s)"
        )
