"""Two Hard configurations against each other on first hands (the peer matches' format, our
engine only, so much cheaper): deal ``d`` twice, A in either seat (team). Prints A's share of
hands won (ties half) with its 95% interval and A's net points per hand.

Run: ``.venv/bin/python bench/hard_versions.py block --hands 200 --a budget=0.25 --b samples=100``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from typing import Any

from dominohall.bots import make_bot
from dominohall.bots.hard import HardBot
from dominohall.bots.match import wilson
from dominohall.rules import PRESETS, Game


def bot(spec: str, seed: int) -> Any:
    """``normal``, ``easy`` or Hard's keyword arguments as ``key=value,key=value``."""
    if spec in ("normal", "easy"):
        return make_bot(spec, seed=seed)
    kwargs: dict[str, Any] = {}
    for part in filter(None, spec.split(",")):
        key, value = part.split("=")
        kwargs[key] = value if value.isalpha() else float(value) if "." in value else int(value)
    return HardBot(seed=seed, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("preset", choices=("block", "partnership", "draw", "all-fives"))
    parser.add_argument("--hands", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--a", default="")
    parser.add_argument("--b", default="samples=100")
    args = parser.parse_args()
    preset = PRESETS[args.preset]
    players = 4 if preset.teams else 2
    score = 0.0
    nets = []
    times: dict[str, list[float]] = {"a": [], "b": []}
    for h in range(args.hands):
        deal, a_side = divmod(h, 2)
        hand = Game(preset, players, rng=random.Random(f"v:{args.seed}:{deal}")).start_hand()
        bots = [
            bot(args.a if preset.side_of(s) == a_side else args.b, args.seed * 1000 + h * 4 + s)
            for s in range(players)
        ]
        while hand.result is None:
            seat = hand.turn
            view = hand.view(seat)
            started = time.process_time()
            move = bots[seat].choose(view)
            if len(view.legal_moves()) > 1:
                times["a" if preset.side_of(seat) == a_side else "b"].append(
                    time.process_time() - started
                )
            hand.push(move)
        assert hand.result is not None
        winner = hand.result.winner
        score += 0.5 if winner is None else float(preset.side_of(winner) == a_side)
        nets.append(hand.points[a_side] - hand.points[1 - a_side])
    low, high = wilson(score, args.hands)
    print(
        json.dumps(
            {
                "preset": args.preset,
                "a": args.a,
                "b": args.b,
                "hands": args.hands,
                "a_rate": round(score / args.hands, 4),
                "ci95": [round(low, 3), round(high, 3)],
                "a_net": round(statistics.fmean(nets), 2),
                "a_cpu_s": round(statistics.fmean(times["a"]), 4),
                "b_cpu_s": round(statistics.fmean(times["b"]), 4),
            }
        )
    )


if __name__ == "__main__":
    main()
