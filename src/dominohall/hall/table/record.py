"""A finished table as its game record (DESIGN.md, ``rules/record.py``): the moves, the players'
names, how the game ended at the table, the computer players' takeovers and its time."""

from __future__ import annotations

from typing import Any

from ...rules.record import record_of
from .state import State


def record(state: State) -> dict[str, Any] | None:
    """The game as a game record, or None when no game was played."""
    if state.game is None:
        return None
    return record_of(
        state.game,
        state.player_names(),
        result=state.result,
        takeovers=list(state.takeovers),
        time=record_time(state),
    )


def record_time(state: State) -> dict[str, Any] | None:
    """The record's ``time``: the table's timer and speed, the game's start, end, duration."""
    if state.started_at is None:
        return None
    return {
        "timer": state.options.timer,
        "speed": state.options.speed,
        "started": state.started_at,
        "finished": state.finished_at,
        "duration": None if state.finished_at is None else state.finished_at - state.started_at,
    }
