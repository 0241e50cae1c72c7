"""The arena's pairing round with many players waiting (issue 25): 1,000 by default.

Each sample is one round of ``Arena.pair`` over ``--waiting`` entrants who wait together, with
scores spread as a tournament's middle has them, last opponents set and waiting times drawn
between 0 and 60 s (the windows widen with waiting). Beyond ``EXACT_UP_TO`` waiting the round
matches blocks of rank (``hall/tournament/arena.py``). Prints one JSON object: the seconds of a
round at the 50th and 99th percentile, the mean, and the players paired each round.

    nice -n 10 .venv/bin/python bench/arena_pairing.py --waiting 1000 --rounds 30
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from dominohall.hall.tournament.arena import Arena


def one_round(waiting: int, rng: random.Random) -> tuple[float, int]:
    arena = Arena(0.0, 3600.0)
    for i in range(waiting):
        entrant = arena.join(f"p{i}", rng.gauss(1500, 250), -rng.uniform(0, 60))
        entrant.score = int(rng.expovariate(1 / 8))
    names = list(arena.entrants)
    for name in names:
        arena.entrants[name].last_opponents = frozenset({rng.choice(names)}) - {name}
    began = time.perf_counter()
    pairs = arena.pair(0.0)
    return time.perf_counter() - began, 2 * len(pairs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--waiting", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    times, paired = [], []
    for _ in range(args.rounds):
        seconds, players = one_round(args.waiting, rng)
        times.append(seconds)
        paired.append(players)
    times.sort()
    print(
        json.dumps(
            {
                "waiting": args.waiting,
                "rounds": args.rounds,
                "p50_s": round(times[len(times) // 2], 4),
                "p99_s": round(times[min(len(times) - 1, int(len(times) * 0.99))], 4),
                "mean_s": round(statistics.fmean(times), 4),
                "paired_mean": statistics.fmean(paired),
            }
        )
    )


if __name__ == "__main__":
    main()
