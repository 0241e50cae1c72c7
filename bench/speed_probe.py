"""How fast this machine runs Python just now: a fixed piece of pure-Python work timed every
half second (its CPU time, so waiting for a core does not count), a line a probe: the wall time
and the milliseconds it took.

A shared virtual machine's speed drifts by a fifth or more from minute to minute, so CPU per
move measured in two runs minutes apart differs by as much as a change being measured. Run this
beside ``dominohall bench server`` (it takes about 1% of a core) and divide the bench's CPU per
move by the probe's median over the bench's window (it says on standard error when its window
opens) to compare runs in the same unit:

    .venv/bin/python bench/speed_probe.py --seconds 400 > probes.txt &
    .venv/bin/dominohall bench server ... --json > run.json
"""

from __future__ import annotations

import argparse
import time

WORK = 200_000  # additions a probe: about 5-10 ms of CPU


def probe() -> float:
    """Milliseconds of CPU the fixed work took."""
    start = time.process_time()
    total = 0
    for i in range(WORK):
        total += i
    assert total == WORK * (WORK - 1) // 2
    return (time.process_time() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--every", type=float, default=0.5)
    args = parser.parse_args()
    end = time.time() + args.seconds
    while time.time() < end:
        print(f"{time.time():.3f} {probe():.3f}", flush=True)
        time.sleep(args.every)


if __name__ == "__main__":
    main()
