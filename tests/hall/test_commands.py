"""The table's commands (``hall/commands.py``) are plain frozen values with no logic of their
own (``deciding`` gives them their meaning): checked here are that ``Command`` lists every one
of them, and that each is an immutable value whose left-out fields say "any" or "none"."""

from __future__ import annotations

import dataclasses
import inspect
import typing

import pytest

from dominohall.hall import Options
from dominohall.hall import commands as c
from dominohall.rules import DRAW


def _defined() -> set[type]:
    return {
        cls
        for _, cls in inspect.getmembers(c, inspect.isclass)
        if cls.__module__ == c.__name__ and dataclasses.is_dataclass(cls)
    }


def test_command_lists_every_command_the_module_defines_and_nothing_else():
    assert set(typing.get_args(c.Command)) == _defined()


def test_every_command_is_a_frozen_value_without_stray_fields():
    for cls in _defined():
        params = cls.__dataclass_params__  # type: ignore[attr-defined]
        assert params.frozen and "__slots__" in vars(cls), cls.__name__
    move = c.MakeMove("p_ann", DRAW)
    assert move == c.MakeMove("p_ann", DRAW) and hash(move) == hash(c.MakeMove("p_ann", DRAW))
    with pytest.raises(dataclasses.FrozenInstanceError):
        move.player = "p_bob"  # type: ignore[misc]


def test_a_left_out_field_means_any_none_or_not_at_once():
    assert c.Join("p_ann", "Ann").seat is None  # the first free seat
    move = c.MakeMove("p_ann", DRAW)
    assert (move.until_fits, move.version) == (False, None)  # one draw; whatever version seen
    assert c.AnswerRematch("p_ann", True).new_table == ""
    assert c.Open(Options(), ()).start is False
    assert c.TurnTimeUp(5.0).moves == () and c.DealNextHand().now is None
