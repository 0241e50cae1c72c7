"""How late the hall's deadlines fire on a real event loop: the lateness distribution, and how many
deadlines the loop woke before their time (each a timer the hall lost before its scheduler set
the alarm again on such a wake-up).

    .venv/bin/python bench/deadlines.py --deadlines 5000 --seconds 5 --loop uvloop
    .venv/bin/python bench/deadlines.py --loop asyncio --json

``--busy MS`` keeps the loop busy for MS milliseconds every 10 ms (a hall at work), in which
case deadlines fire later by up to that much.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time

import uvloop

from dominohall.hall import SystemClock
from dominohall.hall.clock import Callback, Timer
from dominohall.hall.deadlines import DeadlineKey, Due, LoopScheduler


class WatchedClock(SystemClock):
    """The real clock, noting each moment whose callback the loop ran before it."""

    def __init__(self) -> None:
        super().__init__()
        self.woken_early: set[float] = set()

    def call_at(self, when: float, callback: Callback) -> Timer:
        async def watched() -> None:
            if self.now() < when:
                self.woken_early.add(when)
            await callback()

        return super().call_at(when, watched)


async def run(deadlines: int, seconds: float, busy_ms: float, seed: int) -> dict[str, object]:
    clock = WatchedClock()
    late: list[float] = []
    expected: dict[DeadlineKey, float] = {}
    done = asyncio.Event()

    async def fire(key: DeadlineKey) -> None:
        late.append(clock.now() - expected[key])
        if len(late) == deadlines:
            done.set()

    scheduler = LoopScheduler(clock, fire)
    rng = random.Random(seed)
    start = clock.now() + 0.2
    for n in range(deadlines):
        key = DeadlineKey(f"t{n}", Due.TURN)
        expected[key] = start + rng.uniform(0.0, seconds)
        scheduler.set(key, expected[key])

    async def keep_busy() -> None:
        while True:
            end = time.perf_counter() + busy_ms / 1000
            while time.perf_counter() < end:
                pass
            await asyncio.sleep(0.01)

    busy = asyncio.create_task(keep_busy()) if busy_ms > 0 else None
    await asyncio.wait_for(done.wait(), timeout=seconds + 30.0)
    if busy is not None:
        busy.cancel()
    ms = sorted(x * 1000 for x in late)

    def pct(p: float) -> float:
        return round(ms[min(len(ms) - 1, int(p / 100 * len(ms)))], 3)

    return {
        "deadlines": deadlines,
        "fired": len(ms),
        "early_fired": sum(x < 0 for x in ms),
        "woken_early": len(clock.woken_early),  # deadlines the hall lost before the scheduler
        "early_wakeups": scheduler.early_wakeups,
        "late_ms": {
            "min": round(ms[0], 3),
            "p50": pct(50),
            "p90": pct(90),
            "p99": pct(99),
            "p99.9": pct(99.9),
            "max": round(ms[-1], 3),
            "mean": round(statistics.fmean(ms), 3),
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deadlines", type=int, default=5000)
    parser.add_argument("--seconds", type=float, default=5.0, help="spread over this long")
    parser.add_argument("--loop", choices=["uvloop", "asyncio"], default="uvloop")
    parser.add_argument("--busy", type=float, default=0.0, metavar="MS")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    factory = uvloop.new_event_loop if args.loop == "uvloop" else asyncio.new_event_loop
    with asyncio.Runner(loop_factory=factory) as runner:
        result = runner.run(run(args.deadlines, args.seconds, args.busy, args.seed))
    result = {"loop": args.loop, "busy_ms": args.busy, **result}
    if args.json:
        print(json.dumps(result))
        return
    late = result["late_ms"]
    print(
        f"{args.loop}: {result['fired']} of {result['deadlines']} deadlines fired, "
        f"{result['early_fired']} before their time; the loop woke {result['woken_early']} "
        f"of them early ({result['early_wakeups']} early wake-ups in all, each set again)"
    )
    print("lateness ms: " + ", ".join(f"{k} {v}" for k, v in late.items()))  # type: ignore[union-attr]


if __name__ == "__main__":
    main()
