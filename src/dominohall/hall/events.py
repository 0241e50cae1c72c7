"""A table's events: what happened at it, as typed values, and as the bodies its stored log holds.

An event is a fact already decided and committed; ``TableState.apply`` is the only reader that
changes a table with it. ``from_body`` reads every body the log has ever held (it is where an
old shape would be upcast to today's, should one change); ``to_body`` writes today's shape.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..rules import Move
from ..rules.tiles import iter_tiles, parse_tile, tile_name
from .options import Options


class SeatKind(StrEnum):
    EMPTY = "empty"
    HUMAN = "human"
    BOT = "bot"


class MovedBy(StrEnum):
    """Who made a move for its seat."""

    PLAYER = "player"
    TIMER = "timer"  # the turn timer ran out: Normal's move in the person's place
    BOT = "bot"
    FORCED = "forced"  # turn-based: the only move there was (a draw, a pass), made at once


class OutReason(StrEnum):
    """Why a person is out of the game (a computer player takes the seat over)."""

    TIMEOUT = "timeout"
    LEFT = "left"
    DISCONNECTED = "disconnected"
    RESIGNED = "resigned"  # conceded in the open (not abandonment: docs/protocol.md 4)


@dataclass(frozen=True, slots=True)
class SeatAtStart:
    """Who sits in a seat when the table is created."""

    kind: SeatKind
    player: str | None = None
    name: str | None = None
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class Created:
    options: Options
    seats: tuple[SeatAtStart, ...]
    kind = "created"

    def to_body(self) -> dict[str, Any]:
        seats = [
            {"kind": s.kind.value, "player": s.player, "name": s.name, "bot": s.bot}
            for s in self.seats
        ]
        return {"kind": self.kind, "options": self.options.to_json(), "seats": seats}


@dataclass(frozen=True, slots=True)
class Joined:
    seat: int
    player: str
    name: str
    kind = "joined"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "player": self.player, "name": self.name}


@dataclass(frozen=True, slots=True)
class BotSeated:
    seat: int
    bot: str
    kind = "bot_seated"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Removed:
    seat: int
    kind = "removed"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Started:
    kind = "started"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind}


@dataclass(frozen=True, slots=True)
class Dealt:
    """A hand's deal, chosen when it was dealt and kept, so that a replay deals it again."""

    hand: int
    holdings: tuple[int, ...]  # each seat's tiles as a mask
    boneyard: tuple[int, ...]  # in draw order
    leader: int
    kind = "dealt"

    def to_body(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "hand": self.hand,
            "dealt": [[tile_name(t) for t in iter_tiles(h)] for h in self.holdings],
            "boneyard": [tile_name(t) for t in self.boneyard],
            "leader": self.leader,
        }


@dataclass(frozen=True, slots=True)
class Moved:
    """A move made at the table; a draw carries the tile drawn."""

    seat: int
    hand: int
    move: Move
    by: MovedBy = MovedBy.PLAYER
    kind = "move"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, **self.move.to_json(self.seat), "hand": self.hand, "by": self.by}


@dataclass(frozen=True, slots=True)
class Resumed:
    """The hall was down ``downtime`` seconds: the running clock gets them back."""

    downtime: float
    kind = "resumed"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "downtime": self.downtime}


@dataclass(frozen=True, slots=True)
class Vacation:
    """Turn-based: the person at ``seat`` is on vacation from ``start`` to ``end`` (their clock is
    paused then); a later one for the seat replaces it (``end`` set earlier: ended early)."""

    seat: int
    start: float
    end: float
    kind = "vacation"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "start": self.start, "end": self.end}


@dataclass(frozen=True, slots=True)
class Reminded:
    """Turn-based: the person at ``seat`` was reminded that their clock runs low (once a turn)."""

    seat: int
    kind = "reminded"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Ready:
    """A seat pressed Next hand."""

    seat: int
    kind = "ready"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class WatchingSet:
    """The host opened the table's game to watchers (``open``) or closed it to them: the
    option ``open_to_watchers`` from now on."""

    open: bool
    kind = "watching"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "open": self.open}


@dataclass(frozen=True, slots=True)
class Renamed:
    """The person at ``seat`` is shown as ``name`` from now on (an operator's name reset). The
    player id is kept for a deleted account's redaction (``store/deletion.py``); no client sees
    it (``seat_view.py``)."""

    seat: int
    player: str
    name: str
    kind = "renamed"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "player": self.player, "name": self.name}


@dataclass(frozen=True, slots=True)
class Out:
    """The person at ``seat`` is out of the game. Resigned at a partnership table, their team
    concedes the game: ``agreed`` is the partner's seat whose person agreed (None: the partner
    is a computer player, which needs no asking)."""

    seat: int
    reason: OutReason
    agreed: int | None = None
    kind = "out"

    def to_body(self) -> dict[str, Any]:
        body = {"kind": self.kind, "seat": self.seat, "reason": self.reason.value}
        if self.agreed is not None:
            body["agreed"] = self.agreed
        return body


@dataclass(frozen=True, slots=True)
class Rematch:
    """A person seated at a game's end accepted a rematch, or declined it (left)."""

    seat: int
    accept: bool
    kind = "rematch"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat, "accept": self.accept}


@dataclass(frozen=True, slots=True)
class RematchTable:
    """Everyone accepted: the rematch's new table."""

    table: str
    kind = "rematch_table"

    def to_body(self) -> dict[str, Any]:
        return {"kind": self.kind, "table": self.table}


Event = (
    Created
    | Joined
    | BotSeated
    | Removed
    | Started
    | Dealt
    | Moved
    | Resumed
    | Vacation
    | Reminded
    | Ready
    | Out
    | Rematch
    | RematchTable
    | WatchingSet
    | Renamed
)


def _mask(tiles: list[str]) -> int:
    mask = 0
    for name in tiles:
        mask |= 1 << parse_tile(name)
    return mask


def from_body(body: dict[str, Any]) -> Event:
    """The event a stored body holds (any shape the log has ever held)."""
    kind = body["kind"]
    if kind == "move":
        return Moved(
            body["seat"], body["hand"], Move.parse(body), MovedBy(body.get("by", "player"))
        )
    if kind == "dealt":
        return Dealt(
            body["hand"],
            tuple(_mask(h) for h in body["dealt"]),
            tuple(parse_tile(t) for t in body["boneyard"]),
            body["leader"],
        )
    if kind == "created":
        seats = tuple(
            SeatAtStart(SeatKind(s["kind"]), s["player"], s["name"], s["bot"])
            for s in body["seats"]
        )
        return Created(Options.from_json(body["options"]), seats)
    if kind == "joined":
        return Joined(body["seat"], body["player"], body["name"])
    if kind == "bot_seated":
        return BotSeated(body["seat"], body["bot"])
    if kind == "removed":
        return Removed(body["seat"])
    if kind == "started":
        return Started()
    if kind == "resumed":
        return Resumed(body["downtime"])
    if kind == "vacation":
        return Vacation(body["seat"], body["start"], body["end"])
    if kind == "reminded":
        return Reminded(body["seat"])
    if kind == "ready":
        return Ready(body["seat"])
    if kind == "out":
        return Out(body["seat"], OutReason(body["reason"]), body.get("agreed"))
    if kind == "watching":
        return WatchingSet(body["open"])
    if kind == "renamed":
        return Renamed(body["seat"], body["player"], body["name"])
    if kind == "rematch":
        return Rematch(body["seat"], body["accept"])
    if kind == "rematch_table":
        return RematchTable(body["table"])
    raise ValueError(f"unknown event kind {kind!r}")
