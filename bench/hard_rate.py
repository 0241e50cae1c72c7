"""Hard's work rate: positions (playout moves and search nodes) per CPU second, per preset.

Hard spends its budget as work at ``hard.WORK_PER_SECOND``; this measures the real rate on this
machine (CPU time of one process), so that the constant can be set from it. Also prints deals a
decision and the CPU seconds a decision takes. Run: ``.venv/bin/python bench/hard_rate.py``.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from dominohall.bots.hard import HardBot
from dominohall.bots.match import percentile
from dominohall.bots.normal import NormalBot
from dominohall.rules import PRESETS, Game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--budget", type=float, default=None)
    parser.add_argument("--presets", default="block,draw,all-fives,partnership")
    args = parser.parse_args()
    for preset_id in args.presets.split(","):
        preset = PRESETS[preset_id]
        players = 4 if preset.teams else 2
        works, seconds, deals = [], [], []
        for g in range(args.games):
            hard = HardBot(seed=g) if args.budget is None else HardBot(seed=g, budget=args.budget)
            game = Game(preset, players, rng=random.Random(g))
            hand = game.start_hand()
            normal = NormalBot()
            while hand.result is None:
                view = hand.view(hand.turn)
                if hand.turn % 2 == g % 2 and len(view.legal_moves()) > 1:
                    hard.last_work = -1
                    started = time.process_time()
                    move = hard.choose(view)
                    spent = time.process_time() - started
                    if hard.last_work >= 0:
                        works.append(hard.last_work)
                        seconds.append(spent)
                        deals.append(hard.last_deals)
                else:
                    move = normal.choose(view)
                hand.push(move)
        rate = sum(works) / sum(seconds)
        seconds.sort()
        print(
            f"{preset_id:12} decisions {len(works):4}  work/s {rate:8.0f}  "
            f"deals mean {statistics.fmean(deals):6.1f}  "
            f"cpu s mean {statistics.fmean(seconds):.3f} p95 {percentile(seconds, 0.95):.3f} "
            f"max {seconds[-1]:.3f}"
        )


if __name__ == "__main__":
    main()
