"""A database written by milestone 1 (``fixtures/m1.sqlite``) loads and its tables resume.

Every later change of the schema or of the stored events must keep this passing: the migrations
upgrade the schema, and old events replay to the same tables (``fixtures/make_m1.py`` says how the
file was made and ``fixtures/m1.json`` what milestone 1's code said of each table).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from dominohall.hall import ManualClock
from dominohall.hall.table import Phase
from hall.helpers import ANN, BOB, CID, play_first, running_hall, whose_turn

pytestmark = pytest.mark.anyio
FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "m1.json").read_text())
DOWNTIME = 1000.0


def _facts(state: Any) -> dict[str, Any]:
    hand = state.hand
    return {
        "phase": state.phase.value,
        "seats": [[s.kind, s.player, s.name, s.bot, s.out] for s in state.seats],
        "hands": len(state.game.hands) if state.game else 0,
        "moves": len(hand.history) if hand else 0,
        "turn": state.turn,
        "scores": list(state.game.scores) if state.game else None,
        "timeouts": [s.timeouts for s in state.seats],
    }


@pytest.fixture
def old_hall(tmp_path: Path) -> Path:
    shutil.copy(FIXTURES / "m1.sqlite", tmp_path / "hall.db")
    return tmp_path


def _clock() -> ManualClock:
    """The hall comes back DOWNTIME seconds after milestone 1's hall stopped."""
    return ManualClock(EXPECTED["alive_at"] + DOWNTIME)


def _table(name: str) -> str:
    return str(EXPECTED["tables"][name]["id"])


async def test_every_table_loads_as_it_was(old_hall: Path) -> None:
    async with running_hall(old_hall, _clock()) as hall:
        for name, expected in EXPECTED["tables"].items():
            room = await hall.room(expected["id"])
            want = {k: v for k, v in expected.items() if k not in ("id", "turn_left")}
            assert _facts(room.state) == want, name
        guest = await hall.store.player(EXPECTED["guest"]["id"])
        assert guest is not None and guest.name == EXPECTED["guest"]["name"]
        assert await hall.store.record(_table("finished")) is not None


async def test_the_turn_resumes_with_the_time_it_had_left(old_hall: Path) -> None:
    clock = _clock()
    expected = EXPECTED["tables"]["mid_hand"]
    left = expected["turn_left"] - EXPECTED["alive_at"]  # the downtime is charged to no one
    async with running_hall(old_hall, clock) as hall:
        table = _table("mid_hand")
        await clock.advance(left - 1)
        state = (await hall.room(table)).state
        assert len(state.hand.history) == expected["moves"], "the timer fired before its time"
        await clock.advance(2)
        state = (await hall.room(table)).state
        assert len(state.hand.history) > expected["moves"], "the timer never fired"
        assert state.seats[expected["turn"]].timeouts == 1


async def test_play_goes_on_in_every_phase(old_hall: Path) -> None:
    async with running_hall(old_hall, _clock()) as hall:
        mid = _table("mid_hand")
        before = len((await hall.room(mid)).state.hand.history)
        await play_first(hall, mid, await whose_turn(hall, mid, [ANN, BOB]))
        assert len((await hall.room(mid)).state.hand.history) > before

        between = _table("between_hands")
        await hall.connect(between, CID)
        await hall.next_hand(CID, between)
        state = (await hall.room(between)).state
        assert state.phase is Phase.PLAYING and len(state.game.hands) == 2

        seating = _table("seating")
        assert await hall.join(BOB, seating, None) == 1


async def test_a_game_finished_before_the_index_is_indexed_on_the_first_read(
    old_hall: Path,
) -> None:
    from dominohall.hall.history import Indexer
    from dominohall.rules.record import check_record

    async with running_hall(old_hall, _clock()) as hall:
        table = _table("finished")
        assert await hall.store.history.unindexed() != []
        entry = await Indexer(hall.store).game(table)
        assert entry is not None and await hall.store.history.unindexed() == []
        record = await hall.store.record(table)
        report = check_record(record)
        assert [s.score for s in entry.seats] == report["scores"]
        assert entry.hands == len(report["hands"])
        # A forfeit: the table's result names the winner, not the rules.
        assert (entry.reason, entry.winner) == (
            record["result"]["reason"],
            record["result"]["winner"],
        )
        assert [s.won for s in entry.seats] == [s == entry.winner for s in range(len(entry.seats))]
