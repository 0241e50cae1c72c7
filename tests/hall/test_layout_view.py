"""A layout as the protocol shows it: the documented example, and what each tile laid adds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from dominohall.hall.layout_view import ShownLayout, layout_json
from dominohall.rules import Layout, LayoutKind, parse_tile

PROTOCOL_MD = Path(__file__).parents[2] / "docs" / "protocol.md"
SPINNER = LayoutKind.FIRST_DOUBLE_SPINNER


def laid(kind: LayoutKind, lead: str, *plays: tuple[str, int]) -> Layout:
    """A layout led with ``lead`` (its first half facing arm 0), then each (tile, arm) laid."""
    layout = Layout(kind)
    layout.lead(parse_tile(lead), int(lead.split("-")[0]))
    for tile, arm in plays:
        layout.place(parse_tile(tile), arm)
    return layout


def documented_layout() -> dict[str, Any]:
    text = PROTOCOL_MD.read_text()
    start = text.index("```json", text.index("`LAYOUT`:")) + len("```json")
    return json.loads(text[start : text.index("```", start)])  # type: ignore[no-any-return]


def test_the_documented_example_is_what_the_hall_shows() -> None:
    shown = layout_json(laid(SPINNER, "6-6", ("6-4", 0)))
    example = documented_layout()
    # The example leaves out arm 3, the spinner's other end, alike arm 2.
    assert shown == {**example, "arms": [*example["arms"], {**example["arms"][2], "arm": 3}]}


def test_before_the_lead_there_is_nothing_to_show() -> None:
    empty: dict[str, Any] = {"lead": None, "arms": [], "open_ends": [], "chain": []}
    assert layout_json(Layout(SPINNER)) == empty
    assert ShownLayout(LayoutKind.LINE).json(Layout(LayoutKind.LINE)) == empty


def test_a_double_led_in_a_line_is_no_spinner() -> None:
    shown = layout_json(laid(LayoutKind.LINE, "6-6", ("6-2", 0)))
    assert shown["lead"] == {"tile": "6-6", "first": 6, "spinner": False}
    assert [arm["arm"] for arm in shown["arms"]] == [0, 1]
    assert shown["open_ends"] == [{"arm": 0, "number": 2}, {"arm": 1, "number": 6}]


def test_only_the_first_double_spins_where_the_first_double_is_the_spinner() -> None:
    layout = laid(SPINNER, "5-3", ("5-5", 0), ("5-1", 0), ("3-3", 1))
    arms = {arm["arm"]: arm for arm in layout_json(layout)["arms"]}
    assert arms[0]["tiles"] == [
        {"tile": "5-5", "facing": 5, "double": True, "spinner": True},
        {"tile": "5-1", "facing": 5, "double": False},
    ]
    assert arms[1]["tiles"] == [{"tile": "3-3", "facing": 3, "double": True}]  # no spinner
    assert sorted(arms) == [0, 1, 2, 3]
    assert arms[2]["from"] == arms[3]["from"] == {"arm": 0, "index": 0}
    assert [(arms[k]["open"], arms[k]["end"]) for k in (2, 3)] == [(True, 5), (True, 5)]


def test_an_update_shows_the_tiles_laid_since_the_arms_they_opened_and_the_ends_now() -> None:
    shown = ShownLayout(SPINNER)
    assert shown.since(0, laid(SPINNER, "5-3")) == {
        "laid": [{"tile": "5-3", "arm": None, "facing": 5, "spinner": False}],
        "arms": [{"arm": 0, "from": None}, {"arm": 1, "from": None}],
        "open_ends": [{"arm": 0, "number": 5}, {"arm": 1, "number": 3}],
    }
    spinner = {"tile": "5-5", "facing": 5, "double": True, "spinner": True, "arm": 0}
    assert shown.since(1, laid(SPINNER, "5-3", ("5-5", 0))) == {
        "laid": [spinner],
        "arms": [
            {"arm": 2, "from": {"arm": 0, "index": 0}},
            {"arm": 3, "from": {"arm": 0, "index": 0}},
        ],
        "open_ends": [{"arm": 0, "number": 5}, {"arm": 1, "number": 3}],  # 2 and 3 wait
    }
    now = laid(SPINNER, "5-3", ("5-5", 0), ("5-1", 0), ("3-3", 1))
    assert shown.since(2, now) == {
        "laid": [
            {"tile": "5-1", "facing": 5, "double": False, "arm": 0},
            {"tile": "3-3", "facing": 3, "double": True, "arm": 1},
        ],
        "arms": [],
        "open_ends": [{"arm": k, "number": n} for k, n in ((0, 1), (1, 3), (2, 5), (3, 5))],
    }
    everything = shown.since(0, now)
    assert [tile["tile"] for tile in everything["laid"]] == ["5-3", "5-5", "5-1", "3-3"]
    assert [arm["arm"] for arm in everything["arms"]] == [0, 1, 2, 3]
    assert shown.json(now) == layout_json(now)  # kept up tile by tile, or made afresh: alike


def test_a_shown_layout_follows_its_own_hand_only() -> None:
    shown = ShownLayout(SPINNER)
    shown.catch_up(laid(SPINNER, "5-3", ("5-5", 0)))
    assert shown.follows(laid(SPINNER, "5-3", ("5-5", 0)))
    assert shown.follows(laid(SPINNER, "5-3", ("5-5", 0), ("3-1", 1)))  # tiles added
    assert not shown.follows(laid(SPINNER, "5-3"))  # a tile taken back
    assert not shown.follows(laid(SPINNER, "5-3", ("3-3", 1)))  # another tile there
    assert not shown.follows(laid(SPINNER, "3-5", ("5-5", 1)))  # the lead turned: another hand
    assert not shown.follows(Layout(SPINNER))  # the next hand, before its lead
