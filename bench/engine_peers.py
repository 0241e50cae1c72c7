"""Our engine side by side with the two public engines: random hands per second, interleaved.

Each round runs, for ``--seconds`` each: our ``dominohall bench engine`` loop for 2-player block,
OpenSpiel's ``python_block_dominoes`` (the deal dealt by its chance nodes, then uniformly random
legal actions to the end), our loop for partnership, and abw333's ``dominoes`` (``Game.new`` with
6-6 first, then random valid moves to the end). Rounds are interleaved so that a busy machine
slows all alike; the median of the rounds is reported with the ratios. Needs the peers venv::

    nice -n 19 /work/peers-venv/bin/python bench/engine_peers.py --rounds 3 --seconds 3
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Callable

from dominohall.cli.bench.engine import engine_bench


def openspiel_block(seconds: float) -> float:
    import pyspiel
    from open_spiel.python.games import block_dominoes  # noqa: F401  (registers the game)

    game = pyspiel.load_game("python_block_dominoes")
    rng = random.Random(1)
    hands = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
        hands += 1
    return hands / (time.perf_counter() - start)


def abw_partnership(seconds: float) -> float:
    import dominoes

    random.seed(1)
    six = dominoes.Domino(6, 6)
    hands = 0
    deadline = time.perf_counter() + seconds
    start = time.perf_counter()
    while time.perf_counter() < deadline:
        game = dominoes.Game.new(starting_domino=six)
        while game.result is None:
            game.make_move(*random.choice(game.valid_moves))
        hands += 1
    return hands / (time.perf_counter() - start)


def ours(preset: str, players: int) -> Callable[[float], float]:
    return lambda seconds: engine_bench(preset, players, seconds)["hands_per_s"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=3.0)
    args = parser.parse_args()
    runs: dict[str, Callable[[float], float]] = {
        "ours_block": ours("block", 2),
        "openspiel_block": openspiel_block,
        "ours_partnership": ours("partnership", 4),
        "abw333_partnership": abw_partnership,
    }
    rates: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.rounds):
        for name, run in runs.items():
            rates[name].append(run(args.seconds))
    median = {name: statistics.median(values) for name, values in rates.items()}
    print(
        json.dumps(
            {
                "hands_per_s": {k: round(v) for k, v in median.items()},
                "rounds": {k: [round(x) for x in v] for k, v in rates.items()},
                "block_ratio": round(median["ours_block"] / median["openspiel_block"], 2),
                "partnership_ratio": round(
                    median["ours_partnership"] / median["abw333_partnership"], 2
                ),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
