"""hall/messages.py: the shapes declared are what the hall sends. Over whole games played through
``TableState``, every message ``table_feed`` makes (``views.state_for``, ``views.update_for``)
for every audience, and every part the HTTP answers take from ``views``, has each key its
TypedDict requires, no key it does not declare, and each value of the declared type."""

# No ``from __future__ import annotations``: the TypedDicts of this test read ``NotRequired``
# when they are made (as hall/messages.py's do), which Python 3.11 does not from a string.

import random
import types
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, Literal, NotRequired, TypedDict, Union, get_args, get_origin, is_typeddict
from typing import get_type_hints as hints_of

import pytest

from dominohall.hall import HallError, Options, TableState, messages
from dominohall.hall import commands as c
from dominohall.hall.chat import ChatLimited
from dominohall.hall.events import SeatAtStart, SeatKind
from dominohall.hall.listing import Listing
from dominohall.hall.options import BotLevel
from dominohall.hall.seat_view import public_events
from dominohall.hall.table import Phase
from dominohall.hall.table_feed import WATCHER, Audience, Before, change_of, view
from dominohall.hall.turn_view import since_last_move
from dominohall.hall.views import rematch_json, summary, table_meta
from dominohall.rules import PRESETS

_TAGS = ("type", "kind")  # the keys a union of messages, or of events, is told apart by


def problems(value: object, shape: Any, where: str = "message") -> list[str]:
    """What is wrong with ``value`` as a ``shape`` of hall/messages.py (nothing: it is one)."""
    if shape is object:
        return []
    if shape is None or shape is type(None):
        return [] if value is None else [f"{where}: {value!r} is not null"]
    origin = get_origin(shape)
    if origin is Union or origin is types.UnionType:
        found = [problems(value, member, where) for member in _members(shape, value)]
        return [] if any(not p for p in found) else min(found, key=len)
    if origin is Literal:
        allowed = get_args(shape)
        if any(isinstance(value, type(a)) and value == a for a in allowed):
            return []
        return [f"{where}: {value!r} is not one of {allowed}"]
    if is_typeddict(shape):
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object ({shape.__name__})"]
        declared = _hints(shape)
        missing = sorted(shape.__required_keys__ - set(value))
        out = [f"{where}: no {k!r} ({shape.__name__})" for k in missing]
        out += [f"{where}: {k!r}, not in {shape.__name__}" for k in value if k not in declared]
        for key in value:
            if key in declared:
                out += problems(value[key], declared[key], f"{where}.{key}")
        return out
    if origin is list:
        if not isinstance(value, list):
            return [f"{where}: {value!r} is not a list"]
        (item,) = get_args(shape)
        return [p for i, v in enumerate(value) for p in problems(v, item, f"{where}[{i}]")]
    if origin is dict or origin is Mapping:
        if not isinstance(value, dict):
            return [f"{where}: {value!r} is not an object"]
        key_shape, value_shape = get_args(shape)
        return [
            p
            for k, v in value.items()
            for p in problems(k, key_shape, f"{where} key")
            + problems(v, value_shape, f"{where}.{k}")
        ]
    if shape is float:  # (a JSON number: a whole one too)
        ok = isinstance(value, int | float) and not isinstance(value, bool)
    elif shape is int:
        ok = isinstance(value, int) and not isinstance(value, bool)
    else:
        ok = isinstance(value, shape)
    return [] if ok else [f"{where}: {value!r} is not of type {shape.__name__}"]


@cache
def _hints(shape: Any) -> dict[str, Any]:
    return hints_of(shape)


def _members(union: Any, value: object) -> tuple[Any, ...]:
    """The members of ``union`` that ``value``'s ``type`` or ``kind`` names (all when none
    does), so that a wrong message is told what is wrong with it as what it says it is."""
    members = get_args(union)
    if isinstance(value, dict):
        named = tuple(
            m
            for m in members
            if is_typeddict(m)
            and any(
                t in _hints(m) and t in value and not problems(value[t], _hints(m)[t])
                for t in _TAGS
            )
        )
        if named:
            return named
    return members


