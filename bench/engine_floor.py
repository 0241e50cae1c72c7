"""The floor under `dominohall bench engine`: the same work with everything the engine adds taken out.

A line-layout hand (block or partnership) from a fresh deal to its end with random legal moves,
written as one inlined loop: no legality checks, no undo, no history, no scoring. What the engine
reaches is best read against this, on the same machine at the same time.

    .venv/bin/python bench/engine_floor.py --preset block --players 2 --seconds 5
"""

from __future__ import annotations

import argparse
import random
import time

from dominohall.rules import get_preset
from dominohall.rules.game import deal, forced_lead
from dominohall.rules.hand import TILES_IN
from dominohall.rules.tiles import BIT, HIGH, LOW, OTHER_HALF, SUIT


def one_hand(preset_players: tuple[object, int], rng: random.Random) -> int:
    preset, players = preset_players
    holdings, _ = deal(preset, players, rng)  # type: ignore[arg-type]
    leader, tile = forced_lead(preset, holdings)  # type: ignore[arg-type]
    holdings[leader] ^= BIT[tile]
    tips = [HIGH[tile], LOW[tile]]
    turn = (leader + 1) % players
    passes = 0
    moves = 1
    bits = rng.getrandbits  # picks as `dominohall bench engine` does
    while True:
        held = holdings[turn]
        legal = []
        for arm in (0, 1):
            fit = held & SUIT[tips[arm]]
            if fit:
                for t in TILES_IN[fit]:
                    legal.append((t, arm))
        moves += 1
        if legal:
            t, arm = legal[bits(32) % len(legal)]
            tips[arm] = OTHER_HALF[t][tips[arm]]
            held ^= BIT[t]
            holdings[turn] = held
            passes = 0
            if not held:
                return moves
        else:
            passes += 1
            if passes == players:
                return moves
        turn = (turn + 1) % players


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", default="block", choices=["block", "partnership"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    setup = (get_preset(args.preset), args.players)
    rng = random.Random(1)
    hands = moves = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for _ in range(100):
            moves += one_hand(setup, rng)
            hands += 1
    elapsed = time.perf_counter() - start
    print(
        f"floor, {args.preset}, {args.players} players: {hands / elapsed:,.0f} hands/s, "
        f"{moves / elapsed:,.0f} moves/s"
    )


if __name__ == "__main__":
    main()
