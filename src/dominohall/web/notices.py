"""The hall's notices as the protocol writes them: a player's (docs/protocol.md 8: ``{"kind": ...,
...}``), and a table's chat lines (docs/protocol.md 10)."""

from __future__ import annotations

from dataclasses import fields
from typing import Any

from ..hall import messages
from ..hall.chat import ChatRoom
from ..hall.notices import Challenged, ChatSaid, Invitation, PlayerNotice, SeatPresence

# Fields whose name on the wire is not the field's own ("from" is a Python keyword).
_WIRE_NAMES: dict[tuple[type, str], str] = {
    (Invitation, "sender"): "from",
    (Challenged, "sender"): "from",
    (Challenged, "sender_name"): "from_name",
}


def notice_json(notice: PlayerNotice | SeatPresence) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": notice.kind}
    for field in fields(notice):
        out[_WIRE_NAMES.get((type(notice), field.name), field.name)] = getattr(notice, field.name)
    return out


def chat_json(said: ChatSaid) -> messages.ChatMessage:
    """A chat line as its room's readers get it (docs/protocol.md 10): text stays text, and the
    sayer's player id stays in the hall (readers see a seat, a name and a username)."""
    return {"type": "chat", **_said(said)}


def _said(said: ChatSaid) -> messages.SaidLine:
    line: messages.SaidLine = {
        "room": said.room,
        "id": said.id,
        "seat": said.seat,
        "name": said.name,
        "username": said.username,
        "at": said.at,
    }
    if said.phrase is not None:
        line["phrase"] = said.phrase
    elif said.text is not None:  # (exactly one of the two: the store's check says so too)
        line["text"] = said.text
    return line


def lines_json(lines: list[ChatSaid]) -> list[messages.SaidLine]:
    """Kept lines, each with its room (a finished game's chat beside its replay)."""
    return [_said(line) for line in lines]


def chat_history_json(room: ChatRoom, lines: list[ChatSaid]) -> messages.ChatHistoryMessage:
    """A room's last lines, oldest first: what a socket is sent after its state."""
    return {"type": "chat_history", "room": room.value, "lines": [_said(line) for line in lines]}
