"""Deciding: a command and the table as it is -> the events the command causes, or a
``HallError`` naming what was wrong; the only place events are made.

Each kind of command has one small decider (``DECIDERS``, keyed by the command's type). A move is
tried on the table's hand to find its events and taken back before ``decide`` returns, so the
table is left as it was: only ``applying.apply`` of committed events changes it. It reads no
clock (a command that depends on the time carries it).

A partnership's resign request is the one thing decided into a note that is not stored
(``ResignAsked``, ``ResignDeclined``: ``Decided.notes``), which ``applying.note`` takes in; its
acceptance is an event as every other end of a game (``Out``, reason ``resigned``).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from ...rules import DRAW, PASS, Game, Hand, IllegalMoveError, Move, View
from ...rules.game import deal
from .. import commands as c
from ..errors import HallError
from ..events import (
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
    Reminded,
    Removed,
    Renamed,
    Resumed,
    SeatKind,
    Started,
    Vacation,
    WatchingSet,
)
from ..notices import ResignAsked, ResignDeclined, ResignNotice
from .parts import Phase
from .rematch import decide_rematch
from .state import IN_PLAY, State


def deal_next(game: Game, rng: random.Random) -> Dealt:
    """The next hand's deal and leader, chosen now (and then written in the log)."""
    holdings, boneyard = deal(game.preset, game.players, rng)
    leader = game.choose_leader(game.lead_rule(holdings), rng)
    return Dealt(len(game.hands), tuple(holdings), tuple(boneyard), leader)


def decide(state: State, command: c.Command, rng: random.Random) -> list[Event]:
    """The events ``command`` causes (none: it no longer applies), or a ``HallError``."""
    return decide_ending(state, command, rng)[0]


# A partner has this long to answer a resign request; unanswered, it is declined.
RESIGN_ANSWER_SECONDS = 30.0


class Decided(NamedTuple):
    """What a command was decided into: the events to commit, whether they may end the game,
    and the notes the table takes in without storing them (a resign request and its refusal)."""

    events: list[Event]
    ending: bool
    notes: tuple[ResignNotice, ...] = ()


def decide_ending(state: State, command: c.Command, rng: random.Random) -> Decided:
    """``decide``, and whether those events may end the game (a superset: a hand or the game
    over, a seat out, a table emptied before its start), told while the moves are on the hand;
    and the notes not stored."""
    decision = Decision(state, rng)
    try:
        events = decision.events_of(command)
        if decision.tried and state.options.turn_based is not None:
            # The next person's forced draws or pass go in the same change: no update shows
            # a turn whose only move the hall makes anyway (docs/protocol.md 7).
            events += decision.forced_moves()
        ending = decision.may_finish(events)
        if decision.deals_at_once():
            assert state.game is not None
            events.append(deal_next(state.game, rng))
        return Decided(events, ending, tuple(decision.notes))
    finally:
        decision.take_back()


def chosen_turn(state: State, seat: int, choose: Callable[[View], Move]) -> tuple[Move, ...]:
    """The moves of ``seat``'s whole turn as ``choose`` picks them from its view, one at a time
    (draws with their tiles, then a play or a pass), tried on the hand and taken back; none when
    it is not ``seat``'s turn. A computer player's or the timer's choice, sent in the command."""
    hand = state.hand
    if hand is None or state.turn != seat:
        return ()
    moves: list[Move] = []
    try:
        while not hand.over and hand.turn == seat:
            hand.push(choose(hand.view(seat)))
            moves.append(hand.history[-1][1])  # a draw with its tile
        return tuple(moves)
    finally:
        for _ in moves:
            hand.pop()


