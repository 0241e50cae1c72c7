"""One table as a state machine: ``decide`` turns a command into events, ``apply`` changes it.

``decide`` checks a command against the table and the rules and returns the events it causes (or
raises a ``HallError`` naming what was wrong); a move is made there, once, on the table's own
hand. ``apply`` is the only way the table changes, live and when the log is replayed after a
restart, so both give the same table; it refuses an event the table's phase does not allow. It
decides nothing by chance and reads no clock (each event carries its time).

Phases: seating -> playing <-> between hands -> finished (a table that closed before its game
started is finished with no game).
"""

from __future__ import annotations

import contextlib
import random
import secrets
from collections import deque
from collections.abc import Callable, Iterable
from typing import Any

from ..bots import make_bot
from ..rules import DRAW, PASS, Game, Hand, IllegalMoveError, Move, tile_name, tiles_of
from ..rules.game import deal
from ..rules.moves import MoveKind
from ..rules.presets import Bonus as BonusRule
from ..rules.scoring import penalty
from ..rules.tiles import RANK
from . import commands as c
from . import turn_clock
from .deadlines import Due
from .errors import HallError
from .events import (
    BotSeated,
    Created,
    Dealt,
    Event,
    Joined,
    Moved,
    MovedBy,
    Out,
    OutReason,
    Ready,
    Rematch,
    RematchTable,
    Reminded,
    Removed,
    Resumed,
    SeatKind,
    Started,
    Vacation,
    from_body,
)
from .options import Options
from .rematch import decide_rematch
from .table_parts import Phase as Phase
from .table_parts import Seat as Seat

TAIL = 200  # events kept in memory for clients catching up


class WrongTransition(RuntimeError):
    """An event the table's phase does not allow: a bug, or a log that is not this table's."""


def result_of_hand(game: Game, hand: Hand) -> dict[str, Any]:
    """The end of a hand as clients see it: every hand revealed, the winner and the bonus."""
    assert hand.result is not None
    preset = game.preset
    n = hand.players
    return {
        "winner": hand.result.winner,
        "blocked": hand.result.blocked,
        "bonus": hand.result.bonus,
        "bonus_rule": preset.bonus.value,
        "cut_short": hand.result.cut_short,
        "revealed": [_names(hand.holdings[s]) for s in range(n)],
        "pips": [hand.pips(s) for s in range(n)],
        "points": [hand.points[preset.side_of(s)] for s in range(n)],
        "breakdown": breakdown_of(hand),
    }


def breakdown_of(hand: Hand) -> dict[str, Any]:
    """Why the hand ended as it did and how its bonus was counted, as the rules counted it, so
    that a client only words it (docs/protocol.md 3.3)."""
    assert hand.result is not None
    preset, result, n = hand.preset, hand.result, hand.players
    pips = [hand.pips(s) for s in range(n)]
    teams = None
    if preset.teams:
        sides = hand.team_pips()
        members = [[s for s in range(n) if preset.side_of(s) == t] for t in range(len(sides))]
        teams = [{"team": t, "seats": members[t], "pips": sides[t]} for t in range(len(sides))]
    if result.winner is None:
        why = "cut_short" if result.cut_short else "team_tie" if preset.teams else "tie"
        tied = hand.tied_for_fewest() if why == "tie" else None
        return {"why": why, "tied": tied, "teams": teams, "bonus": None, "penalties": None}
    count = hand.bonus_count()
    assert count is not None
    why = "out" if not result.blocked else "fewest_team_pips" if preset.teams else "fewest_pips"
    bonus = {
        "counted": list(count.counted),
        "pips": count.pips,
        "own": count.own,
        "net": count.net,
        "rounded": count.rounded,
        "units": count.units,
        "value": count.bonus,
        "scored": result.bonus,
        # The rules score nothing that would pass an exact target (RULES.md 5).
        "not_scored": "past_target" if count.bonus and not result.bonus else None,
    }
    penalties = None
    if preset.bonus is BonusRule.NET_PENALTY:
        penalties = [0 if s == result.winner else penalty(preset.bonus, pips[s]) for s in range(n)]
    return {"why": why, "tied": None, "teams": teams, "bonus": bonus, "penalties": penalties}


