"""Computer players at a table: Easy and Normal choose at once; Hard thinks in a worker process.

``ComputerPlayers`` wakes when a computer player's turn comes, waits a short natural delay, and
sends the table a ``ComputerTurn`` carrying the moves chosen here (the table knows no bots)
through the owner's own way in (``CommandPath.run_owned``: the computer players are a part of
the table's owner), as a person's move goes. ``turn_of`` is also the turn timer's autoplay.
"""

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
from typing import TYPE_CHECKING

from ..bots import Bot, make_bot
from ..bots.hard import DEFAULT_BUDGET
from ..rules import Move, View
from . import commands
from .events import SeatKind
from .table import State
from .table.deciding import chosen_turn

if TYPE_CHECKING:
    from .command_path import CommandPath
    from .rooms import Room

log = logging.getLogger("dominohall.hall")


def bot_for(level: str, hard_budget: float | None = None) -> Bot:
    """The computer player of ``level``; Normal while Hard is not installed yet."""
    try:
        return make_bot(level, seed=secrets.randbits(32), budget=hard_budget)
    except ImportError:
        log.warning("the %s computer player is not available: Normal plays instead", level)
        return make_bot("normal")


def turn_of(state: State, seat: int, level: str = "normal") -> tuple[Move, ...]:
    """The whole turn a computer player of ``level`` (Easy or Normal; Hard's is Normal's) makes
    at ``seat`` now (none: not its turn); Normal's is the turn timer's autoplay (RULES.md 6)."""
    bot = make_bot("normal" if level == "hard" else level, seed=secrets.randbits(32))
    return chosen_turn(state, seat, bot.choose)


def choose(level: str, view: View, hard_budget: float | None = None) -> Move:
    """Run in a worker process: the move a computer player of ``level`` makes from ``view``."""
    return bot_for(level, hard_budget).choose(view)


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


# The least a decision may be given when many wait (seconds): Hard still searches.
LEAST_BUDGET = 0.02


class Thinkers:
    """A pool of worker processes for the computer players that search (Hard).

    While the workers keep up, each decision gets Hard's whole budget. When decisions queue
    (many Hard tables at once), the budget is shared among those waiting: a decision asked for
    behind others gets a lighter search, so that a busy hall answers about as soon as a quiet
    one, a little less strongly, instead of making every table wait for the queue.
    """

    def __init__(self, workers: int = 1, hard_budget: float | None = None) -> None:
        self.workers = workers
        self.hard_budget = hard_budget  # Hard's seconds a decision (None: its default)
        self._pool: ProcessPoolExecutor | None = None
        self._lifeline: Connection | None = None  # the server's end: closing it ends the workers
        self.asked = 0  # decisions asked for and not answered yet

    def budget_now(self) -> float:
        """The budget of a decision asked for now (``asked`` counts it)."""
        full = DEFAULT_BUDGET if self.hard_budget is None else self.hard_budget
        waiting_per_worker = max(1.0, self.asked / self.workers)
        return max(min(full, LEAST_BUDGET), full / waiting_per_worker)

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
        self.asked += 1
        try:
            budget = self.budget_now()
            return await loop.run_in_executor(self._pool, choose, level, view, budget)
        finally:
            self.asked -= 1

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._lifeline is not None:
            self._lifeline.close()
            self._lifeline = None


class ComputerPlayers:
    """Plays for the computer players of every table, each table's in a task of its own."""

    def __init__(
        self, path: CommandPath, *, bot_delay: float, hard_budget: float | None = None
    ) -> None:
        self.path = path
        self.bot_delay = bot_delay
        self.thinkers = Thinkers(hard_budget=hard_budget)

    def wake(self, room: Room) -> None:
        """Start playing at the table if it is a computer player's turn and none is thinking."""
        turn = room.state.turn
        thinking = room.bot_task is not None and not room.bot_task.done()
        if turn is not None and room.state.seats[turn].kind is SeatKind.BOT and not thinking:
            room.bot_task = asyncio.create_task(self._turns(room))

    def close(self, rooms: list[Room]) -> None:
        for room in rooms:
            if room.bot_task is not None:
                room.bot_task.cancel()
        self.thinkers.close()

    async def _turns(self, room: Room) -> None:
        """Play for computer players while it is one's turn, after a short natural delay."""
        try:
            turn_key = None
            while True:
                # The table in memory changes only by applying committed events, all at once:
                # read between two awaits it is one whole version, and the ComputerTurn names
                # that version (a table that moved on meanwhile decides it into nothing).
                state = room.state
                turn, hand = state.turn, state.hand
                if turn is None or hand is None or state.seats[turn].kind is not SeatKind.BOT:
                    return
                key = (len(state.game.hands), turn, state.turn_since)  # type: ignore[union-attr]
                level = state.seats[turn].bot or "normal"
                view = hand.view(turn) if level == "hard" else None
                version = state.version
                if key != turn_key and self.bot_delay > 0:
                    await asyncio.sleep(self.bot_delay)
                turn_key = key
                moves: tuple[Move, ...] = ()
                if view is not None:  # Hard, in a worker process
                    try:
                        moves = (await self.thinkers.choose(level, view),)
                    except Exception:  # noqa: BLE001 - a broken worker must not stop the game
                        log.exception("Hard failed at table %s: Normal plays this turn", room.id)
                        self.thinkers.close()
                state = room.state
                if moves and state.version == version and not hand.is_legal(moves[0]):
                    moves = ()  # a chosen move that does not fit: Normal's turn instead
                if not moves and state.version == version:
                    moves = turn_of(state, turn, level)
                await self.path.run_owned(room, commands.ComputerTurn(turn, version, moves))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("computer player failed at table %s", room.id)
