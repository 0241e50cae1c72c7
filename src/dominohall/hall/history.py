"""Finished games into the games' index (``store/history.py``), read from each table's log.

The index is filled after the fact, not in the finishing transaction: ``Indexer.catch_up`` finds
every finished game not indexed yet (a hall that just finished one, a database from before the
index, a crash between the two) and adds it. Readers call it before they read, so what they read
is never behind the games stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Iterable
from typing import Any

from ..store import Store
from ..store.history import GameEntry, SeatEntry
from .events import SeatKind
from .ratings import placings
from .table import TableState

log = logging.getLogger(__name__)
BATCH = 500  # games indexed per query of those not indexed yet


def entry_of(
    table_id: str, events: Iterable[tuple[int, float, dict[str, Any]]], finished_at: float
) -> GameEntry | None:
    """A finished table's log as its index entry (None: no game was played there)."""
    events = list(events)
    state = TableState.replay(table_id, events)
    game, result = state.game, state.result
    if game is None or result is None:
        return None
    preset = game.preset
    side = preset.side_of
    timeouts = Counter(
        body["seat"]
        for _, _, body in events
        if body["kind"] == "move" and body.get("by") == "timer"
    )
    started_at = next((at for _, at, body in events if body["kind"] == "started"), None)
    winner = result["winner"]
    scores = game.seat_scores()
    places = placings(scores, winner, result["placed_last"], teams=preset.teams)
    won_out: Counter[int] = Counter()
    won_block: Counter[int] = Counter()
    for hand in game.hands:
        r = hand.result
        if r is None or r.cut_short or r.winner is None:
            continue
        (won_block if r.blocked else won_out)[side(r.winner)] += 1
    seats = []
    for seat in state.seats:
        s = seat.seat
        person = seat.player is not None
        seats.append(
            SeatEntry(
                seat=s,
                player_id=seat.player,
                name=seat.name if person and seat.name else (seat.bot or "computer").capitalize(),
                bot=seat.bot if seat.kind is SeatKind.BOT else None,
                won=winner is not None and places[s] == 1 and seat.out is None,
                place=places[s],
                score=scores[s],
                hands_out=won_out[side(s)],
                hands_block=won_block[side(s)],
                timeouts=timeouts[s],
                out=seat.out,
            )
        )
    return GameEntry(
        table_id=table_id,
        preset=preset.id,
        target=game.target,
        private=state.options.private,
        ranked=state.options.ranked,
        reason=result["reason"],
        winner=winner,
        hands=len(game.hands),
        started_at=started_at,
        finished_at=finished_at,
        seats=tuple(seats),
        speed=state.options.speed,
        timer=state.options.timer,
    )


class Indexer:
    """Keeps the games' index up with the games stored (one catch-up at a time)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = asyncio.Lock()
        self._broken: set[str] = set()  # games whose log would not index (logged once each)

    async def catch_up(self) -> int:
        """Index every finished game not indexed yet; returns how many were added.

        A game whose log cannot be indexed (a bug, a damaged log) is logged and left out, so that
        it never keeps the histories and profiles of everyone else from being read."""
        added = 0
        async with self._lock:
            while True:
                batch = await self.store.history.unindexed(BATCH + len(self._broken))
                pending = [(t, at) for t, at in batch if t not in self._broken]
                if not pending:
                    return added
                for table_id, finished_at in pending:
                    try:
                        entry = entry_of(table_id, await self.store.events(table_id), finished_at)
                        if entry is None:
                            raise ValueError("a game record, but no game in the table's log")
                    except Exception:  # noqa: BLE001 - one game's log; the rest go on
                        log.exception("game %s cannot be indexed", table_id)
                        self._broken.add(table_id)
                        continue
                    added += await self.store.history.add(entry)

    async def game(self, table_id: str) -> GameEntry | None:
        """A finished game's entry (None: no such game, or not over)."""
        found = await self.store.history.game(table_id)
        if found is None and len(table_id) <= 32:
            await self.catch_up()
            found = await self.store.history.game(table_id)
        return found