def _names(mask: int) -> list[str]:
    return [tile_name(t) for t in sorted(tiles_of(mask), key=lambda t: -RANK[t])]


def deal_next(game: Game, rng: random.Random) -> Dealt:
    """The next hand's deal and leader, chosen now (and then written in the log)."""
    holdings, boneyard = deal(game.preset, game.players, rng)
    leader = game.choose_leader(game.lead_rule(holdings), rng)
    return Dealt(len(game.hands), tuple(holdings), tuple(boneyard), leader)


class TableState:
    def __init__(self, table_id: str) -> None:
        self.id = table_id
        self.options = Options()
        self.created_at = 0.0
        self.version = 0
        self.phase = Phase.SEATING
        self.host: int | None = 0
        self.seats: list[Seat] = []
        self.game: Game | None = None
        self.log: list[dict[str, Any]] = []  # this hand's events (dealt, move, hand_over)
        self.tail: deque[dict[str, Any]] = deque(maxlen=TAIL)  # recent events, all kinds
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
        self.vacations: dict[int, tuple[float, float]] = {}
        self.reminded_turn = -1  # the turn whose person was reminded their clock runs low
        self.last_turn_of: dict[int, int] = {}  # seat -> the version of its last turn's end
        self.next_hand_since = 0.0  # when the last hand ended
        self.placed_last: list[int] = []  # seats out of the game, the first out first
        self.takeovers: list[dict[str, Any]] = []
        self.turns_done: set[int] = set()  # seats that ended a turn of this game (ranked aborts)
        self.result: dict[str, Any] | None = None  # how the game ended (the record's result)
        self.rematch_accepted: set[int] = set()  # seats whose person accepted a rematch
        self.rematch_ended: int | None = None  # the seat whose person left: no rematch
        self.rematch_table: str | None = None  # the rematch's table, once everyone accepted
        # Moves tried on the hand while a command is decided (each with its drawn tile); empty
        # whenever ``decide`` is not running.
        self._decided: list[Move] = []

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
        return turn_clock.runs_out_at(
            self.turn_since, self.turn_credit, self.clocks[turn], vacation
        )

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
        return turn_clock.remind_at(self.turn_deadline, clock, self.vacations.get(turn))

    def clock_left(self, seat: int, now: float) -> float:
        """Turn-based: the seconds left on ``seat``'s clock at ``now`` (paused on vacation)."""
        if seat == self.turn:
            return max(0.0, self.clocks[seat] - self._used(seat, now))
        return self.clocks[seat]

    def on_vacation(self, seat: int, now: float) -> float | None:
        """When ``seat``'s vacation ends, while it is on one at ``now``."""
        return turn_clock.on_vacation_until(self.vacations.get(seat), now)

    @property
    def next_hand_deadline(self) -> float:
        """When the next hand starts if not everyone pressed Next hand before."""
        return self.next_hand_since + self.options.next_hand_seconds

    def deadlines(self) -> dict[Due, float]:
        """The table's own deadlines, stored with it (derived from its log, so a restart finds
        them again): the turn timer of a person's turn, or the wait between hands."""
        if self.phase is Phase.BETWEEN_HANDS:
            return {Due.NEXT_HAND: self.next_hand_deadline}
        turn = self.turn
        if turn is not None and self.seats[turn].is_person:
            due = {Due.TURN: self.turn_deadline}
            reminder = self.reminder_at
            if reminder is not None:
                due[Due.REMINDER] = reminder
            return due
        return {}

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
        """Whether the table waits for the person at ``seat``: their move, or their Next hand."""
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

    # Deciding -------------------------------------------------------------------------
    def decide(self, command: c.Command, rng: random.Random) -> list[Event]:
        """The events ``command`` causes (none: it no longer applies), or a ``HallError``.

        The table is left as it was: moves are tried on the hand to find their events and
        taken back before this returns, so that only ``apply`` of committed events changes it.
        """
        return self.decide_ending(command, rng)[0]

    def decide_ending(self, command: c.Command, rng: random.Random) -> tuple[list[Event], bool]:
        """``decide``, and whether those events may end the game (a superset: ``_finish``, or a
        table emptied before its start), told while the moves are on the hand anyway."""
        try:
            events = self._decide(command, rng)
            if self._decided and self.options.turn_based is not None:
                # The next person's forced draws or pass go in the same change: no update shows
                # a turn whose only move the hall makes anyway (docs/protocol.md 7).
                events += self._forced_moves()
            ending = self._may_finish(events)
            if self._deals_at_once():
                assert self.game is not None
                events.append(deal_next(self.game, rng))
            return events, ending
        finally:
            self._take_back()

    def _deals_at_once(self) -> bool:
        """Turn-based: the moves just decided end the hand but not the game, so the next hand is
        dealt in the same change (docs/protocol.md 7): the table is never between hands."""
        game, hand = self.game, self.hand
        if self.options.turn_based is None or not self._decided or game is None or hand is None:
            return False
        return hand.over and not game.ends_with(hand)

    def _decide(self, command: c.Command, rng: random.Random) -> list[Event]:
        if self.version == 0 or isinstance(command, c.Open):
            return self._decide_open(command, rng)
        if isinstance(command, c.MakeMove):
            return self._decide_move(command)
        if isinstance(command, c.ComputerTurn):
            return self._decide_computer_turn(command)
        if isinstance(command, c.TurnTimeUp):
            return self._decide_time_up(command)
        if isinstance(command, c.MakeForcedMoves):
            return self._decide_forced()
        if isinstance(command, c.Remind):
            reminder, turn = self.reminder_at, self.turn
            if reminder is None or turn is None or command.now < reminder:
                return []
            return [Reminded(turn)] if self.seats[turn].is_person else []
        if isinstance(command, c.SetVacation):
            seat = self.seat_of(command.player)
            if seat is None or self.options.turn_based is None or self.phase not in self._IN_PLAY:
                return []
            return [Vacation(seat, command.start, command.end)]
        if isinstance(command, c.PressNextHand):
            seat = self._player_seat(command.player)
            if self.phase is not Phase.BETWEEN_HANDS:
                raise HallError("not_between_hands", "Next hand is pressed between hands only")
            return [] if self.seats[seat].ready else [Ready(seat)]
        if isinstance(command, c.DealNextHand):
            if self.phase is not Phase.BETWEEN_HANDS:
                return []
            if command.now is not None and command.now < self.next_hand_deadline:
                return []
            assert self.game is not None
            return [deal_next(self.game, rng)]
        if isinstance(command, c.Join):
            return self._decide_join(command)
        if isinstance(command, c.SeatBot):
            self._seating(host=command.player)
            self._check_seat(command.seat)
            if self.seats[command.seat].kind is not SeatKind.EMPTY:
                raise HallError("seat_taken", f"seat {command.seat} is taken")
            return [BotSeated(command.seat, command.bot.value)]
        if isinstance(command, c.Remove):
            self._seating(host=command.player)
            self._check_seat(command.seat)
            if command.seat == self.host:
                raise HallError(
                    "bad_request", "the host cannot remove their own seat: leave instead"
                )
            if self.seats[command.seat].kind is SeatKind.EMPTY:
                raise HallError("no_seat", f"seat {command.seat} is empty")
            return [Removed(command.seat)]
        if isinstance(command, c.Start):
            self._seating(host=command.player)
            if self.free_seats():
                free = ", ".join(map(str, self.free_seats()))
                raise HallError(
                    "seats_not_filled", f"every seat must be filled first (free: {free})"
                )
            o = self.options
            return [Started(), deal_next(Game(o.preset, o.seats, o.target), rng)]
        if isinstance(command, c.Leave):
            seat = self.seat_of(command.player)
            if seat is None:
                raise HallError("not_seated", "you have no seat at this table")
            if self.phase is Phase.SEATING:
                return [Removed(seat)]
            if self.phase is Phase.FINISHED:
                raise HallError("not_playing", "the game is over")
            return [Out(seat, OutReason.LEFT)]
        if isinstance(command, c.GraceOver):
            if not self.seats[command.seat].is_person:
                return []
            if self.phase is Phase.SEATING:
                return [Removed(command.seat)]
            if self.phase is Phase.FINISHED:
                return []
            return [Out(command.seat, OutReason.DISCONNECTED)]
        if isinstance(command, c.AnswerRematch | c.GoneAfterTheEnd):
            return decide_rematch(self, command)
        if isinstance(command, c.Resume):
            if self.clock_running and command.downtime > 0:
                return [Resumed(command.downtime)]
            return []
        raise TypeError(f"not a command: {command!r}")

    def _may_finish(self, events: list[Event]) -> bool:
        """Whether these events, decided with their moves on the hand, may end the game."""
        if any(isinstance(e, Out | Removed) for e in events):
            return True
        moves = [e for e in events if isinstance(e, Moved)]
        hand = self.hand
        if not moves or hand is None:
            return False
        if hand.over:
            # The game ends with this hand only if someone reached the target or fell to the
            # floor (Game._check_end): most hands end with neither.
            floor, scores = hand.preset.floor, hand.scores
            return (
                hand.reached_target is not None
                or max(scores) >= hand.target
                or (floor is not None and min(scores) <= floor)
            )
        return self.options.ranked is not None and any(e.by is MovedBy.TIMER for e in moves)

    def _take_back(self) -> None:
        """Undo the moves tried on the hand while deciding."""
        while self._decided:
            self._decided.pop()
            assert self.hand is not None
            self.hand.pop()

    def _decide_open(self, command: c.Command, rng: random.Random) -> list[Event]:
        """A table with no events yet takes an ``Open`` only, and only such a table does."""
        if not isinstance(command, c.Open):
            raise HallError("no_table", f"table {self.id} is not open yet")
        if self.version != 0:
            raise HallError("bad_request", f"table {self.id} is open already")
        o = command.options
        events: list[Event] = [Created(o, command.seats)]
        if command.start:
            events += [Started(), deal_next(Game(o.preset, o.seats, o.target), rng)]
        return events

    def _decide_join(self, command: c.Join) -> list[Event]:
        self._seating()
        held = self.was_seated(command.player)
        if held is not None:
            raise HallError("already_seated", f"you already sit at seat {held}")
        free = self.free_seats()
        seat = command.seat
        if seat is None:
            if not free:
                raise HallError("table_full", "every seat is taken")
            seat = free[0]
        self._check_seat(seat)
        if seat not in free:
            raise HallError("seat_taken", f"seat {seat} is taken")
        return [Joined(seat, command.player, command.name)]

    def _decide_move(self, command: c.MakeMove) -> list[Event]:
        seat = self._player_seat(command.player)
        if command.version is not None and command.version != self.version:
            raise HallError(
                "stale",
                f"the table is at version {self.version}, not {command.version}: look again",
            )
        hand = self.hand
        if self.phase is not Phase.PLAYING or hand is None or hand.over:
            raise HallError("not_playing", "no hand is being played now")
        if hand.turn != seat:
            raise HallError(
                "not_your_turn", f"it is seat {hand.turn}'s turn ({self.seats[hand.turn].name})"
            )
        try:
            self._make(hand, command.move)
        except IllegalMoveError as exc:
            raise HallError("illegal_move", str(exc)) from None
        if command.until_fits and command.move == DRAW:
            while hand.legal_moves() == [DRAW]:
                self._make(hand, DRAW)
        return self._moves_of(seat, MovedBy.PLAYER)

    def _decide_computer_turn(self, command: c.ComputerTurn) -> list[Event]:
        hand, seat = self.hand, command.seat
        if command.version != self.version or self.turn != seat or hand is None:
            return []  # the table moved on while the computer thought
        if self.seats[seat].kind is not SeatKind.BOT:
            return []
        if command.move is not None:
            # A chosen move that does not fit is not played: the level's own turn below.
            with contextlib.suppress(IllegalMoveError):
                self._make(hand, command.move)
        if not self._decided:
            level = "normal" if command.level == "hard" else command.level
            self._make_turn(hand, seat, level)
        return self._moves_of(seat, MovedBy.BOT)

    def _decide_time_up(self, command: c.TurnTimeUp) -> list[Event]:
        turn, hand = self.turn, self.hand
        if turn is None or hand is None or not self.seats[turn].is_person:
            return []
        if command.now < self.turn_deadline:
            return []  # a move came in meanwhile: this turn's timer is another
        if self.options.turn_based is not None:
            return [Out(turn, OutReason.TIMEOUT)]  # a turn-based clock: out at once, no autoplay
        if self.seats[turn].timeouts:
            # Out of time twice running: out of the game (a computer player takes over).
            return [Out(turn, OutReason.TIMEOUT)]
        self._make_turn(hand, turn, "normal")
        return self._moves_of(turn, MovedBy.TIMER)

    def _decide_forced(self) -> list[Event]:
        if self.options.turn_based is None:
            return []
        return self._forced_moves()

    def _forced_moves(self) -> list[Event]:
        """Turn-based: the draws of a person with nothing that fits, or their pass (and so on for
        each next person with no choice), made at once."""
        events: list[Event] = []
        hand = self.hand
        while hand is not None and (turn := self.turn) is not None:
            if not self.seats[turn].is_person:
                break
            made = len(self._decided)
            if hand.legal_moves() == [PASS]:
                self._make(hand, PASS)
            else:
                while not hand.over and hand.turn == turn and hand.legal_moves() == [DRAW]:
                    self._make(hand, DRAW)
            if len(self._decided) == made:
                break  # a choice of their own
            number = len(self.game.hands) - 1 if self.game is not None else 0
            events += [Moved(turn, number, m, MovedBy.FORCED) for m in self._decided[made:]]
        return events

    def _make(self, hand: Hand, move: Move) -> None:
        """Try one move on the table's hand while deciding (``decide`` takes it back)."""
        hand.push(move)
        self._decided.append(hand.history[-1][1])  # a draw with its tile, as the log needs it

    def _make_turn(self, hand: Hand, seat: int, level: str) -> None:
        """Make a computer player's whole turn for ``seat`` (draws, then a play or a pass)."""
        bot = make_bot(level, seed=secrets.randbits(32))
        while not hand.over and hand.turn == seat:
            self._make(hand, bot.choose(hand.view(seat)))

    def _moves_of(self, seat: int, by: MovedBy) -> list[Event]:
        assert self.game is not None
        number = len(self.game.hands) - 1
        return [Moved(seat, number, move, by) for move in self._decided]

    def _seating(self, host: str | None = None) -> None:
        if self.phase is not Phase.SEATING:
            raise HallError("not_seating", "the game has started: seats are settled")
        if host is not None and self.seat_of(host) != self.host:
            raise HallError("not_host", "only the host can do that")

    def _check_seat(self, seat: int) -> None:
        if not 0 <= seat < len(self.seats):
            raise HallError(
                "no_seat", f"this table has seats 0 to {len(self.seats) - 1}, not {seat!r}"
            )

    def _player_seat(self, player: str) -> int:
        seat = self.seat_of(player)
        if seat is None:
            if self.was_seated(player) is not None:
                raise HallError("out", "you are out of this game: you may watch, not play")
            raise HallError("spectator", "you have no seat at this table: you may watch, not play")
        return seat

    # Applying -------------------------------------------------------------------------
    @classmethod
    def replay(
        cls, table_id: str, events: Iterable[tuple[int, float, dict[str, Any]]]
    ) -> TableState:
        """A table as its log of (version, at, body) events leaves it."""
        state = cls(table_id)
        for _version, at, body in events:
            state.apply(from_body(body), at)
        return state

    def apply(
        self, event: Event, at: float, body: dict[str, Any] | None = None
    ) -> list[dict[str, Any]]:
        """Apply one committed event; returns it and the events it caused, as clients see them
        (each with the table's version). ``body``: the event's stored body, if made already."""
        handler = self._HANDLERS[type(event)]
        allowed = self._ALLOWED[type(event)]
        if self.phase not in allowed or (isinstance(event, Created) != (self.version == 0)):
            raise WrongTransition(f"{event.kind} at a table in phase {self.phase.value}")
        self.version += 1
        shown = {"version": self.version, **(body or event.to_body())}
        out = [shown]
        handler(self, event, shown, at, out)
        self.tail.extend(out)
        return out

    def _on_created(self, e: Created, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        self.options = e.options
        self.created_at = at
        self.seats = [Seat(i) for i in range(self.options.seats)]
        for i, s in enumerate(e.seats):
            seat = self.seats[i]
            seat.kind, seat.player, seat.name, seat.bot = s.kind, s.player, s.name, s.bot
        # The creator sits at seat 0; a rematch may seat a computer player there.
        self.host = next((s.seat for s in self.seats if s.is_person), 0)

    def _on_joined(self, e: Joined, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        seat = self.seats[e.seat]
        seat.kind, seat.player, seat.name, seat.bot = SeatKind.HUMAN, e.player, e.name, None

    def _on_bot_seated(
        self, e: BotSeated, shown: dict[str, Any], at: float, out: list[Any]
    ) -> None:
        seat = self.seats[e.seat]
        seat.kind, seat.player, seat.name, seat.bot = SeatKind.BOT, None, e.bot.title(), e.bot

    def _on_removed(self, e: Removed, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        self.seats[e.seat] = Seat(e.seat)
        if self.host == e.seat or not self.people():
            people = self.people()
            self.host = people[0].seat if people else None
            if self.host is not None:
                out.append({"version": self.version, "kind": "host", "seat": self.host})
        if not self.people():
            self.phase = Phase.FINISHED
            out.append({"version": self.version, "kind": "closed"})

    def _on_started(self, e: Started, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        o = self.options
        self.game = Game(o.preset, o.seats, o.target)
        self.phase = Phase.PLAYING
        self.started_at = at
        clock = o.turn_based
        self.clocks = [clock.increment if clock is not None else 0.0] * o.seats

    def _on_dealt(self, e: Dealt, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        assert self.game is not None
        if self.phase is Phase.PLAYING and self.game.hands:
            raise WrongTransition("a deal while a hand is being played")
        self.game.start_hand(list(e.holdings), list(e.boneyard), e.leader)
        self.phase = Phase.PLAYING
        self.log = [shown]
        self.turn_since = at
        self.turn_credit = 0.0
        self.turns += 1
        for seat in self.seats:
            seat.ready = False

    def _on_moved(self, e: Moved, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        game, hand = self.game, self.hand
        assert game is not None and hand is not None
        seat = e.seat
        if hand.over or hand.turn != seat:
            raise WrongTransition(f"a move of seat {seat} out of turn")
        side = game.preset.side_of(seat)
        before = hand.scores[side]
        hand.push(e.move)
        scored = hand.scores[side] - before if e.move.is_play else 0
        result = hand.result
        going_out = result is not None and result.winner == seat and not result.blocked
        if going_out:
            scored -= result.bonus  # type: ignore[union-attr]  # the bonus is the hand's
        shown["scored"] = scored
        if e.move.kind is MoveKind.PASS:  # the numbers passed on, for the log's words
            shown["open"] = sorted(set(hand.layout.open_numbers()))
        self.log.append(shown)
        first_turn = seat not in self.turns_done
        ends_turn = e.move.kind is not MoveKind.DRAW  # a play or a pass ends the turn
        if ends_turn:
            self.turns_done.add(seat)
            if e.by is MovedBy.PLAYER:  # (a forced move is not one the person saw)
                self.last_turn_of[seat] = self.version
            self._charge_clock(seat, at)
        if e.by is MovedBy.TIMER:
            self.seats[seat].timeouts = 1
        elif e.by is MovedBy.PLAYER:
            self.seats[seat].timeouts = 0
        if hand.over or hand.turn != seat:
            self.turn_since = at
            self.turn_credit = 0.0
            self.turns += 1
        if self.options.ranked is not None and e.by is MovedBy.TIMER and first_turn and ends_turn:
            # Ranked: a seat whose first turn runs out ends the game at once, unrated.
            self._finish({"reason": "aborted", "winner": None}, out, at)
            return
        if not hand.over:
            return
        game.end_hand()
        ended = {
            "version": self.version,
            "kind": "hand_over",
            "hand": len(game.hands) - 1,
            "result": result_of_hand(game, hand),
        }
        self.log.append(ended)
        out.append(ended)
        if game.finished:
            self._finish({"reason": "rules", "winner": game.winner}, out, at)
        else:
            self.phase = Phase.BETWEEN_HANDS
            self.next_hand_since = at
            for s in self.seats:
                s.ready = not s.is_person

    def _charge_clock(self, seat: int, at: float) -> None:
        """Turn-based: a seat's turn ended at ``at``: its clock loses the time it took (not its
        vacation) and gains the increment, up to the cap."""
        clock = self.options.turn_based
        if clock is None:
            return
        spent = self._used(seat, at)
        self.clocks[seat] = turn_clock.left_after_turn(self.clocks[seat], spent, clock)

    def _used(self, seat: int, now: float) -> float:
        """Turn-based: the seconds of this turn charged to the clock of ``seat`` (to move) by now."""
        vacation = self.vacations.get(seat)
        return turn_clock.used(now, self.turn_since, self.turn_credit, vacation)

    def _on_vacation(self, e: Vacation, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        old = self.vacations.get(e.seat)
        if old is not None and self.turn == e.seat:
            # The vacation it replaces paused this turn's clock so far: given back for good.
            self.turn_credit += turn_clock.overlap(self.turn_since, at, old)
        # From now on (what went before is settled): an early end leaves an empty window.
        self.vacations[e.seat] = (max(e.start, at), max(e.end, at))

    def _on_reminded(self, e: Reminded, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        self.reminded_turn = self.turns

    def _on_resumed(self, e: Resumed, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        # The hall was down e.downtime seconds: the running clock is given them back.
        turn = self.turn
        if self.options.turn_based is not None and turn is not None:
            # (none of it twice: the part the vacation under way paused is paused already)
            down = e.downtime - turn_clock.overlap(at - e.downtime, at, self.vacations.get(turn))
            self.turn_credit += down
        else:
            self.turn_since += e.downtime
        self.next_hand_since += e.downtime

    def _on_ready(self, e: Ready, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        self.seats[e.seat].ready = True

    def _on_out(self, e: Out, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        seat = self.seats[e.seat]
        seat.out = e.reason.value
        seat.timeouts = 0
        self.placed_last.append(seat.seat)
        if self.options.ranked is not None and seat.seat not in self.turns_done:
            self._finish({"reason": "aborted", "winner": None}, out, at)
            return
        if self.options.seats == 2:
            self._finish({"reason": "forfeit", "winner": 1 - seat.seat}, out, at)
            return
        game, hand = self.game, self.hand
        assert game is not None
        seat.kind, seat.bot, seat.ready = SeatKind.BOT, "normal", True
        if hand is None or hand.over:
            where = (len(game.hands), 0)
        else:
            where = (len(game.hands) - 1, len(hand.history))
        self.takeovers.append(
            {"seat": seat.seat, "hand": where[0], "move": where[1], "bot": "normal"}
        )
        if not self.people():
            self._finish({"reason": "abandoned", "winner": None}, out, at)

    def _on_rematch(self, e: Rematch, shown: dict[str, Any], at: float, out: list[Any]) -> None:
        if e.accept:
            self.rematch_accepted.add(e.seat)
        elif self.rematch_ended is None:
            self.rematch_ended = e.seat

    def _on_rematch_table(
        self, e: RematchTable, shown: dict[str, Any], at: float, out: list[Any]
    ) -> None:
        self.rematch_table = e.table

    def _finish(self, result: dict[str, Any], out: list[dict[str, Any]], at: float) -> None:
        assert self.game is not None
        self.phase = Phase.FINISHED
        self.finished_at = at
        self.result = {**result, "placed_last": list(self.placed_last)}
        out.append({"version": self.version, "kind": "game_over", "result": self.game_json()})

    _HANDLERS: dict[type, Callable[..., None]] = {
        Created: _on_created,
        Joined: _on_joined,
        BotSeated: _on_bot_seated,
        Removed: _on_removed,
        Started: _on_started,
        Dealt: _on_dealt,
        Moved: _on_moved,
        Resumed: _on_resumed,
        Vacation: _on_vacation,
        Reminded: _on_reminded,
        Ready: _on_ready,
        Out: _on_out,
        Rematch: _on_rematch,
        RematchTable: _on_rematch_table,
    }
    _IN_PLAY = frozenset({Phase.PLAYING, Phase.BETWEEN_HANDS})
    _ALLOWED: dict[type, frozenset[Phase]] = {
        Created: frozenset({Phase.SEATING}),
        Joined: frozenset({Phase.SEATING}),
        BotSeated: frozenset({Phase.SEATING}),
        Removed: frozenset({Phase.SEATING}),
        Started: frozenset({Phase.SEATING}),
        Dealt: _IN_PLAY,
        Moved: frozenset({Phase.PLAYING}),
        Resumed: frozenset({Phase.SEATING, *_IN_PLAY}),
        Vacation: _IN_PLAY,
        Reminded: frozenset({Phase.PLAYING}),
        Ready: frozenset({Phase.BETWEEN_HANDS}),
        Out: _IN_PLAY,
        Rematch: frozenset({Phase.FINISHED}),
        RematchTable: frozenset({Phase.FINISHED}),
    }

    def game_json(self) -> dict[str, Any] | None:
        """The end of the game as clients see it (None while it goes on)."""
        if self.result is None or self.game is None:
            return None
        return {
            "over": True,
            "winner": self.result["winner"],
            "reason": self.result["reason"],
            "placed_last": self.result["placed_last"],
            "scores": self.game.seat_scores(),
            "record": f"/games/{self.id}/record",
            "duration": self.duration(0.0),  # seconds from the start to the end
        }

    def record(self) -> dict[str, Any] | None:
        """The finished game as a game record (DESIGN.md), or None when no game was played."""
        from ..rules.record import record_of

        if self.game is None:
            return None
        return record_of(
            self.game,
            self.player_names(),
            result=self.result,
            takeovers=list(self.takeovers),
            time=self.time_json(),
        )

    def duration(self, now: float) -> float | None:
        """Seconds from the game's start to its end (to ``now`` while it goes on)."""
        if self.started_at is None:
            return None
        end = self.finished_at if self.finished_at is not None else now
        return max(0.0, end - self.started_at)

    def time_json(self) -> dict[str, Any] | None:
        """The record's ``time``: the table's timer and speed, the game's start, end, duration."""
        if self.started_at is None:
            return None
        return {
            "timer": self.options.timer,
            "speed": self.options.speed,
            "started": self.started_at,
            "finished": self.finished_at,
            "duration": None if self.finished_at is None else self.finished_at - self.started_at,
        }