class Decision:
    """One command being decided at a table: the moves tried on its hand so far (each with its
    drawn tile), all taken back once the events are known."""

    def __init__(self, state: State, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.tried: list[Move] = []
        self.notes: list[ResignNotice] = []  # decided, not stored (a resign request's news)

    def events_of(self, command: c.Command) -> list[Event]:
        if self.state.version == 0 or isinstance(command, c.Open):
            return self._open(command)
        decider = DECIDERS.get(type(command))
        if decider is None:
            raise TypeError(f"not a command: {command!r}")
        return decider(self, command)

    # The moves tried on the hand ----------------------------------------------------------
    def make(self, hand: Hand, move: Move) -> None:
        """Try one move on the table's hand (``take_back`` undoes it)."""
        hand.push(move)
        self.tried.append(hand.history[-1][1])  # a draw with its tile, as the log needs it

    def take_back(self) -> None:
        while self.tried:
            self.tried.pop()
            assert self.state.hand is not None
            self.state.hand.pop()

    def _make_turn(self, hand: Hand, seat: int, moves: tuple[Move, ...]) -> None:
        """Make the moves chosen for ``seat`` (by a computer player, or the timer's autoplay):
        each must be allowed, and all of them ``seat``'s, else nothing is decided."""
        for move in moves:
            if hand.over or hand.turn != seat:
                raise HallError(
                    "illegal_move",
                    "seat {seat}'s turn is over: {move} is not its",
                    seat=seat,
                    move=move,
                )
            try:
                self.make(hand, move)
            except IllegalMoveError as exc:
                raise HallError("illegal_move", str(exc)) from None

    def _moves_of(self, seat: int, by: MovedBy) -> list[Event]:
        assert self.state.game is not None
        number = len(self.state.game.hands) - 1
        return [Moved(seat, number, move, by) for move in self.tried]

    def forced_moves(self) -> list[Event]:
        """Turn-based: the draws of a person with nothing that fits, or their pass (and so on for
        each next person with no choice), made at once."""
        state = self.state
        events: list[Event] = []
        hand = state.hand
        while hand is not None and (turn := state.turn) is not None:
            if not state.seats[turn].is_person:
                break
            made = len(self.tried)
            if hand.legal_moves() == [PASS]:
                self.make(hand, PASS)
            else:
                while not hand.over and hand.turn == turn and hand.legal_moves() == [DRAW]:
                    self.make(hand, DRAW)
            if len(self.tried) == made:
                break  # a choice of their own
            number = len(state.game.hands) - 1 if state.game is not None else 0
            events += [Moved(turn, number, m, MovedBy.FORCED) for m in self.tried[made:]]
        return events

    def deals_at_once(self) -> bool:
        """Turn-based: the moves just decided end the hand but not the game, so the next hand is
        dealt in the same change (docs/protocol.md 7): the table is never between hands."""
        state = self.state
        game, hand = state.game, state.hand
        if state.options.turn_based is None or not self.tried or game is None or hand is None:
            return False
        return hand.over and not game.ends_with(hand)

    def may_finish(self, events: list[Event]) -> bool:
        """Whether these events, decided with their moves on the hand, may end the game."""
        if any(isinstance(e, Out | Removed) for e in events):
            return True
        moves = [e for e in events if isinstance(e, Moved)]
        hand = self.state.hand
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
        return self.state.options.ranked is not None and any(e.by is MovedBy.TIMER for e in moves)

    # Checks shared by the deciders --------------------------------------------------------
    def _seating(self, host: str | None = None) -> None:
        state = self.state
        if state.phase is not Phase.SEATING:
            raise HallError("not_seating", "the game has started: seats are settled")
        if host is not None and state.seat_of(host) != state.host:
            raise HallError("not_host", "only the host can do that")

    def _check_seat(self, seat: int) -> None:
        seats = self.state.seats
        if not 0 <= seat < len(seats):
            raise HallError(
                "no_seat",
                "this table has seats 0 to {last}, not {seat!r}",
                last=len(seats) - 1,
                seat=seat,
            )

    def _player_seat(self, player: str) -> int:
        state = self.state
        seat = state.seat_of(player)
        if seat is None:
            if state.was_seated(player) is not None:
                raise HallError("out", "you are out of this game: you may watch, not play")
            raise HallError("spectator", "you have no seat at this table: you may watch, not play")
        return seat

    # The deciders, one a kind of command ----------------------------------------------------
    def _open(self, command: c.Command) -> list[Event]:
        """A table with no events yet takes an ``Open`` only, and only such a table does."""
        state = self.state
        if not isinstance(command, c.Open):
            raise HallError("no_table", "table {state_id} is not open yet", state_id=state.id)
        if state.version != 0:
            raise HallError("bad_request", "table {state_id} is open already", state_id=state.id)
        o = command.options
        events: list[Event] = [Created(o, command.seats)]
        if command.start:
            events += [Started(), deal_next(Game(o.preset, o.seats, o.target), self.rng)]
        return events

    def _join(self, command: c.Join) -> list[Event]:
        state = self.state
        self._seating()
        held = state.was_seated(command.player)
        if held is not None:
            raise HallError("already_seated", "you already sit at seat {seat}", seat=held)
        free = state.free_seats()
        seat = command.seat
        if seat is None:
            if not free:
                raise HallError("table_full", "every seat is taken")
            seat = free[0]
        self._check_seat(seat)
        if seat not in free:
            raise HallError("seat_taken", "seat {seat} is taken", seat=seat)
        return [Joined(seat, command.player, command.name)]

    def _seat_bot(self, command: c.SeatBot) -> list[Event]:
        self._seating(host=command.player)
        self._check_seat(command.seat)
        if self.state.seats[command.seat].kind is not SeatKind.EMPTY:
            raise HallError("seat_taken", "seat {seat} is taken", seat=command.seat)
        return [BotSeated(command.seat, command.bot.value)]

    def _remove(self, command: c.Remove) -> list[Event]:
        self._seating(host=command.player)
        self._check_seat(command.seat)
        if command.seat == self.state.host:
            raise HallError("bad_request", "the host cannot remove their own seat: leave instead")
        if self.state.seats[command.seat].kind is SeatKind.EMPTY:
            raise HallError("no_seat", "seat {seat} is empty", seat=command.seat)
        return [Removed(command.seat)]

    def _start(self, command: c.Start) -> list[Event]:
        self._seating(host=command.player)
        free = self.state.free_seats()
        if free:
            listed = ", ".join(map(str, free))
            raise HallError(
                "seats_not_filled", "every seat must be filled first (free: {free})", free=listed
            )
        o = self.state.options
        return [Started(), deal_next(Game(o.preset, o.seats, o.target), self.rng)]

    def _leave(self, command: c.Leave) -> list[Event]:
        state = self.state
        seat = state.seat_of(command.player)
        if seat is None:
            raise HallError("not_seated", "you have no seat at this table")
        if state.phase is Phase.SEATING:
            return [Removed(seat)]
        if state.phase is Phase.FINISHED:
            raise HallError("not_playing", "the game is over")
        return [Out(seat, OutReason.LEFT)]

    def _resign(self, command: c.Resign) -> list[Event]:
        """Out of the game as resigned (2 players: a forfeit; 3 or 4: a computer player takes
        the seat); at a partnership table the team concedes, once the partner agrees (a
        computer player as partner agrees at once)."""
        state = self.state
        seat = self._resigning_seat(command.player)
        partner = state.partner_of(seat)
        if partner is None or not state.seats[partner].is_person:
            return [Out(seat, OutReason.RESIGNED)]
        asked = state.resign_request
        if asked is not None:
            if asked.seat == seat:
                raise HallError(
                    "resign_pending",
                    "you asked your partner already: wait for their answer (30 s at most)",
                )
            raise HallError(
                "resign_pending",
                "your partner asked to resign: answer them (resign_answer) instead",
            )
        deadline = command.now + RESIGN_ANSWER_SECONDS
        self.notes.append(ResignAsked(seat, partner, deadline, RESIGN_ANSWER_SECONDS))
        return []

    def _resigning_seat(self, player: str) -> int:
        """The seat of a person who may resign now (else the precise refusal)."""
        state = self.state
        if state.seat_of(player) is None and state.was_seated(player) is None:
            raise HallError(
                "not_seated", "you have no seat at this table: there is nothing to resign"
            )
        seat = self._player_seat(player)
        if state.phase is Phase.SEATING:
            raise HallError("not_playing", "the game has not started: leave the table instead")
        if state.phase not in IN_PLAY:
            raise HallError("not_playing", "the game is over: there is nothing to resign")
        return seat

    def _answer_resign(self, command: c.AnswerResign) -> list[Event]:
        state = self.state
        seat = self._resigning_seat(command.player)
        asked = state.resign_request
        if asked is None:
            raise HallError(
                "no_resign_request", "nobody asked you to resign: there is nothing to answer"
            )
        if asked.partner != seat:
            raise HallError(
                "no_resign_request", "you asked to resign: the request is your partner's to answer"
            )
        if not command.accept:
            self.notes.append(ResignDeclined(asked.seat, asked.partner, "declined"))
            return []
        return [Out(asked.seat, OutReason.RESIGNED, agreed=seat)]

    def _resign_unanswered(self, command: c.ResignUnanswered) -> list[Event]:
        asked = self.state.resign_request
        if asked is None or command.now < asked.deadline:
            return []  # answered meanwhile, or another request's time
        self.notes.append(ResignDeclined(asked.seat, asked.partner, "unanswered"))
        return []

    def _move(self, command: c.MakeMove) -> list[Event]:
        state = self.state
        seat = self._player_seat(command.player)
        if command.version is not None and command.version != state.version:
            raise HallError(
                "stale",
                "the table is at version {state_version}, not {command_version}: look again",
                state_version=state.version,
                command_version=command.version,
            )
        hand = state.hand
        if state.phase is not Phase.PLAYING or hand is None or hand.over:
            raise HallError("not_playing", "no hand is being played now")
        if hand.turn != seat:
            raise HallError(
                "not_your_turn",
                "it is seat {seat}'s turn ({name})",
                seat=hand.turn,
                name=state.seats[hand.turn].name,
            )
        try:
            self.make(hand, command.move)
        except IllegalMoveError as exc:
            raise HallError("illegal_move", str(exc)) from None
        if command.until_fits and command.move == DRAW:
            while hand.legal_moves() == [DRAW]:
                self.make(hand, DRAW)
        return self._moves_of(seat, MovedBy.PLAYER)

    def _press_next_hand(self, command: c.PressNextHand) -> list[Event]:
        seat = self._player_seat(command.player)
        if self.state.phase is not Phase.BETWEEN_HANDS:
            raise HallError("not_between_hands", "Next hand is pressed between hands only")
        return [] if self.state.seats[seat].ready else [Ready(seat)]

    def _rematch(self, command: c.AnswerRematch | c.GoneAfterTheEnd) -> list[Event]:
        return decide_rematch(self.state, command)

    def _computer_turn(self, command: c.ComputerTurn) -> list[Event]:
        state = self.state
        hand, seat = state.hand, command.seat
        if command.version != state.version or state.turn != seat or hand is None:
            return []  # the table moved on while the computer thought
        if state.seats[seat].kind is not SeatKind.BOT:
            return []
        self._make_turn(hand, seat, command.moves)
        return self._moves_of(seat, MovedBy.BOT)

    def _time_up(self, command: c.TurnTimeUp) -> list[Event]:
        state = self.state
        turn, hand = state.turn, state.hand
        if turn is None or hand is None or not state.seats[turn].is_person:
            return []
        if command.now < state.turn_deadline:
            return []  # a move came in meanwhile: this turn's timer is another
        if state.options.turn_based is not None:
            return [Out(turn, OutReason.TIMEOUT)]  # a turn-based clock: out at once, no autoplay
        if state.seats[turn].timeouts:
            # Out of time twice running: out of the game (a computer player takes over).
            return [Out(turn, OutReason.TIMEOUT)]
        self._make_turn(hand, turn, command.moves)
        if not hand.over and hand.turn == turn:
            raise HallError(
                "illegal_move", "the autoplay's moves do not end seat {turn}'s turn", turn=turn
            )
        return self._moves_of(turn, MovedBy.TIMER)

    def _forced(self, command: c.MakeForcedMoves) -> list[Event]:
        if self.state.options.turn_based is None:
            return []
        return self.forced_moves()

    def _remind(self, command: c.Remind) -> list[Event]:
        state = self.state
        reminder, turn = state.reminder_at, state.turn
        if reminder is None or turn is None or command.now < reminder:
            return []
        return [Reminded(turn)] if state.seats[turn].is_person else []

    def _vacation(self, command: c.SetVacation) -> list[Event]:
        state = self.state
        seat = state.seat_of(command.player)
        if seat is None or state.options.turn_based is None or state.phase not in IN_PLAY:
            return []
        return [Vacation(seat, command.start, command.end)]

    def _deal_next_hand(self, command: c.DealNextHand) -> list[Event]:
        state = self.state
        if state.phase is not Phase.BETWEEN_HANDS:
            return []
        if command.now is not None and command.now < state.next_hand_deadline:
            return []
        assert state.game is not None
        return [deal_next(state.game, self.rng)]

    def _grace_over(self, command: c.GraceOver) -> list[Event]:
        state = self.state
        if not state.seats[command.seat].is_person:
            return []
        if state.phase is Phase.SEATING:
            return [Removed(command.seat)]
        if state.phase is Phase.FINISHED:
            return []
        return [Out(command.seat, OutReason.DISCONNECTED)]

    def _set_watching(self, command: c.SetWatching) -> list[Event]:
        state = self.state
        if state.phase is Phase.FINISHED:
            raise HallError("game_over", "the table is finished: its watching is settled")
        if state.seat_of(command.player) != state.host:
            raise HallError("not_host", "only the host can open the game to watchers or close it")
        if not state.options.private:
            raise HallError("public_table", "a public table is always open to watchers")
        if state.options.watchable == command.open:
            return []  # (as it is already)
        return [WatchingSet(command.open)]

    def _rename(self, command: c.Rename) -> list[Event]:
        # Nothing to do where the player no longer plays, or the game is over (its record
        # keeps the name it was played under): every process's follower asks, the first counts.
        state = self.state
        seat = state.seat_of(command.player)
        if seat is None or state.phase is Phase.FINISHED or state.seats[seat].name == command.name:
            return []
        return [Renamed(seat, command.player, command.name)]

    def _resume(self, command: c.Resume) -> list[Event]:
        if self.state.clock_running and command.downtime > 0:
            return [Resumed(command.downtime)]
        return []


DECIDERS: dict[type, Callable[[Decision, Any], list[Event]]] = {
    c.Join: Decision._join,
    c.SeatBot: Decision._seat_bot,
    c.Remove: Decision._remove,
    c.Start: Decision._start,
    c.SetWatching: Decision._set_watching,
    c.Rename: Decision._rename,
    c.Leave: Decision._leave,
    c.Resign: Decision._resign,
    c.AnswerResign: Decision._answer_resign,
    c.ResignUnanswered: Decision._resign_unanswered,
    c.MakeMove: Decision._move,
    c.PressNextHand: Decision._press_next_hand,
    c.AnswerRematch: Decision._rematch,
    c.GoneAfterTheEnd: Decision._rematch,
    c.ComputerTurn: Decision._computer_turn,
    c.TurnTimeUp: Decision._time_up,
    c.MakeForcedMoves: Decision._forced,
    c.Remind: Decision._remind,
    c.SetVacation: Decision._vacation,
    c.DealNextHand: Decision._deal_next_hand,
    c.GraceOver: Decision._grace_over,
    c.Resume: Decision._resume,
}
