"""What happened at a table, as the table keeps it for its views: each committed event with what
the rules made of it (a move's points, the numbers a pass passed on), and the notes the table
derives from events (the host changed, the table closed, a hand over, the game over), each with
the table's version. Typed values only: ``hall/event_view.py`` writes them as clients see them.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...rules import Hand
from ...rules.presets import Bonus
from ...rules.scoring import BonusCount, penalty
from ..events import Event


@dataclass(frozen=True, slots=True)
class HostChanged:
    """The host left (or was removed): ``seat``'s person hosts now."""

    seat: int
    kind = "host"


@dataclass(frozen=True, slots=True)
class Closed:
    """No person is left before the start: the table is closed."""

    kind = "closed"


@dataclass(frozen=True, slots=True)
class TeamPips:
    """A partnership's seats and the pips they hold together at a hand's end."""

    team: int
    seats: tuple[int, ...]
    pips: int


@dataclass(frozen=True, slots=True)
class HandResult:
    """A hand's end as the rules left it: who won and how, every hand revealed, each seat's
    points, and how the bonus was counted (``count``, from ``rules.scoring``)."""

    winner: int | None  # a seat, or None (a blocked tie, or cut short)
    blocked: bool
    cut_short: bool
    bonus: int  # what the winner scored
    bonus_rule: Bonus
    holdings: tuple[int, ...]  # each seat's tiles left, as a mask
    pips: tuple[int, ...]  # each seat's pips left
    points: tuple[int, ...]  # each seat's points this hand (its side's)
    teams: tuple[TeamPips, ...] | None  # partnership: each team's pips
    tied: tuple[int, ...] | None  # a blocked tie (no teams): the seats tied for fewest pips
    count: BonusCount | None  # how the winner's bonus was counted (None: no winner)
    penalties: tuple[int, ...] | None  # net penalty rules: what each seat lost


@dataclass(frozen=True, slots=True)
class HandOver:
    """Hand number ``hand`` ended (``result``)."""

    hand: int
    result: HandResult
    kind = "hand_over"


@dataclass(frozen=True, slots=True)
class GameOver:
    """The game ended: why, who won (None: no winner), the seats out of it (the first out
    first), each seat's score, and its duration in seconds from the start."""

    reason: str  # "rules", "forfeit", "abandoned", "aborted", "cap"
    winner: int | None
    placed_last: tuple[int, ...]
    scores: tuple[int, ...]
    duration: float | None
    # A forfeit by resignation: the seat that resigned, and the partner who agreed (or None).
    resigned: tuple[int, int | None] | None = None
    kind = "game_over"


Note = HostChanged | Closed | HandOver | GameOver


@dataclass(frozen=True, slots=True)
class Happened:
    """One entry of what happened, at the table's ``version``: a committed event or a note it
    caused. ``scored``: the points a move scored (its own, not the hand's bonus); ``open``: the
    numbers a pass passed on."""

    version: int
    event: Event | Note
    scored: int | None = None
    open: tuple[int, ...] | None = None

    @property
    def kind(self) -> str:
        return self.event.kind


def hand_result(hand: Hand) -> HandResult:
    """The end of ``hand`` (over) as the rules counted it."""
    result = hand.result
    assert result is not None
    preset, n = hand.preset, hand.players
    pips = tuple(hand.pips(s) for s in range(n))
    teams = None
    if preset.teams:
        sides = hand.team_pips()
        teams = tuple(
            TeamPips(t, tuple(s for s in range(n) if preset.side_of(s) == t), sides[t])
            for t in range(len(sides))
        )
    tied = None
    if result.winner is None and not result.cut_short and not preset.teams:
        tied = tuple(hand.tied_for_fewest())
    penalties = None
    if result.winner is not None and preset.bonus is Bonus.NET_PENALTY:
        penalties = tuple(
            0 if s == result.winner else penalty(preset.bonus, pips[s]) for s in range(n)
        )
    return HandResult(
        winner=result.winner,
        blocked=result.blocked,
        cut_short=result.cut_short,
        bonus=result.bonus,
        bonus_rule=preset.bonus,
        holdings=tuple(hand.holdings[s] for s in range(n)),
        pips=pips,
        points=tuple(hand.points[preset.side_of(s)] for s in range(n)),
        teams=teams,
        tied=tied,
        count=hand.bonus_count(),
        penalties=penalties,
    )