def test_the_checker_finds_what_is_wrong():
    class Part(TypedDict):
        n: int
        maybe: NotRequired[str]

    class Whole(TypedDict):
        type: Literal["whole"]
        parts: list[Part]
        at: float | None

    assert problems({"type": "whole", "parts": [{"n": 1}], "at": 2}, Whole) == []
    assert problems({"type": "whole", "parts": [{"n": 1, "maybe": "x"}], "at": None}, Whole) == []
    assert problems({"type": "whole", "parts": [], "at": 1.0, "more": 1}, Whole) == [
        "message: 'more', not in Whole"
    ]
    assert problems({"type": "whole", "parts": [{"n": True}]}, Whole) == [
        "message: no 'at' (Whole)",
        "message.parts[0].n: True is not of type int",
    ]
    assert problems({"type": "other", "parts": [], "at": None}, Whole) == [
        "message.type: 'other' is not one of ('whole',)"
    ]
    move = {"version": 3, "kind": "move", "seat": 0, "draw": True, "hand": 0, "by": "player"}
    assert problems(move, messages.Event) == ["message: no 'scored' (MoveEvent)"]


def test_every_shape_says_in_a_line_which_section_of_the_protocol_it_is():
    shapes = [
        v for v in vars(messages).values() if is_typeddict(v) and not v.__name__.startswith("_")
    ]
    assert len(shapes) > 60
    for shape in shapes:
        doc = shape.__doc__ or ""
        assert "docs/protocol.md" in doc and "\n" not in doc, shape.__name__


class Table:
    """A table played through ``TableState`` alone (no hall): every change's message for every
    audience checked, as the socket tier would be sent it, and now and then the whole state a
    socket asks for (``view``) with every event kept as each audience sees it."""

    def __init__(self, preset: str, seats: int, *, timer: str = "normal", seed: int = 0) -> None:
        target = PRESETS[preset].default_target
        self.options = Options(preset=preset, seats=seats, timer=timer, target=target)
        self.state = TableState(f"t{seed}")
        self.rng = random.Random(seed)
        self.now = 1000.0
        self.seats = seats
        self.checked = 0
        self.changes = 0
        self.kinds: set[str] = set()  # of the events sent
        host = (SeatAtStart(SeatKind.HUMAN, "p0", "Ann"),)
        self.do(c.Open(self.options, host + (SeatAtStart(SeatKind.EMPTY),) * (seats - 1)))

    def do(self, command: c.Command) -> None:
        state = self.state
        before = Before.of(state)
        try:
            events = state.decide(command, self.rng)
        except HallError:
            return  # (refused: nothing happened)
        for event in events:
            state.apply(event, self.now)
        self.now += 7.5
        audiences = {Audience(s) for s in range(self.seats)} | {WATCHER}
        audiences |= {Audience(None, s.seat) for s in state.seats if s.out is not None}
        connected = set(range(self.seats - 1))  # the last seat's person is away
        change = change_of(state, before, audiences, connected=connected, now=self.now, ratings={})
        for audience, message in change.messages.items():
            self.check(message, messages.TableMessage, f"{command} to {audience}")
            self.kinds |= {e["kind"] for e in message["events"]}
        self.changes += 1
        if self.changes % 8 == 1 or state.phase is Phase.FINISHED:  # (a whole state is long)
            for audience in audiences:
                since = before.version
                seen = view(state, audience, since, connected=connected, now=self.now, ratings=None)
                self.check(seen.message, messages.StateMessage, f"view for {audience}")
                kept = public_events(state, state.tail, audience.seat)  # any an update may carry
                self.check(kept, list[messages.Event], f"events for {audience}")
        self.check(summary(state), messages.TableSummary, "summary")
        self.check(table_meta(state), messages.TableMeta, "table_meta")
        self.check(rematch_json(state), messages.Rematch | None, "rematch")
        for seat in range(self.seats):
            self.check(Listing.of(state).entry(seat, self.now), messages.MyTable, "my_table")
            if self.options.turn_based is not None:
                self.check(since_last_move(state, seat), list[messages.SinceEntry], "since")

    def check(self, value: object, shape: Any, where: str) -> None:
        found = problems(value, shape, where)
        assert not found, "\n".join(found[:10])
        self.checked += 1

    def play(
        self, *, moves: int = 10_000, each: Callable[[int], c.Command | None] = lambda n: None
    ) -> None:
        """Random legal moves until the game is over (or ``moves`` were made), pressing Next hand
        between hands; ``each``: a command of the script's before the ``n``-th move."""
        state = self.state
        for n in range(moves):
            if state.phase is Phase.FINISHED:
                return
            extra = each(n)
            if extra is not None:
                self.do(extra)
            if state.phase is Phase.BETWEEN_HANDS:
                for seat in state.seats:
                    if seat.is_person and seat.player is not None:
                        self.do(c.PressNextHand(seat.player))
                self.do(c.DealNextHand(self.now))
                continue
            hand = state.hand
            if hand is None or hand.over or hand.turn is None:
                return
            seat = state.seats[hand.turn]
            move = self.rng.choice(hand.legal_moves())
            if seat.is_person and seat.player is not None:
                self.do(c.MakeMove(seat.player, move))
            else:
                self.do(c.ComputerTurn(seat.seat, state.version, (move,)))


