"""web/end_choices.py: a tile that fits ends alike for the player is offered with one of them, and
only then. The engine is the judge: over random hands of every preset, an end left out of
`moves.play[].ends` must give the same points, the same open ends and the same next plays as one
it offers."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from dominohall.hall.end_choices import end_choices
from dominohall.hall.layout_view import layout_json
from dominohall.rules import PRESET_LIST, PRESETS, Game, Hand, Move
from dominohall.rules.layout import NO_ARM
from dominohall.rules.tiles import HIGH, LOW, TILE_COUNT, tile_name


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


def test_an_end_left_out_of_the_question_is_alike_one_offered() -> None:
    cases = _cases(hands_per_preset=12)
    merged: Counter[str] = Counter()
    for case in cases:
        offered = end_choices(case["layout"], case["arms"], PRESETS[case["preset"]])
        assert offered and set(offered) <= set(case["arms"]), (case, offered)
        outcome = case["outcome"]
        # Offered ends are never alike each other would be nice but is not needed; an end left
        # out must be alike one that is offered, else the player lost a choice.
        for arm in set(case["arms"]) - set(offered):
            assert any(outcome[arm] == outcome[k] for k in offered), (case, offered)
            merged[case["preset"]] += 1
    # The question is skipped in lines and around spinners alike, not only in one kind of game.
    assert merged["draw"] and merged["all-fives"] and merged["spinner-fives"], merged


def test_a_tile_fitting_one_end_or_none_known_is_asked_as_it_fits() -> None:
    draw = PRESETS["draw"]
    assert end_choices({"lead": None, "arms": [], "open_ends": []}, [1], draw) == [1]
    # An arm the layout does not show is asked about, not merged with another.
    layout = {"lead": None, "arms": [], "open_ends": [{"arm": 0, "number": 3}]}
    assert end_choices(layout, [2, 0], draw) == [0, 2]
