"""The hall's notices as the protocol writes them: a player's (docs/protocol.md 8: ``{"kind": ...,
...}``), and a table's chat lines (docs/protocol.md 10)."""

from __future__ import annotations

from ..hall import messages
from ..hall.chat import ChatRoom
from ..hall.notices import (
    Challenged,
    ChatSaid,
    Invitation,
    Reminder,
    Seated,
    SentNotice,
    TableOver,
    YourTurn,
)


def notice_json(notice: SentNotice) -> messages.Notice:
    """A notice of the player's channel as their socket is sent it (docs/protocol.md 8): its
    ``kind``, then its fields in order (the challenger as ``from``: a Python keyword)."""
    if isinstance(notice, YourTurn):  # (the most frequent: one a turn of a person)
        return {
            "kind": "your_turn",
            "table": notice.table,
            "seat": notice.seat,
            "version": notice.version,
            "deadline": notice.deadline,
        }
    if isinstance(notice, Seated):
        return {"kind": "seated", "table": notice.table, "seat": notice.seat}
    if isinstance(notice, Reminder):
        return {
            "kind": "reminder",
            "table": notice.table,
            "seat": notice.seat,
            "version": notice.version,
            "deadline": notice.deadline,
            "left": notice.left,
        }
    if isinstance(notice, Invitation):
        return {
            "kind": "invitation",
            "reason": notice.reason,
            "table": notice.table,
            "from": notice.sender,
        }
    if isinstance(notice, TableOver):
        return {"kind": "table_over", "table": notice.table}
    if isinstance(notice, Challenged):
        return {
            "kind": "challenge",
            "id": notice.id,
            "from": notice.sender,
            "from_name": notice.sender_name,
            "options": notice.options,
            "at": notice.at,
            "expires_at": notice.expires_at,
        }
    return {
        "kind": "challenge_over",
        "id": notice.id,
        "outcome": notice.outcome,
        "table": notice.table,
    }


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