def _seated(preset: str, seats: int, **options: Any) -> Table:
    table = Table(preset, seats, **options)
    for seat in range(1, seats):
        table.do(c.Join(f"p{seat}", f"Player {seat}"))
    table.do(c.Start("p0"))
    assert table.state.phase is Phase.PLAYING
    return table


def test_a_whole_game_and_its_rematch():
    table = _seated("all-fives", 2, seed=1)
    table.play()
    assert table.state.phase is Phase.FINISHED and table.state.game_over is not None
    table.do(c.AnswerRematch("p1", True))
    table.do(c.AnswerRematch("p0", True, new_table="t9"))
    assert table.state.rematch_table == "t9"
    assert {"hand_over", "game_over", "rematch", "rematch_table"} <= table.kinds
    assert table.checked > 500


def test_spinners_a_timeout_a_player_out_and_a_restart():
    table = _seated("five-up", 3, seed=2)

    def script(n: int) -> c.Command | None:
        state = table.state
        hand = state.hand
        if n in (3, 4, 8) and hand is not None and not hand.over:
            return c.TurnTimeUp(state.turn_deadline + 1, (hand.legal_moves()[0],))
        if n == 6:
            return c.Resume(30.0)
        if n == 12:
            return c.Leave("p2")  # a computer player takes the seat; p2 watches
        return None

    table.play(each=script)
    assert {"resumed", "out"} <= table.kinds


def test_a_turn_based_partnership_with_a_vacation_and_a_reminder():
    table = _seated("partnership", 4, timer="day", seed=3)

    def script(n: int) -> c.Command | None:
        now = table.now
        return {
            1: c.SetVacation("p1", now, now + 2 * 86400),
            2: c.Remind(table.state.reminder_at or now),
            5: c.SetVacation("p1", now - 5, now),
            7: c.MakeForcedMoves(),
        }.get(n)

    table.play(moves=300, each=script)
    assert {"vacation", "reminded"} <= table.kinds


@pytest.mark.parametrize("preset", ["cross-draw", "cross-bergen", "block"])
def test_other_presets(preset: str):
    table = _seated(preset, 3 if preset != "block" else 4, seed=4)
    table.play(moves=100)
    assert "hand_over" in table.kinds


def test_seating_before_the_start_and_a_table_closed():
    table = Table("draw", 3, seed=5)
    for command in (
        c.SeatBot("p0", 1, BotLevel.HARD),
        c.Remove("p0", 1),
        c.Join("p1", "Bob"),
        c.SeatBot("p0", 2, BotLevel.EASY),
        c.Leave("p0"),  # Bob hosts
        c.Leave("p1"),  # no person is left: closed
    ):
        table.do(command)
    assert table.state.closed
    assert {"bot_seated", "removed", "joined", "host", "closed"} <= table.kinds


def test_refusals_as_the_sockets_send_them():
    error: messages.ErrorMessage = {"type": "error", "id": 7, **HallError("stale", "x").to_json()}
    assert problems(error, messages.ErrorMessage) == []
    limited: messages.ErrorMessage = {"type": "error", "id": "a", **ChatLimited(2.5).to_json()}
    assert problems(limited, messages.ErrorMessage) == []
    assert limited["retry_after"] == 3
