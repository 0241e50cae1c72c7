"""js/endchoice.js: a tile that fits ends alike for the player is played without a question, and
only then. The engine is the judge: over random hands of every preset, an end the page leaves
out of the question must give the same points, the same open ends and the same next plays as
one it offers."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from dominohall.rules import PRESET_LIST, PRESETS, Game, Hand, Layout, Move
from dominohall.rules.layout import NO_ARM
from dominohall.rules.tiles import HIGH, LOW, TILE_COUNT, make_tile, parse_tile, tile_name
from dominohall.web.views import layout_json

from .conftest import SIZES

CHOICES = """async (cases) => {
  const { endChoices } = await import('/static/js/endchoice.js');
  return cases.map(({ layout, arms, preset }) => endChoices(layout, arms, preset));
}"""


def _after(hand: Hand, counting: bool) -> tuple[Any, ...]:
    """What a play leaves for the player: the points, the open ends (and, where plays score,
    what counts), the spinner ends still to open, and every tile's next plays."""
    layout = hand.layout
    waiting = sum(w != NO_ARM for w in layout.waiting_ends) + layout.lead_spinner_waiting

    def ends(lay: Any) -> tuple[Any, ...]:
        numbers = tuple(sorted(lay.open_numbers()))
        return (numbers, tuple(sorted(lay.faces()))) if counting else (numbers,)

    laid = {t for t, _, _ in layout.chain}
    nexts = []
    for tile in range(TILE_COUNT):
        if tile in laid:
            continue
        outcomes = []
        for arm in layout.open_arms:
            if layout.tips[arm] not in (HIGH[tile], LOW[tile]):
                continue
            trial = layout.copy()
            trial.place(tile, arm)
            outcomes.append(ends(trial))
        nexts.append(tuple(sorted(outcomes)))
    return (tuple(hand.points) if counting else (), ends(layout), waiting, tuple(nexts))


def _cases(hands_per_preset: int) -> list[dict[str, Any]]:
    """Every turn of random hands where a tile fits more than one end, with each end's outcome."""
    cases = []
    rng = random.Random(21)
    for preset in PRESET_LIST:
        counting = preset.count.value != "none"
        for _ in range(hands_per_preset):
            players = rng.choice(preset.players)
            hand = Game(preset.id, players, rng=random.Random(rng.random())).start_hand()
            while not hand.over:
                moves = hand.legal_moves()
                arms: dict[int, list[int]] = {}
                for m in moves:
                    if m.is_play and m.arm is not None:
                        arms.setdefault(m.tile, []).append(m.arm)
                for tile, on in arms.items():
                    if len(on) < 2:
                        continue
                    outcome = {}
                    for arm in on:
                        hand.push(Move.play(tile, arm))
                        outcome[arm] = _after(hand, counting)
                        hand.pop()
                    cases.append(
                        {
                            "preset": preset.id,
                            "tile": tile_name(tile),
                            "layout": layout_json(hand.layout),
                            "arms": sorted(on),
                            "outcome": outcome,
                        }
                    )
                plays = [m for m in moves if m.is_play]
                hand.push(rng.choice(plays or list(moves)))
    return cases


def test_an_end_left_out_of_the_question_is_alike_one_offered(page: Any) -> None:
    presets = {p.id: p.as_dict() for p in PRESET_LIST}
    cases = _cases(hands_per_preset=12)
    asked = page.evaluate(
        CHOICES,
        [{"layout": c["layout"], "arms": c["arms"], "preset": presets[c["preset"]]} for c in cases],
    )
    merged: Counter[str] = Counter()
    for case, offered in zip(cases, asked, strict=True):
        assert offered and set(offered) <= set(case["arms"]), (case, offered)
        outcome = case["outcome"]
        # Offered ends are never alike each other would be nice but is not needed; an end left
        # out must be alike one that is offered, else the player lost a choice.
        for arm in set(case["arms"]) - set(offered):
            assert any(outcome[arm] == outcome[k] for k in offered), (case, offered)
            merged[case["preset"]] += 1
    # The question is skipped in lines and around spinners alike, not only in one kind of game.
    assert merged["draw"] and merged["all-fives"] and merged["spinner-fives"], merged


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
    arms = [k for k in layout.open_arms if layout.tips[k] in (HIGH[tile], LOW[tile])]
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
            "layout": layout_json(layout),
            "boneyard": 0,
            "ends_total": None,
            "moves": {
                "play": [{"tile": held, "arms": arms}],
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
