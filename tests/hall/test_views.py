"""The JSON of a seat's view: the layout's arms and where they hang, and what stays hidden."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from dominohall.hall import Options, TableState
from dominohall.hall import commands as c
from dominohall.hall.end_choices import end_choices
from dominohall.hall.events import Created, Dealt, Joined, Moved, SeatAtStart, SeatKind
from dominohall.hall.layout_view import ShownLayout, layout_json
from dominohall.hall.seat_view import public_event
from dominohall.hall.table.happened import Happened
from dominohall.hall.views import state_for
from dominohall.rules import PRESETS, Game, Layout, LayoutKind, Move, parse_tile


def laid(kind: LayoutKind, lead: str, *plays: tuple[str, int]) -> Layout:
    layout = Layout(kind)
    a, _ = lead.split("-")
    layout.lead(parse_tile(lead), int(a))
    for tile, arm in plays:
        layout.place(parse_tile(tile), arm)
    return layout


def test_a_line_has_two_arms_from_the_lead():
    shown = layout_json(laid(LayoutKind.LINE, "4-6", ("6-6", 1), ("6-2", 1), ("4-1", 0)))
    assert shown["lead"] == {"tile": "4-6", "first": 4, "spinner": False}
    assert [(a["arm"], a["from"], a["end"]) for a in shown["arms"]] == [(0, None, 1), (1, None, 2)]
    assert shown["arms"][1]["tiles"] == [
        {"tile": "6-6", "facing": 6, "double": True},
        {"tile": "6-2", "facing": 6, "double": False},
    ]
    assert shown["open_ends"] == [{"arm": 0, "number": 1}, {"arm": 1, "number": 2}]
    assert [c["tile"] for c in shown["chain"]] == ["4-6", "6-6", "6-2", "4-1"]


def test_a_spinner_leads_with_its_ends_opening_once_both_sides_are_covered():
    layout = laid(LayoutKind.FIRST_DOUBLE_SPINNER, "5-5", ("5-0", 0))
    shown = layout_json(layout)
    assert shown["lead"]["spinner"] is True
    arms = {a["arm"]: a for a in shown["arms"]}
    assert arms[2]["from"] == arms[3]["from"] == {"arm": None, "index": 0}
    assert not arms[2]["open"] and arms[2]["end"] is None
    layout.place(parse_tile("5-3"), 1)
    shown = layout_json(layout)
    assert [e["arm"] for e in shown["open_ends"]] == [0, 1, 2, 3]
    assert {a["arm"]: a["end"] for a in shown["arms"]} == {0: 0, 1: 3, 2: 5, 3: 5}


def test_five_up_spinners_along_an_arm_open_the_next_arms_there():
    layout = laid(
        LayoutKind.ALL_DOUBLES_SPINNERS,
        "5-5",
        ("5-0", 0),
        ("5-3", 1),
        ("3-3", 1),
        ("3-1", 1),
        ("5-2", 2),
    )
    shown = layout_json(layout)
    arms = {a["arm"]: a for a in shown["arms"]}
    assert sorted(arms) == [0, 1, 2, 3, 4, 5]
    assert arms[1]["tiles"][1] == {"tile": "3-3", "facing": 3, "double": True, "spinner": True}
    assert arms[4]["from"] == arms[5]["from"] == {"arm": 1, "index": 1}
    assert arms[4]["open"] and arms[4]["end"] == 3
    assert arms[2]["tiles"] == [{"tile": "5-2", "facing": 5, "double": False}]


def test_only_the_seat_that_drew_sees_the_tile_and_no_one_sees_the_deal():
    state = TableState("t1")
    draw = Happened(9, Moved(1, 0, Move.draw("6-1")))
    assert public_event(state, draw, 1)["draw"] == "6-1"
    assert public_event(state, draw, 0)["draw"] is True
    assert public_event(state, draw, None)["draw"] is True
    dealt = Happened(3, Dealt(0, (1 << parse_tile("6-6"), 0), (parse_tile("1-1"),), 1))
    assert public_event(state, dealt, 0) == {"version": 3, "kind": "dealt", "hand": 0, "leader": 1}
    joined = Happened(2, Joined(1, "p_x", "Bob"))
    assert "player" not in public_event(state, joined, None)


@pytest.mark.parametrize("preset", ["draw", "spinner-fives", "five-up", "cross-bergen"])
def test_the_layout_kept_up_move_by_move_is_the_layout_made_afresh(preset):
    for seed in range(6):
        rng = random.Random(seed)
        hand = Game(preset, 2, rng=random.Random(seed)).start_hand()
        kept = ShownLayout(hand.layout.kind)
        while not hand.over:
            hand.push(rng.choice(hand.legal_moves()))
            assert kept.follows(hand.layout)
            assert kept.json(hand.layout) == layout_json(hand.layout.copy())
        assert not kept.follows(Layout(hand.layout.kind))  # the next hand starts afresh


PROTOCOL_MD = Path(__file__).parents[2] / "docs" / "protocol.md"


def documented(heading: str) -> dict[str, Any]:
    """The first JSON example after ``heading`` in docs/protocol.md (its placeholders as null)."""
    text = PROTOCOL_MD.read_text()
    start = text.index("```json", text.index(heading)) + len("```json")
    block = text[start : text.index("```", start)]
    for placeholder in ("{...}", "LAYOUT", "MOVES", "[event, ...]"):
        block = block.replace(placeholder, "null")
    return json.loads(block)  # type: ignore[no-any-return]


def a_state_in_play() -> dict[str, Any]:
    state, rng = TableState("k3x9q2fz"), random.Random(1)
    seats = (SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"), SeatAtStart(SeatKind.EMPTY))
    for command in (None, c.Join("p_bob", "Bob"), c.Start("p_ann")):
        events = [Created(Options(preset="all-fives"), seats)] if command is None else None
        for event in events or state.decide(command, rng):
            state.apply(event, 0.0)
    return state_for(state, 0, player="p_ann", name="Ann", connected={0, 1}, now=1.0)


def test_the_state_has_the_fields_of_the_documented_example():
    """docs/protocol.md 3.3: the example names every field of a state, of its table, of `you`,
    of a seat, of the clock and of the hand, and no other."""
    example, hand = documented("### 3.3 The state"), documented("`hand` is `null` before")
    state = a_state_in_play()
    assert state["clock"] is not None and state["hand"] is not None
    assert set(state) == set(example)
    for part in ("table", "you", "clock"):
        assert set(state[part]) == set(example[part]), part
    assert all(set(seat) == set(example["seats"][0]) for seat in state["seats"])
    assert set(state["hand"]) == set(hand)


def test_each_play_names_the_ends_worth_asking_about():
    """A play's `ends` (docs/protocol.md 3.3) are its arms less those alike another, as
    web/end_choices.py decides them from the layout the same state shows."""
    people = {0: "p_ann", 1: "p_bob"}
    merged = 0
    for seed in range(4):
        state, rng = TableState("k3x9q2fz"), random.Random(seed)
        seats = (SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"), SeatAtStart(SeatKind.EMPTY))
        for command in (None, c.Join("p_bob", "Bob"), c.Start("p_ann")):
            events = [Created(Options(preset="all-fives"), seats)] if command is None else None
            for event in events or state.decide(command, rng):
                state.apply(event, 0.0)
        while state.hand is not None and not state.hand.over:
            seat = state.hand.turn
            view = state_for(state, seat, player=people[seat], name="", connected={0, 1}, now=1.0)
            hand = view["hand"]
            for play in hand["moves"]["play"]:
                assert play["ends"] == end_choices(
                    hand["layout"], play["arms"], PRESETS["all-fives"]
                )
                assert play["ends"] and set(play["ends"]) <= set(play["arms"])
                merged += len(play["ends"]) < len(play["arms"])
            move = rng.choice(state.hand.legal_moves())
            for event in state.decide(c.MakeMove(people[seat], move), rng):
                state.apply(event, 0.0)
    assert merged, "no play had alike ends to merge"
