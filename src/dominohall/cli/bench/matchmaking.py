"""``dominohall bench matchmaking``: how long seekers wait and how close their pairings are.

Accounts and their ratings are written through the store directly (no password hashing, no
sign-up limits); seekers arrive at random over ``--seconds`` of simulated time and the queue pairs
every half second, as the hall does. Waits are simulated seconds; the queue's own cost is measured
on this machine's clock.
"""

from __future__ import annotations

import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

import click

from ...hall.matchmaking import MemoryQueue, Pairing
from ...hall.ratings import MU, SIGMA, Skill, Speed
from ...store import Store
from ...store.ratings import StoredRating
from ...store.store import StoredPlayer

TICK = 0.5  # seconds between two pairing rounds
# (pool, players) a seeker picks, with weights: two-player games are the most asked for.
CHOICES = [
    ("draw", 2, 5),
    ("draw", 3, 1),
    ("draw", 4, 1),
    ("block", 2, 2),
    ("all-fives", 2, 2),
    ("partnership", 4, 1),
]


async def _accounts(folder: Path, count: int, rng: random.Random) -> dict[str, int]:
    """Make ``count`` accounts with a settled draw rating (used for every pool here), by id."""
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'bench.db'}")
    shown = {}
    try:
        for i in range(count):
            pid = f"bench{i:05d}"
            await store.add_player(StoredPlayer(pid, f"Bench {i}", pid, None))
            mu = rng.gauss(MU, SIGMA)  # a spread of about 250 shown points either side
            await store.ratings.put(StoredRating(pid, "draw", "real-time", mu, 2.0, 50, 0.0))
            shown[pid] = Skill(mu, 2.0, 50).shown
    finally:
        await store.close()
    return shown


def run(seekers: int, seconds: float, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        ratings = asyncio.run(_accounts(Path(folder), seekers, rng))
        accounts_s = time.perf_counter() - started
    arrivals = sorted((rng.uniform(0, seconds), pid) for pid in ratings)
    weights = [w for *_, w in CHOICES]
    queue = MemoryQueue()
    pairings: list[Pairing] = []
    costs = []
    now, i = 0.0, 0
    while i < len(arrivals) or any(queue.status(b).waiting for b in queue.buckets()):
        while i < len(arrivals) and arrivals[i][0] <= now:
            at, pid = arrivals[i]
            pool, players, _ = rng.choices(CHOICES, weights)[0]
            queue.join(
                pid, pool, players, speed=Speed.REAL_TIME, ranked=True, rating=ratings[pid], now=at
            )
            i += 1
        tick = time.perf_counter()
        made = queue.pair(now)
        costs.append(time.perf_counter() - tick)
        for p in made:
            queue.game_over(p.id)  # nobody comes back in this run
        pairings.extend(made)
        now += TICK
        if now > seconds + 3600:
            break  # a few left who can never be seated (too few in their pool)
    waits = sorted(p.at - s.joined_at for p in pairings for s in p.seekers)
    return {
        "seekers": seekers,
        "seated": len(waits),
        "games": len(pairings),
        "wait_p50_s": statistics.median(waits),
        "wait_p99_s": waits[min(len(waits) - 1, int(len(waits) * 0.99))],
        "mean_rating_gap": statistics.fmean(p.rating_gap for p in pairings),
        "pair_round_mean_ms": statistics.fmean(costs) * 1000,
        "pair_round_max_ms": max(costs) * 1000,
        "accounts_s": accounts_s,
    }


@click.command()
@click.option("--seekers", type=click.IntRange(2, 1_000_000), default=5000, show_default=True)
@click.option("--seconds", type=click.FloatRange(min=1), default=60.0, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def matchmaking(seekers: int, seconds: float, seed: int, as_json: bool) -> None:
    """Pairing latency (join to game, p50/p99) and the mean rating gap of ranked pairings."""
    result = run(seekers, seconds, seed)
    if as_json:
        click.echo(json.dumps(result))
        return
    click.echo(
        f"{result['seated']} of {seekers} seekers seated in {result['games']} games "
        f"(arriving over {seconds:g} s)\n"
        f"wait from join to pairing: p50 {result['wait_p50_s']:.1f} s, "
        f"p99 {result['wait_p99_s']:.1f} s (simulated, pairing every {TICK} s)\n"
        f"mean rating gap in a game: {result['mean_rating_gap']:.0f} points\n"
        f"a pairing round costs {result['pair_round_mean_ms']:.2f} ms on average, "
        f"{result['pair_round_max_ms']:.2f} ms at most"
        f" ({result['accounts_s']:.1f} s to make the accounts)"
    )
