"""The stored shapes of a table's events: each kind written and read back as itself, older
shapes the log has held still read, and an unknown kind refused by name."""

from __future__ import annotations

import pytest

from dominohall.hall.events import (
    BotSeated,
    Created,
    Dealt,
    Joined,
    Moved,
    MovedBy,
    Out,
    OutReason,
    Ready,
    Rematch,
    RematchTable,
    Reminded,
    Removed,
    Resumed,
    SeatAtStart,
    SeatKind,
    Started,
    Vacation,
    from_body,
)
from dominohall.hall.options import Options
from dominohall.rules import Move
from dominohall.rules.tiles import parse_tile

SIX_SIX, ONE_TWO, THREE_FOUR = parse_tile("6-6"), parse_tile("1-2"), parse_tile("3-4")

EVENTS = [
    Created(
        Options.choose(preset="block", seats=3, timer="day", private=True),
        (
            SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"),
            SeatAtStart(SeatKind.EMPTY),
            SeatAtStart(SeatKind.BOT, None, "Hard", "hard"),
        ),
    ),
    Joined(1, "p_bob", "Bob"),
    BotSeated(1, "easy"),
    Removed(1),
    Started(),
    Dealt(1, (1 << SIX_SIX, 1 << ONE_TWO), (THREE_FOUR,), 0),
    Moved(0, 1, Move.lead(SIX_SIX)),
    Moved(1, 1, Move.draw(THREE_FOUR), MovedBy.FORCED),
    Moved(1, 1, Move.pass_(), MovedBy.TIMER),
    Resumed(42.5),
    Vacation(0, 1_800_000_000.0, 1_800_086_400.0),
    Reminded(1),
    Ready(0),
    Out(1, OutReason.DISCONNECTED),
    Rematch(0, True),
    RematchTable("t2"),
]


@pytest.mark.parametrize("event", EVENTS, ids=lambda e: type(e).__name__)
def test_each_event_is_read_back_from_its_stored_body_as_itself(event):
    body = event.to_body()
    assert body["kind"] == event.kind
    assert from_body(body) == event
    assert from_body(body).to_body() == body


def test_the_deal_is_stored_by_tile_name_so_the_log_reads_without_the_engines_numbering():
    body = Dealt(1, (1 << SIX_SIX, 1 << ONE_TWO), (THREE_FOUR,), 0).to_body()
    assert body["dealt"] == [["6-6"], ["2-1"]]
    assert body["boneyard"] == ["4-3"]


def test_a_move_stored_before_moves_said_who_made_them_was_the_players():
    body = Moved(0, 1, Move.lead(SIX_SIX)).to_body()
    del body["by"]
    assert from_body(body) == Moved(0, 1, Move.lead(SIX_SIX), MovedBy.PLAYER)


def test_an_unknown_kind_is_refused_by_name():
    with pytest.raises(ValueError, match="unknown event kind 'shuffled'"):
        from_body({"kind": "shuffled", "seat": 0})
