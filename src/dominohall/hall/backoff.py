"""Pauses between attempts at something that may be away for a while (Redis): doubling from
50 ms to 5 s, with jitter, so that processes that lost it together do not come back in step."""

from __future__ import annotations

import random

FIRST = 0.05  # seconds before the first retry, at most
MOST = 5.0  # seconds between two retries, at most


class Backoff:
    def __init__(self) -> None:
        self.tries = 0

    def next(self) -> float:
        """The pause before the next attempt (one more failed)."""
        self.tries += 1
        pause = min(MOST, FIRST * 2.0 ** min(self.tries, 10))
        return pause * random.uniform(0.5, 1.0)

    def reset(self) -> None:
        """It worked: the next failure pauses the least again."""
        self.tries = 0
