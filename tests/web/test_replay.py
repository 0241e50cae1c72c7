"""A game's replay from its record, for every preset: one position per move, as the engine says."""

from __future__ import annotations

import random

import pytest

from dominohall.rules import PRESETS, Game
from dominohall.rules.record import check_record, record_of
from dominohall.web.replay import replay_json


def random_game(preset: str, seed: int) -> dict:
    rng = random.Random(seed)
    players = PRESETS[preset].players[-1]
    game = Game(preset, players, None, rng=rng)
    while not game.finished:
        hand = game.start_hand()
        while not hand.over:
            hand.push(rng.choice(hand.legal_moves()))
        game.end_hand()
    return record_of(game, [f"P{i}" for i in range(players)])


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_position_of_a_random_game_of_every_preset(preset: str) -> None:
    record = random_game(preset, seed=len(preset))
    report = check_record(record)
    replay = replay_json(record)
    assert len(replay["hands"]) == len(record["hands"])
    for hand, written, checked in zip(
        replay["hands"], record["hands"], report["hands"], strict=True
    ):
        positions = hand["positions"]
        assert [p["move"] for p in positions] == [None, *written["moves"]]
        assert hand["leader"] == written["leader"] and positions[0]["turn"] == written["leader"]
        for before, after in zip(positions, positions[1:], strict=False):
            laid = len(after["layout"]["chain"]) - len(before["layout"]["chain"])
            assert laid == (1 if "play" in after["move"] else 0)
            held = sum(map(len, after["tiles"])) - sum(map(len, before["tiles"]))
            assert held == {True: -1, False: 0}["play" in after["move"]] + ("draw" in after["move"])
            ends = after["layout"]["open_ends"]
            assert all(e["number"] in range(7) for e in ends)
        assert positions[-1]["turn"] is None and positions[-1]["points"] == checked["points"]
        assert (hand["result"]["winner"], hand["result"]["blocked"]) == (
            checked["winner"],
            checked["blocked"],
        )
    assert replay["hands"][-1]["positions"][-1]["scores"] == report["scores"]
