"""Commands sent to a table's owner, and its answers, as JSON and back: equal, or a WireError."""

from __future__ import annotations

import typing
from typing import Any

import orjson
import pytest

from dominohall.hall import commands as c
from dominohall.hall.command_wire import decode_command, decode_seen, encode_command, encode_seen
from dominohall.hall.events import SeatAtStart, SeatKind
from dominohall.hall.options import BotLevel, Options
from dominohall.hall.table_feed import WATCHER, Audience, Seen
from dominohall.hall.wire import WireError
from dominohall.rules import Move

SENT = [
    c.Join("p_ann", "Ann"),
    c.Join("p_bob", "Bob", seat=3),
    c.SeatBot("p_ann", 1, BotLevel.HARD),
    c.Remove("p_ann", 2),
    c.Start("p_ann"),
    c.Leave("p_bob"),
    c.Resign("p_bob", 1_700_000_000.25),
    c.AnswerResign("p_dee", True),
    c.AnswerResign("p_dee", False),
    c.MakeMove("p_ann", Move.lead("4-6")),  # the lead: its first half matters
    c.MakeMove("p_ann", Move.lead("6-4"), version=7),
    c.MakeMove("p_bob", Move.play("6-4", arm=3), version=12),
    c.MakeMove("p_bob", Move.draw(), until_fits=True),
    c.MakeMove("p_bob", Move.draw("0-0")),
    c.MakeMove("p_bob", Move.pass_(), version=0),
    c.PressNextHand("p_ann"),
    c.AnswerRematch("p_ann", True, "k3x9q2fz"),
    c.AnswerRematch("p_bob", False),
    c.GoneAfterTheEnd(1),
    c.SetVacation("p_ann", 1_800_000_000.25, 1_800_086_400.5),
    c.SetWatching("p_ann", True),
    c.Rename("p_bob", "Player 7"),
    # A new table, sent by the socket tier to a process that will own it.
    c.Open(
        Options.choose("all-fives", 200, seats=3, private=True, open_to_watchers=True),
        (
            SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"),
            SeatAtStart(SeatKind.BOT, None, "Hard", "hard"),
            SeatAtStart(SeatKind.EMPTY),
        ),
    ),
    c.Open(
        Options("draw", 50, 2, "normal", False, "draw-2"),
        (SeatAtStart(SeatKind.HUMAN, "p_ann", "Ann"), SeatAtStart(SeatKind.HUMAN, "p_bob", "Bob")),
        start=True,
    ),
]


def over_the_wire(body: dict[str, Any]) -> Any:
    """``body`` as the other process reads it (``owner_link.py`` sends orjson)."""
    return orjson.loads(orjson.dumps(body))


@pytest.mark.parametrize("command", SENT, ids=repr)
def test_every_command_sent_comes_back_equal(command: c.Command) -> None:
    back = decode_command(over_the_wire(encode_command(command)))
    assert back == command and type(back) is type(command)
    move = getattr(command, "move", None)
    if move is not None:
        # A move's bit is not compared, yet the hand tests a play against its tiles by it.
        assert back.move.bit == move.bit  # type: ignore[union-attr]
        assert back.move.kind is move.kind  # type: ignore[union-attr]
    if isinstance(command, c.SeatBot):
        assert back.bot is command.bot  # type: ignore[union-attr]


def test_a_command_is_written_as_its_name_and_its_fields() -> None:
    assert encode_command(c.MakeMove("p_ann", Move.lead("4-6"), version=7)) == {
        "kind": "MakeMove",
        "player": "p_ann",
        "move": [0, Move.lead("4-6").tile, None, 4],
        "until_fits": False,
        "version": 7,
    }
    assert encode_command(c.SeatBot("p_ann", 1, BotLevel.EASY)) == {
        "kind": "SeatBot",
        "player": "p_ann",
        "seat": 1,
        "bot": "easy",
    }


def test_every_other_command_is_run_where_its_table_is_held_and_never_sent() -> None:
    sent = {type(command) for command in SENT}
    kept = [cls for cls in typing.get_args(c.Command) if cls not in sent]
    assert {cls.__name__ for cls in kept} == {
        "ComputerTurn",
        "TurnTimeUp",
        "MakeForcedMoves",
        "Remind",
        "DealNextHand",
        "GraceOver",
        "Resume",
        "ResignUnanswered",
    }
    examples: list[c.Command] = [
        c.ComputerTurn(1, 5, (Move.pass_(),)),
        c.TurnTimeUp(10.0),
        c.MakeForcedMoves(),
        c.Remind(10.0),
        c.DealNextHand(),
        c.GraceOver(0),
        c.Resume(3.0),
        c.ResignUnanswered(1_700_000_030.0),
    ]
    assert {type(e) for e in examples} == set(kept)
    for command in examples:
        name = type(command).__name__
        with pytest.raises(WireError, match=f"^{name} is run where its table is held, never sent$"):
            encode_command(command)


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ({"player": "p_ann"}, "'kind'"),  # no kind
        ({"kind": "Open", "options": {}, "seats": [], "start": False}, "'preset'"),
        ({"kind": "Open", "options": Options().to_json(), "seats": [{"kind": "cat"}]}, "'cat'"),
        ({"kind": "Dance", "player": "p_ann"}, "'Dance'"),
        ({"kind": "Join", "player": "p_ann"}, "missing 1 required positional argument: 'name'"),
        ({"kind": "Start", "player": "p_ann", "seat": 1}, "unexpected keyword argument 'seat'"),
        ({"kind": "SeatBot", "player": "p", "seat": 1, "bot": "expert"}, "'expert'"),
        ({"kind": "MakeMove", "player": "p", "move": [0, 5, 1]}, "not enough values to unpack"),
        ({"kind": "MakeMove", "player": "p", "move": [7, 5, 1, -1]}, "7 is not a valid MoveKind"),
        ({"kind": "MakeMove", "player": "p", "move": 3}, "cannot unpack non-iterable int"),
    ],
)
def test_a_malformed_command_is_refused_naming_what_was_wrong(
    body: dict[str, Any], named: str
) -> None:
    with pytest.raises(WireError) as refused:
        decode_command(body)
    message = str(refused.value)
    assert message.startswith("not a command: ") and named in message


def test_decoding_leaves_the_body_as_it_was() -> None:
    body = encode_command(c.MakeMove("p_ann", Move.play("6-4", arm=1)))
    kept = dict(body)
    decode_command(body)
    assert body == kept


@pytest.mark.parametrize("audience", [Audience(2), WATCHER, Audience(None, 1)], ids=repr)
def test_the_owner_s_view_comes_back_equal(audience: Audience) -> None:
    message: Any = {"type": "state", "version": 9, "state": {"é": [1.5, None, True]}}
    seen = Seen(9, audience, False, message)
    assert decode_seen(over_the_wire(encode_seen(seen))) == seen
    closed = Seen(40, audience, True, message)
    assert decode_seen(over_the_wire(encode_seen(closed))) == closed


def test_a_malformed_view_is_refused() -> None:
    message: Any = {}
    good = encode_seen(Seen(9, Audience(2), False, message))
    without_closed = {k: v for k, v in good.items() if k != "closed"}
    with pytest.raises(WireError, match="^not a view: 'closed'$"):
        decode_seen(without_closed)
    with pytest.raises(WireError, match="^not an audience: 'seat two'$"):
        decode_seen({**good, "audience": "seat two"})
    with pytest.raises(WireError, match="^not an audience: 2$"):
        decode_seen({**good, "audience": 2})
