"""Hard's decision time on one core: every decision Hard makes in seeded games against Normal.

Run: ``.venv/bin/python bench/bots_decision_time.py [--games N] [--budget SECONDS]``. Prints, per
preset, the mean, median, 95th percentile and slowest decision, over the decisions that were a
real choice (more than one legal move) and over all of them. A benchmark: it prints, never asserts.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dominohall.bots.hard import DEFAULT_BUDGET, HardBot
from dominohall.bots.match import percentile
from dominohall.bots.normal import NormalBot
from dominohall.rules import PRESETS, Game

PRESET_IDS = ("all-fives", "draw", "spinner-fives", "partnership", "cross-fives-threes")


def decision_times(preset_id: str, games: int, budget: float) -> tuple[list[float], list[float]]:
    preset = PRESETS[preset_id]
    players = 4 if preset.teams else 2
    choices: list[float] = []
    everything: list[float] = []
    for g in range(games):
        hard_seats = {g % 2, g % 2 + 2} if preset.teams else {g % 2}
        bots = [
            HardBot(seed=g, budget=budget) if s in hard_seats else NormalBot()
            for s in range(players)
        ]
        game = Game(preset, players, rng=random.Random(g))
        while not game.finished:
            hand = game.start_hand()
            while hand.result is None:
                seat = hand.turn
                view = hand.view(seat)
                started = time.perf_counter()
                move = bots[seat].choose(view)
                spent = time.perf_counter() - started
                if seat in hard_seats:
                    everything.append(spent)
                    if len(view.legal_moves()) > 1:
                        choices.append(spent)
                hand.push(move)
            game.end_hand()
    return choices, everything


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    args = parser.parse_args()
    print(f"Hard (budget={args.budget} s), {args.games} games per preset against Normal")
    print(f"{'preset':20} {'decisions':>9} {'mean ms':>8} {'median':>8} {'p95':>8} {'max':>8}")
    for preset_id in PRESET_IDS:
        choices, everything = decision_times(preset_id, args.games, args.budget)
        for label, times in (("choices", choices), ("all", everything)):
            times.sort()
            print(
                f"{preset_id + ' ' + label:20} {len(times):9d} "
                f"{statistics.fmean(times) * 1000:8.1f} {statistics.median(times) * 1000:8.1f} "
                f"{percentile(times, 0.95) * 1000:8.1f} {times[-1] * 1000:8.1f}"
            )


if __name__ == "__main__":
    main()
