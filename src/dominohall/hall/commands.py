"""What may be asked of a table, as typed values: by its players, its host, its clocks and its
computer players. ``TableState.decide`` turns a command into events, or refuses it with a
``HallError``; a command changes nothing by itself.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..rules import Move
from .events import SeatAtStart
from .options import BotLevel, Options


@dataclass(frozen=True, slots=True)
class Open:
    """A new table (decided on a table with no events yet): its options and seats at the start,
    and whether its game starts at once (Play now, a rematch)."""

    options: Options
    seats: tuple[SeatAtStart, ...]
    start: bool = False


@dataclass(frozen=True, slots=True)
class Join:
    player: str
    name: str
    seat: int | None = None  # None: the first free seat


@dataclass(frozen=True, slots=True)
class SeatBot:
    player: str  # the host
    seat: int
    bot: BotLevel


@dataclass(frozen=True, slots=True)
class Remove:
    player: str  # the host
    seat: int


@dataclass(frozen=True, slots=True)
class Start:
    player: str  # the host


@dataclass(frozen=True, slots=True)
class SetWatching:
    """The host of a private table opens its game to watchers (``open``) or closes it again."""

    player: str  # the host
    open: bool


@dataclass(frozen=True, slots=True)
class Rename:
    """An operator reset the player's name (``moderating.py``): the seat they play shows the new
    one at once, not after this game."""

    player: str
    name: str


@dataclass(frozen=True, slots=True)
class Leave:
    player: str


@dataclass(frozen=True, slots=True)
class Resign:
    """A person concedes the game (``now``: when they asked, for a partner's 30 s to answer).
    At a partnership table with a person as partner, it asks the partner first."""

    player: str
    now: float


@dataclass(frozen=True, slots=True)
class AnswerResign:
    """A partner's answer to the resign request their partner made."""

    player: str
    accept: bool


@dataclass(frozen=True, slots=True)
class ResignUnanswered:
    """The resign request's 30 s came (``now``): unanswered, it is declined."""

    now: float


@dataclass(frozen=True, slots=True)
class MakeMove:
    """A person's move; a draw with ``until_fits`` keeps drawing while nothing fits."""

    player: str
    move: Move
    until_fits: bool = False
    version: int | None = None  # the version the person saw (None: any)


@dataclass(frozen=True, slots=True)
class PressNextHand:
    player: str


@dataclass(frozen=True, slots=True)
class AnswerRematch:
    """A person seated at a finished game's end accepts a rematch (or declines it).

    ``new_table``: the id the rematch's table takes if this answer is the last acceptance (the
    caller picks a fresh one for each answer; ``decide`` names it in a ``RematchTable``)."""

    player: str
    accept: bool
    new_table: str = ""


@dataclass(frozen=True, slots=True)
class GoneAfterTheEnd:
    """The person at ``seat`` closed their last socket on a finished table: the rematch offer
    (if it stands) ends."""

    seat: int


@dataclass(frozen=True, slots=True)
class ComputerTurn:
    """A computer player's moves at ``seat``, as it chose them from the table at ``version``
    (``computer.py``): its whole turn (Easy, Normal: draws with their tiles, then a play or a
    pass), or its next move (Hard, from a worker). A table that moved on decides it into nothing."""

    seat: int
    version: int
    moves: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class TurnTimeUp:
    """The turn timer's deadline came (a move made meanwhile started another turn's timer).
    ``moves``: the autoplay's whole turn for the seat to move (Normal's, chosen by the timer:
    ``computer.turn_of``), played if the timer runs out on a person for the first time."""

    now: float
    moves: tuple[Move, ...] = ()


@dataclass(frozen=True, slots=True)
class MakeForcedMoves:
    """Turn-based: make the seat's draws or its pass when nothing else is allowed (RULES.md 6)."""


@dataclass(frozen=True, slots=True)
class Remind:
    """Turn-based: the reminder's deadline came (less than a quarter of the cap is left)."""

    now: float


@dataclass(frozen=True, slots=True)
class SetVacation:
    """Turn-based: ``player``'s vacation is now ``start``..``end`` (``end`` now: it ended)."""

    player: str
    start: float
    end: float


@dataclass(frozen=True, slots=True)
class DealNextHand:
    """Everyone is ready (``now`` None), or the wait between hands ran out (by ``now``)."""

    now: float | None = None


@dataclass(frozen=True, slots=True)
class GraceOver:
    """The person at ``seat`` did not come back within the grace period."""

    seat: int


@dataclass(frozen=True, slots=True)
class Resume:
    """The hall restarted after ``downtime`` seconds down."""

    downtime: float


Command = (
    Open
    | Join
    | SeatBot
    | Remove
    | Start
    | SetWatching
    | Rename
    | Leave
    | Resign
    | AnswerResign
    | ResignUnanswered
    | MakeMove
    | PressNextHand
    | AnswerRematch
    | GoneAfterTheEnd
    | ComputerTurn
    | TurnTimeUp
    | MakeForcedMoves
    | Remind
    | SetVacation
    | DealNextHand
    | GraceOver
    | Resume
)
