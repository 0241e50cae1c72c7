"""Notices: what the hall tells that is not a change of a table's log (unversioned, not stored).

On a player's own channel, what that player may know: seated at a table, their turn, a
reminder that their clock runs low, an invitation, a table's game over, a challenge and its end. On a table's channel,
who is connected at a seat, and each chat line said there (stored already, but no event: chat
has no version). Typed values here; ``web/notices.py`` writes them as the protocol's
JSON (docs/protocol.md 8).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from .messages import ChosenOptions


@dataclass(frozen=True, slots=True)
class Seated:
    """The player sits at ``table`` (``seat``: None when they were seated and left it again)."""

    kind: ClassVar[str] = "seated"
    table: str
    seat: int | None


@dataclass(frozen=True, slots=True)
class YourTurn:
    """The player's turn began at ``table`` (at its ``version``): their clock runs out at
    ``deadline``."""

    kind: ClassVar[str] = "your_turn"
    table: str
    seat: int
    version: int
    deadline: float


@dataclass(frozen=True, slots=True)
class Reminder:
    """Turn-based: less than a quarter of the player's clock is left (``left`` seconds)."""

    kind: ClassVar[str] = "reminder"
    table: str
    seat: int
    version: int
    deadline: float
    left: float


@dataclass(frozen=True, slots=True)
class Invitation:
    """The player was seated at ``table`` by the queue (``pairing``: ``sender`` None), is
    asked to a rematch by ``sender``, or sits there as a challenge of theirs was accepted
    (``challenge``: ``sender`` the challenger's name), or by a tournament's pairing
    (``tournament``: ``sender`` the tournament's name)."""

    kind: ClassVar[str] = "invitation"
    reason: Literal["pairing", "rematch", "challenge", "tournament"]
    table: str
    sender: str | None


@dataclass(frozen=True, slots=True)
class TableOver:
    """The game at ``table`` is over and stored."""

    kind: ClassVar[str] = "table_over"
    table: str


@dataclass(frozen=True, slots=True)
class Challenged:
    """The player is challenged by ``sender`` (a username; ``sender_name`` the name shown) to a
    game with ``options`` (a table's options as ``Options.to_json`` writes them: ``ranked``
    names the pool of a ranked one) until ``expires_at`` (docs/protocol.md 13)."""

    kind: ClassVar[str] = "challenge"
    id: str
    sender: str
    sender_name: str
    options: ChosenOptions
    at: float
    expires_at: float


@dataclass(frozen=True, slots=True)
class ChallengeOver:
    """A challenge the player sent or received ended: ``outcome`` accepted (``table``: where
    both sit now), declined, cancelled by its sender, or expired."""

    kind: ClassVar[str] = "challenge_over"
    id: str
    outcome: Literal["accepted", "declined", "cancelled", "expired"]
    table: str | None


@dataclass(frozen=True, slots=True)
class MutesChanged:
    """The player muted, unmuted, blocked, unblocked or reported someone: each process reads
    their mutes again for their sockets there (``chat.py``). The hall's own: no socket is sent
    it (``web/player_socket.py``)."""

    kind: ClassVar[str] = "mutes_changed"


# What a player's socket is sent (``web/notices.py``), and all a player's channel carries.
SentNotice = Seated | YourTurn | Reminder | Invitation | TableOver | Challenged | ChallengeOver
PlayerNotice = SentNotice | MutesChanged


@dataclass(frozen=True, slots=True)
class SeatPresence:
    """On a table's channel: whether ``seat`` has a socket open now."""

    kind: ClassVar[str] = "presence"
    seat: int
    connected: bool


@dataclass(frozen=True, slots=True)
class Watchers:
    """On a table's channel: how many sockets without a seat watch the table now, on every
    process together (told by the table's owner when the count changes)."""

    kind: ClassVar[str] = "watchers"
    count: int


@dataclass(frozen=True, slots=True)
class ChatSaid:
    """On a table's channel: a chat line said in one of its rooms, as stored (``id`` its row).
    Every socket of the table gets it; each passes it on only to a reader of that ``room`` who
    has not muted ``player`` (the sayer's id, which the protocol's line does not carry)."""

    kind: ClassVar[str] = "chat"
    id: int
    room: Literal["players", "spectators"]
    player: str | None  # None: said by an account since deleted
    seat: int | None  # the sayer's seat (None: a spectator)
    name: str
    username: str | None  # None: a guest, or deleted
    text: str | None  # a typed line, or
    phrase: str | None  # a quick phrase's id (exactly one of the two)
    at: float


@dataclass(frozen=True, slots=True)
class ResignAsked:
    """On a table's channel, for a partnership's two seats only: the person at ``seat`` asks
    their partner at ``partner`` to resign the game together; unanswered by ``deadline`` (the
    ``seconds`` after the asking), it is declined. Held by the table's owner in memory, not
    in the table's log (docs/protocol.md 4)."""

    kind: ClassVar[str] = "resign_asked"
    seat: int
    partner: int
    deadline: float
    seconds: float


@dataclass(frozen=True, slots=True)
class ResignDeclined:
    """On a table's channel, for a partnership's two seats only: ``seat``'s request to resign
    was declined by ``partner`` (``why``: ``"declined"``) or left unanswered
    (``"unanswered"``); nothing changed."""

    kind: ClassVar[str] = "resign_declined"
    seat: int
    partner: int
    why: Literal["declined", "unanswered"]


# A resign request's news, told to the team only (``web/socket.py`` passes it on to their seats).
ResignNotice = ResignAsked | ResignDeclined


@dataclass(frozen=True, slots=True)
class Missed:
    """To this process's listeners of a table, from its broker: Redis was away, and the table's
    changes told meanwhile may be lost; its channel is heard again from now on, so a socket
    asks for the whole state now (``redis_broker.py``)."""


# What a table's channel carries besides its changes.
TableNotice = SeatPresence | Watchers | ChatSaid | ResignAsked | ResignDeclined | Missed
