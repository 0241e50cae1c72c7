"""Commands and the owner's answers as JSON, for a command sent to the process that owns its
table (``owner_link.py``). Decoding gives back values equal to the ones encoded.

A command is its class's name and its fields; of the field types only a ``Move`` (its four
numbers) and a ``BotLevel`` (its name) are not JSON already. ``Open`` is sent only by the socket
tier, which plays no table, to a process that will own the new one: its options and seats are
written as the log's ``created`` event writes them.
"""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..rules import Move
from ..rules.moves import MoveKind
from . import commands
from .commands import Command
from .events import Created, from_body
from .options import BotLevel
from .table_feed import Seen
from .wire import WireError, audience_from, audience_key

_SENT: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        commands.Join,
        commands.SeatBot,
        commands.Remove,
        commands.Start,
        commands.SetWatching,
        commands.Rename,
        commands.Leave,
        commands.Resign,
        commands.AnswerResign,
        commands.MakeMove,
        commands.PressNextHand,
        commands.AnswerRematch,
        commands.GoneAfterTheEnd,
        commands.SetVacation,
    )
}


def encode_command(command: Command) -> dict[str, Any]:
    if isinstance(command, commands.Open):
        created = Created(command.options, command.seats).to_body()
        return {**created, "kind": "Open", "start": command.start}
    name = type(command).__name__
    if name not in _SENT:
        raise WireError(f"{name} is run where its table is held, never sent")
    body: dict[str, Any] = {"kind": name}
    for f in fields(command):
        value = getattr(command, f.name)
        if isinstance(value, Move):
            value = [int(value.kind), value.tile, value.arm, value.first]
        elif isinstance(value, BotLevel):
            value = value.value
        body[f.name] = value
    return body


def decode_command(body: dict[str, Any]) -> Command:
    try:
        values = dict(body)
        if values.get("kind") == "Open":
            created = from_body({**values, "kind": "created"})
            assert isinstance(created, Created)
            return commands.Open(created.options, created.seats, bool(values["start"]))
        cls = _SENT[values.pop("kind")]
        if "move" in values and values["move"] is not None:
            kind, tile, arm, first = values["move"]
            values["move"] = Move(MoveKind(kind), tile, arm, first)
        if "bot" in values:
            values["bot"] = BotLevel(values["bot"])
        command: Command = cls(**values)
        return command
    except (KeyError, TypeError, ValueError) as exc:
        raise WireError(f"not a command: {exc}") from None


def encode_seen(seen: Seen) -> dict[str, Any]:
    return {
        "version": seen.version,
        "audience": audience_key(seen.audience),
        "closed": seen.closed,
        "message": seen.message,
    }


def decode_seen(body: dict[str, Any]) -> Seen:
    try:
        audience = audience_from(body["audience"])
        return Seen(body["version"], audience, body["closed"], body["message"])
    except (KeyError, TypeError) as exc:
        raise WireError(f"not a view: {exc}") from None
