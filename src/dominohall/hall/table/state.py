"""One table's state and the queries on it: its options, seats, phase and game, its clocks, who
it waits for and until when. Only ``applying.apply`` changes it (and ``applying.note``, the one
part not in its log: a partnership's pending resign request); ``deciding`` reads it."""

from __future__ import annotations

from collections import deque
from typing import Any

from ...rules import Game, Hand
from ..events import SeatKind
from ..notices import ResignAsked
from ..options import Options
from . import clocks
from .clocks import Due
from .happened import GameOver, Happened
from .parts import Phase, Seat

TAIL = 200  # entries of what happened kept in memory for clients catching up
IN_PLAY = frozenset({Phase.PLAYING, Phase.BETWEEN_HANDS})


class State:
    """One table's state, as its log of events left it, and what can be asked of it."""

    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.options = Options()
        self.created_at = 0.0
        self.version = 0
        self.phase = Phase.SEATING
        self.host: int | None = 0
        self.seats: list[Seat] = []
        self.game: Game | None = None
        self.log: list[Happened] = []  # this hand's events (dealt, moves, hand over)
        self.tail: deque[Happened] = deque(maxlen=TAIL)  # what happened lately, all kinds
        self.turn_since = 0.0  # when the clock of the turn now being played started
        # Turn-based: seconds of this turn charged to no one so far (the hall down, a vacation
        # that was replaced); the vacation under way is counted apart, from its window.
        self.turn_credit = 0.0
        self.turns = 0  # turns begun in this game (a turn's number: one reminder each)
        self.started_at: float | None = None  # when the game started (its duration)
        self.finished_at: float | None = None
        # Turn-based (RULES.md 6): each seat's clock, in seconds, as it stood when its current
        # (or next) turn began; each seat's vacation (start, end), during which it is paused.
        self.clocks: list[float] = []
        # Turn-based: each seat's seconds charged over the whole game (vacations and downtime
        # not counted), for an arena season that ends while the game goes on (hall/seasons.py).
        self.spent: list[float] = []
        self.vacations: dict[int, tuple[float, float]] = {}
        self.reminded_turn = -1  # the turn whose person was reminded their clock runs low
        self.last_turn_of: dict[int, int] = {}  # seat -> the version of its last turn's end
        self.next_hand_since = 0.0  # when the last hand ended
        self.placed_last: list[int] = []  # seats out of the game, the first out first
        self.takeovers: list[dict[str, Any]] = []
        self.turns_done: set[int] = set()  # seats that ended a turn of this game (ranked aborts)
        # Partnership: a resign request waiting for the partner's answer. Held in memory only,
        # not in the log (a restart or reload forgets it: as good as declined, docs/protocol.md).
        self.resign_request: ResignAsked | None = None
        self.result: dict[str, Any] | None = None  # how the game ended (the record's result)
        self.game_over: GameOver | None = None  # the same, with the scores and the duration
        self.rematch_accepted: set[int] = set()  # seats whose person accepted a rematch
        self.rematch_ended: int | None = None  # the seat whose person left: no rematch
        self.rematch_table: str | None = None  # the rematch's table, once everyone accepted

    # Queries --------------------------------------------------------------------------
    @property
    def hand(self) -> Hand | None:
        return self.game.hand if self.game is not None else None

    @property
    def closed(self) -> bool:
        """No person was left before the start: finished with no game."""
        return self.phase is Phase.FINISHED and self.game is None

    @property
    def turn(self) -> int | None:
        """The seat to move, while a hand is being played."""
        hand = self.hand
        if self.phase is not Phase.PLAYING or hand is None or hand.over:
            return None
        return hand.turn

    @property
    def clock_running(self) -> bool:
        """A clock counts down: a person's turn timer, or the wait for the next hand."""
        turn = self.turn
        return (
            turn is not None and self.seats[turn].is_person
        ) or self.phase is Phase.BETWEEN_HANDS

    @property
    def turn_deadline(self) -> float:
        """When the turn timer of the turn being played runs out; on a turn-based table, when the
        clock of the seat to move runs out (its vacation, if any, paused it)."""
        clock = self.options.turn_based
        turn = self.turn
        if clock is None or turn is None:
            return self.turn_since + self.options.turn_seconds
        vacation = self.vacations.get(turn)
        return clocks.runs_out_at(self.turn_since, self.turn_credit, self.clocks[turn], vacation)

    @property
    def reminded_this_turn(self) -> bool:
        """Turn-based: the person to move was reminded that their clock runs low (once a turn)."""
        return self.options.turn_based is not None and self.reminded_turn == self.turns

    @property
    def reminder_at(self) -> float | None:
        """Turn-based: when less than a quarter of the cap is left on the clock of the person to
        move (None: not such a table, or they were reminded this turn already)."""
        clock, turn = self.options.turn_based, self.turn
        if clock is None or turn is None or self.reminded_this_turn:
            return None
        return clocks.remind_at(self.turn_deadline, clock, self.vacations.get(turn))

    def clock_left(self, seat: int, now: float) -> float:
        """Turn-based: the seconds left on ``seat``'s clock at ``now`` (paused on vacation)."""
        if seat == self.turn:
            return max(0.0, self.clocks[seat] - self.used(seat, now))
        return self.clocks[seat]

    def on_vacation(self, seat: int, now: float) -> float | None:
        """When ``seat``'s vacation ends, while it is on one at ``now``."""
        return clocks.on_vacation_until(self.vacations.get(seat), now)

    @property
    def next_hand_deadline(self) -> float:
        """When the next hand starts if not everyone pressed Next hand before."""
        return self.next_hand_since + self.options.next_hand_seconds

    def deadlines(self) -> dict[Due, float]:
        """The table's own deadlines, stored with it (derived from its log, so a restart finds
        them again): the turn timer of a person's turn, or the wait between hands; and a
        pending resign request's end (in memory only, as the request is)."""
        due: dict[Due, float] = {}
        if self.resign_request is not None:
            due[Due.RESIGN] = self.resign_request.deadline
        if self.phase is Phase.BETWEEN_HANDS:
            due[Due.NEXT_HAND] = self.next_hand_deadline
            return due
        turn = self.turn
        if turn is not None and self.seats[turn].is_person:
            due[Due.TURN] = self.turn_deadline
            reminder = self.reminder_at
            if reminder is not None:
                due[Due.REMINDER] = reminder
        return due

    def partner_of(self, seat: int) -> int | None:
        """The seat's partner at a partnership table (seats 0 and 2, 1 and 3), else None."""
        if self.game is None or not self.game.preset.teams:
            return None
        return (seat + 2) % 4

    def seat_of(self, player: str) -> int | None:
        """The seat a person plays (not one they were taken out of)."""
        for seat in self.seats:
            if seat.player == player and seat.kind is SeatKind.HUMAN:
                return seat.seat
        return None

    def was_seated(self, player: str) -> int | None:
        """The seat a person holds or held (out of the game included)."""
        for seat in self.seats:
            if seat.player == player:
                return seat.seat
        return None

    def people(self) -> list[Seat]:
        return [s for s in self.seats if s.is_person]

    def waits_for(self, seat: int) -> bool:
        """Whether the table waits for ``seat``: its move (whoever plays it, a computer player
        too), or its Next hand between hands. The callers ask about seats a person plays (My
        games and the emails find them with ``seat_of``)."""
        between = self.phase is Phase.BETWEEN_HANDS and not self.seats[seat].ready
        return self.turn == seat or between

    def clock_deadline(self) -> float | None:
        """When the clock running now runs out: a person's turn (whoever's), or the wait for
        the next hand; None when none runs (a computer player's turn, before the start)."""
        if self.phase is Phase.BETWEEN_HANDS:
            return self.next_hand_deadline
        turn = self.turn
        if turn is not None and self.seats[turn].is_person:
            return self.turn_deadline
        return None

    def waits_until(self, seat: int) -> float | None:
        """When what the table waits for from the person at ``seat`` runs out (their turn's
        clock, or the wait for the next hand); None when it does not wait for them."""
        if not self.waits_for(seat):
            return None
        return self.next_hand_deadline if self.phase is Phase.BETWEEN_HANDS else self.turn_deadline

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind is SeatKind.EMPTY]

    def player_names(self) -> list[str]:
        return [s.name or "" for s in self.seats]

    def used(self, seat: int, now: float) -> float:
        """Turn-based: the seconds of this turn charged to the clock of ``seat`` (to move) by now."""
        vacation = self.vacations.get(seat)
        return clocks.used(now, self.turn_since, self.turn_credit, vacation)

    def time_used(self, seat: int, now: float) -> float:
        """Turn-based: the seconds ``seat`` has used in the whole game by ``now`` (its turns
        so far and, if it is to move, this one), vacations and the hall's downtime excluded."""
        spent = self.spent[seat] if seat < len(self.spent) else 0.0
        return spent + (self.used(seat, now) if self.turn == seat else 0.0)

    def duration(self, now: float) -> float | None:
        """Seconds from the game's start to its end (to ``now`` while it goes on)."""
        if self.started_at is None:
            return None
        end = self.finished_at if self.finished_at is not None else now
        return max(0.0, end - self.started_at)
