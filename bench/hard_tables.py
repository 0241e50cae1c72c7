"""How long a Hard decision waits for a worker when many Hard tables play at once (the hall's
``Thinkers`` pool, the path the hall uses).

``--tables`` tables each loop: take a position where Hard is to move (from seeded Draw hands
played by Normal), ask the pool for Hard's move, then pause ``--pause`` seconds (the hall's bot
delay plus the others' moves) before the next. Prints, over ``--seconds``, the decisions made
and the time from asking to the answer (mean, p50, p95, max), beside the decision's own time
measured alone first: the difference is the wait for a worker.

Run: ``nice -n 19 .venv/bin/python bench/hard_tables.py --tables 50 --seconds 60``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

from dominohall.bots.hard import DEFAULT_BUDGET, HardBot
from dominohall.bots.match import percentile
from dominohall.bots.normal import NormalBot
from dominohall.hall.computer import Thinkers
from dominohall.rules import Game, View


def positions(count: int, seed: int) -> list[View]:
    """Views of Hard's seat at real choices, from Draw hands played by Normal."""
    rng = random.Random(seed)
    out: list[View] = []
    normal = NormalBot()
    while len(out) < count:
        hand = Game("draw", 2, rng=random.Random(rng.getrandbits(32))).start_hand()
        while hand.result is None:
            view = hand.view(hand.turn)
            if len(view.legal_moves()) > 1 and rng.random() < 0.3:
                out.append(view)
            hand.push(normal.choose(view))
    return out[:count]


async def table(
    thinkers: Thinkers, views: list[View], pause: float, until: float, waits: list[float]
) -> None:
    rng = random.Random(len(waits))
    await asyncio.sleep(rng.random() * pause)  # tables do not all start at once
    while time.perf_counter() < until:
        view = views[rng.randrange(len(views))]
        asked = time.perf_counter()
        await thinkers.choose("hard", view)
        waits.append(time.perf_counter() - asked)
        await asyncio.sleep(pause)


async def run(args: argparse.Namespace, views: list[View]) -> list[float]:
    thinkers = Thinkers(workers=args.workers, hard_budget=args.budget)
    await thinkers.choose("hard", views[0])  # start the worker before the clock
    waits: list[float] = []
    until = time.perf_counter() + args.seconds
    try:
        await asyncio.gather(
            *(table(thinkers, views, args.pause, until, waits) for _ in range(args.tables))
        )
    finally:
        thinkers.close()
    return waits


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--pause", type=float, default=3.0, help="seconds between a table's asks")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--budget", type=float, default=DEFAULT_BUDGET)
    args = parser.parse_args()
    views = positions(40, 1)
    alone = []
    for i, view in enumerate(views):
        started = time.perf_counter()
        HardBot(seed=i, budget=args.budget, time_cap=2 * args.budget).choose(view)
        alone.append(time.perf_counter() - started)
    waits = sorted(asyncio.run(run(args, views)))

    def stats(values: list[float]) -> dict[str, float]:
        values = sorted(values)
        return {
            "mean_s": round(statistics.fmean(values), 3),
            "p50_s": round(percentile(values, 0.5), 3),
            "p95_s": round(percentile(values, 0.95), 3),
            "max_s": round(values[-1], 3),
        }

    print(
        json.dumps(
            {
                "tables": args.tables,
                "workers": args.workers,
                "budget_s": args.budget,
                "pause_s": args.pause,
                "decisions": len(waits),
                "decision_alone": stats(alone),
                "ask_to_answer": stats(waits),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
