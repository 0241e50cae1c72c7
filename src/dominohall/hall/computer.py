"""Computer players at a table: Easy and Normal choose at once; Hard thinks in a worker process."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import secrets
from concurrent.futures import ProcessPoolExecutor

from ..bots import Bot, make_bot
from ..rules import Move, View

log = logging.getLogger("dominohall.hall")


def bot_for(level: str) -> Bot:
    """The computer player of ``level``; Normal while Hard is not installed yet."""
    try:
        return make_bot(level, seed=secrets.randbits(32))
    except ImportError:
        log.warning("the %s computer player is not available: Normal plays instead", level)
        return make_bot("normal")


def choose(level: str, view: View) -> Move:
    """Run in a worker process: the move a computer player of ``level`` makes from ``view``."""
    return bot_for(level).choose(view)


class Thinkers:
    """A pool of worker processes for the computer players that search (Hard)."""

    def __init__(self, workers: int = 1) -> None:
        self.workers = workers
        self._pool: ProcessPoolExecutor | None = None

    async def choose(self, level: str, view: View) -> Move:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            self._pool = ProcessPoolExecutor(max_workers=self.workers, mp_context=context)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose, level, view)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
