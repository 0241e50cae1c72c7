"""What a table is made of besides its game, as plain data: the phase it is in and its seats
(apart, so that the rules about a finished table, ``rematch.py``, name them without the state)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..events import SeatKind


class Phase(StrEnum):
    SEATING = "seating"
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    FINISHED = "finished"


@dataclass
class Seat:
    seat: int
    kind: SeatKind = SeatKind.EMPTY
    player: str | None = None  # the person's player id (kept after a computer takes over)
    name: str | None = None
    bot: str | None = None  # the computer player's level
    out: str | None = None  # why the person is out of the game: timeout, left, disconnected
    timeouts: int = 0  # 1 after the timer ran out on this seat's last turn
    ready: bool = False  # pressed Next hand

    @property
    def is_person(self) -> bool:
        """A person plays this seat (not empty, not a computer player)."""
        return self.kind is SeatKind.HUMAN
