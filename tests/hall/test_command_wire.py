"""Commands sent to their table's owner as JSON and back: equal to what was encoded."""

from __future__ import annotations

import pytest

from dominohall.hall import commands as c
from dominohall.hall.command_wire import decode_command, encode_command
from dominohall.hall.options import BotLevel
from dominohall.hall.wire import WireError
from dominohall.rules import DRAW, Move


@pytest.mark.parametrize(
    "command",
    [
        c.Join("p_ann", "Ann", 2),
        c.SeatBot("p_ann", 1, BotLevel.HARD),
        c.Leave("p_bob"),
        c.Resign("p_bob", 1700000000.25),
        c.AnswerResign("p_dee", True),
        c.AnswerResign("p_dee", False),
        c.MakeMove("p_ann", Move.play("6-4", 1), False, 7),
        c.MakeMove("p_ann", DRAW, True, None),
    ],
)
def test_a_command_comes_back_equal(command: c.Command):
    assert decode_command(encode_command(command)) == command


def test_what_the_owner_runs_itself_is_never_sent():
    with pytest.raises(WireError):
        encode_command(c.ResignUnanswered(1700000030.0))
    with pytest.raises(WireError):
        decode_command({"kind": "AnswerResign", "player": "p_dee"})
