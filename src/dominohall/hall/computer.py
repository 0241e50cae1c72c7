"""Computer players at a table: Easy and Normal choose at once; Hard thinks in a worker process."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import secrets
import threading
from concurrent.futures import ProcessPoolExecutor
from multiprocessing.connection import Connection

from ..bots import make_bot
from ..rules import Hand, Move, View

log = logging.getLogger("dominohall.hall")


def bot_for(level: str, hard_budget: float | None = None) -> object:
    """The computer player of ``level``; Normal while Hard is not installed yet."""
    try:
        return make_bot(level, seed=secrets.randbits(32), budget=hard_budget)
    except ImportError:
        log.warning("the %s computer player is not available: Normal plays instead", level)
        return make_bot("normal")


def choose(level: str, view: View, hard_budget: float | None = None) -> Move:
    """Run in a worker process: the move a computer player of ``level`` makes from ``view``."""
    return bot_for(level, hard_budget).choose(view)  # type: ignore[attr-defined, no-any-return]


def whole_turn(hand: Hand, seat: int, level: str) -> list[Move]:
    """The moves a computer player makes for ``seat``'s whole turn (draws, then a play or pass).

    The hand is left as it was: each move is tried on it and taken back.
    """
    bot = bot_for(level)
    made: list[Move] = []
    try:
        while not hand.over and hand.turn == seat:
            hand.push(bot.choose(hand.view(seat)))  # type: ignore[attr-defined]
            made.append(hand.history[-1][1])  # a draw with its tile, as the log needs it
    finally:
        for _ in made:
            hand.pop()
    return made


def exit_with_the_server(lifeline: Connection) -> None:
    """In each worker, at its start: exit as soon as the server's end of ``lifeline`` closes.

    Only the server holds that end, and the system closes it whatever way the server ends (even
    ``kill -9``), so a worker never outlives it; the forkserver and the resource tracker then
    follow, as nothing holds them any more.
    """

    def watch() -> None:
        with contextlib.suppress(EOFError, OSError):
            lifeline.recv_bytes()  # nothing is ever sent: this returns when the server is gone
        os._exit(0)

    threading.Thread(target=watch, name="lifeline", daemon=True).start()


class Thinkers:
    """A pool of worker processes for the computer players that search (Hard)."""

    def __init__(self, workers: int = 1, hard_budget: float | None = None) -> None:
        self.workers = workers
        self.hard_budget = hard_budget  # Hard's seconds a decision (None: its default)
        self._pool: ProcessPoolExecutor | None = None
        self._lifeline: Connection | None = None  # the server's end: closing it ends the workers

    async def choose(self, level: str, view: View) -> Move:
        if self._pool is None:
            context = multiprocessing.get_context("forkserver")
            workers_end, self._lifeline = context.Pipe(duplex=False)
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=context,
                initializer=exit_with_the_server,
                initargs=(workers_end,),
            )
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._pool, choose, level, view, self.hard_budget)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._lifeline is not None:
            self._lifeline.close()
            self._lifeline = None
