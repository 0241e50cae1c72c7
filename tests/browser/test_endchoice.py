"""The table screen asks for an end only when the hall's `moves.play[].ends` offers more than one
(web/end_choices.py decides which ends are alike; tests/web/test_end_choices.py judges it)."""

from __future__ import annotations

from typing import Any

import pytest

from dominohall.hall.end_choices import end_choices
from dominohall.hall.layout_view import layout_json
from dominohall.rules import PRESETS, Layout
from dominohall.rules.tiles import HIGH, LOW, make_tile, parse_tile, tile_name

from .conftest import SIZES

# The page's own table screen, drawn from a state made here, with a socket that only notes what
# it is asked to send: which tile went where, or the end buttons the player is asked with.
PICK = """async ([state, presetId]) => {
  const { Game } = await import('/static/js/game.js');
  const { html, render } = await import('/static/js/ui.js');
  const { get } = await import('/static/js/api.js');
  const { presets } = await get('/api/presets');
  const preset = presets.find((p) => p.id === presetId);
  const box = document.createElement('div');
  document.body.append(box);
  const sent = [];
  const socket = { request: (m) => { sent.push(m); return new Promise(() => {}); } };
  render(html`<${Game} state=${state} kind=${preset.layout} preset=${preset} receivedAt=${0}
    socket=${socket} onError=${() => {}} goHome=${() => {}} go=${() => {}} status="open" />`, box);
  await new Promise((r) => setTimeout(r, 50));
  const button = box.querySelector(`.hand-tile[data-tile="${state.hand.tiles[0]}"]`);
  if (!button) return { drawn: box.innerHTML.slice(0, 400) };
  button.click();
  await new Promise((r) => setTimeout(r, 50));
  const asked = [...box.querySelectorAll('.end-choice')].map((b) => b.textContent);
  render(null, box);
  box.remove();
  return { sent, asked };
}"""


def _table(preset_id: str, laid: list[tuple[str, int | None]], held: str) -> dict[str, Any]:
    """The state of a table where seat 0 holds ``held`` (and 5-0) after ``laid`` (the lead's
    first half faces arm 0)."""
    preset = PRESETS[preset_id]
    layout = Layout(preset.layout)
    for name, arm in laid:
        a, b = (int(x) for x in name.split("-"))
        if arm is None:
            layout.lead(make_tile(a, b), a)
        else:
            layout.place(make_tile(a, b), arm)
    tile = parse_tile(held)
    held = tile_name(tile)
    arms = sorted(k for k in layout.open_arms if layout.tips[k] in (HIGH[tile], LOW[tile]))
    shown = layout_json(layout)
    seats = [
        {
            "seat": s,
            "kind": "human",
            "name": name,
            "bot": None,
            "connected": True,
            "score": 0,
            "tiles": 2,
            "team": None,
            "out": False,
            "out_reason": None,
            "timeouts": 0,
            "ready": False,
            "rating": None,
        }
        for s, name in enumerate(["Ann", "Bob"])
    ]
    return {
        "version": 5,
        "table": {
            "id": "t",
            "preset": preset_id,
            "preset_name": preset.name,
            "target": 100,
            "phase": "playing",
            "ranked": None,
        },
        "you": {"seat": 0, "player": "p", "name": "Ann", "host": True, "out": None},
        "seats": seats,
        "hand": {
            "number": 0,
            "leader": 0,
            "turn": 0,
            "tiles": [held, "5-0"],
            "pips": 0,
            "layout": shown,
            "boneyard": 0,
            "ends_total": None,
            "moves": {
                "play": [{"tile": held, "arms": arms, "ends": end_choices(shown, arms, preset)}],
                "lead": [],
                "draw": False,
                "pass": False,
            },
            "log": [],
            "result": None,
        },
        "clock": None,
        "next_hand": None,
        "game": None,
        "rematch": None,
        "turn_based": None,
    }


@pytest.mark.parametrize("size", SIZES)
def test_the_table_asks_for_an_end_only_when_the_ends_differ(
    page: Any, size: dict[str, int]
) -> None:
    page.set_viewport_size(size)
    # Both sides of a lead double: played at once, on the first.
    picked = page.evaluate(PICK, [_table("all-fives", [("6-6", None)], "6-4"), "all-fives"])
    assert picked == {
        "sent": [{"type": "play", "tile": "6-4", "arm": 0, "version": 5}],
        "asked": [],
    }
    # The page asks about the ends the hall offers, no fewer (it keeps no rule of its own).
    state = _table("all-fives", [("6-6", None)], "6-4")
    state["hand"]["moves"]["play"][0]["ends"] = [0, 1]
    picked = page.evaluate(PICK, [state, "all-fives"])
    assert picked["sent"] == [] and len(picked["asked"]) == 2, picked
    # Two plain threes: alike.
    laid = [("3-1", None), ("1-6", 1), ("6-3", 1)]
    picked = page.evaluate(PICK, [_table("all-fives", laid, "3-5"), "all-fives"])
    assert picked["sent"] == [{"type": "play", "tile": "5-3", "arm": 0, "version": 5}]
    # A double three beside a plain three scores differently where plays count: asked...
    laid = [("3-1", None), ("3-3", 0), ("1-6", 1), ("6-3", 1)]
    picked = page.evaluate(PICK, [_table("all-fives", laid, "3-5"), "all-fives"])
    assert picked["sent"] == [] and len(picked["asked"]) == 2, picked
    # ...and not in Draw, where only the numbers showing matter.
    picked = page.evaluate(PICK, [_table("draw", laid, "3-5"), "draw"])
    assert picked["sent"] == [{"type": "play", "tile": "5-3", "arm": 0, "version": 5}]
    # Different numbers are always asked.
    laid = [("6-1", None), ("1-4", 1)]
    picked = page.evaluate(PICK, [_table("draw", laid, "6-4"), "draw"])
    assert picked["sent"] == [] and len(picked["asked"]) == 2, picked
