"""Applying: one committed event -> the table changed, the only way it changes (live, and when
its log is replayed after a restart, so both give the same table). An event the table's phase
does not allow is refused (``WrongTransition``): a bug, or a log that is not this table's.

Each kind of event has one handler (``HANDLERS``) and the phases that allow it (``ALLOWED``).
``note`` takes in the one thing decided but not stored: a partnership's resign request.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ...rules import Game
from ...rules.moves import MoveKind
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
    Rematch,
    RematchTable,
    Reminded,
    Removed,
    Renamed,
    Resumed,
    SeatKind,
    Started,
    Vacation,
    WatchingSet,
)
from ..notices import ResignAsked, ResignNotice
from . import clocks
from .happened import Closed, GameOver, HandOver, Happened, HostChanged, hand_result
from .parts import Phase, Seat
from .state import IN_PLAY, State


class WrongTransition(RuntimeError):
    """An event the table's phase does not allow: a bug, or a log that is not this table's."""


def apply(state: State, event: Event, at: float) -> list[Happened]:
    """Apply one committed event; returns what happened: the event and the notes it caused (each
    at the table's new version), as the table keeps them (``state.tail``)."""
    handler = HANDLERS[type(event)]
    allowed = ALLOWED[type(event)]
    if state.phase not in allowed or (isinstance(event, Created) != (state.version == 0)):
        raise WrongTransition(f"{event.kind} at a table in phase {state.phase.value}")
    state.version += 1
    out = [Happened(state.version, event)]  # (a move's handler puts what it scored in)
    handler(state, event, at, out)
    state.tail.extend(out)
    return out


def _on_created(state: State, e: Created, at: float, out: list[Happened]) -> None:
    state.options = e.options
    state.created_at = at
    state.seats = [Seat(i) for i in range(state.options.seats)]
    for i, s in enumerate(e.seats):
        seat = state.seats[i]
        seat.kind, seat.player, seat.name, seat.bot = s.kind, s.player, s.name, s.bot
    # The creator sits at seat 0; a rematch may seat a computer player there.
    state.host = next((s.seat for s in state.seats if s.is_person), 0)


def _on_joined(state: State, e: Joined, at: float, out: list[Happened]) -> None:
    seat = state.seats[e.seat]
    seat.kind, seat.player, seat.name, seat.bot = SeatKind.HUMAN, e.player, e.name, None


def _on_bot_seated(state: State, e: BotSeated, at: float, out: list[Happened]) -> None:
    seat = state.seats[e.seat]
    seat.kind, seat.player, seat.name, seat.bot = SeatKind.BOT, None, e.bot.title(), e.bot


def _on_removed(state: State, e: Removed, at: float, out: list[Happened]) -> None:
    state.seats[e.seat] = Seat(e.seat)
    if state.host == e.seat or not state.people():
        people = state.people()
        state.host = people[0].seat if people else None
        if state.host is not None:
            out.append(Happened(state.version, HostChanged(state.host)))
    if not state.people():
        state.phase = Phase.FINISHED
        out.append(Happened(state.version, Closed()))


def _on_started(state: State, e: Started, at: float, out: list[Happened]) -> None:
    o = state.options
    state.game = Game(o.preset, o.seats, o.target)
    state.phase = Phase.PLAYING
    state.started_at = at
    clock = o.turn_based
    state.clocks = [clock.increment if clock is not None else 0.0] * o.seats
    state.spent = [0.0] * o.seats


def _on_dealt(state: State, e: Dealt, at: float, out: list[Happened]) -> None:
    assert state.game is not None
    if state.phase is Phase.PLAYING and state.game.hands:
        raise WrongTransition("a deal while a hand is being played")
    state.game.start_hand(list(e.holdings), list(e.boneyard), e.leader)
    state.phase = Phase.PLAYING
    state.log = [out[0]]
    state.turn_since = at
    state.turn_credit = 0.0
    state.turns += 1
    for seat in state.seats:
        seat.ready = False


def _on_moved(state: State, e: Moved, at: float, out: list[Happened]) -> None:
    game, hand = state.game, state.hand
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
    passed = None
    if e.move.kind is MoveKind.PASS:  # the numbers passed on, for the log's words
        passed = tuple(sorted(set(hand.layout.open_numbers())))
    out[0] = moved = Happened(state.version, e, scored, passed)
    state.log.append(moved)
    first_turn = seat not in state.turns_done
    ends_turn = e.move.kind is not MoveKind.DRAW  # a play or a pass ends the turn
    if ends_turn:
        state.turns_done.add(seat)
        if e.by is MovedBy.PLAYER:  # (a forced move is not one the person saw)
            state.last_turn_of[seat] = state.version
        _charge_clock(state, seat, at)
    if e.by is MovedBy.TIMER:
        state.seats[seat].timeouts = 1
    elif e.by is MovedBy.PLAYER:
        state.seats[seat].timeouts = 0
    if hand.over or hand.turn != seat:
        state.turn_since = at
        state.turn_credit = 0.0
        state.turns += 1
    if state.options.ranked is not None and e.by is MovedBy.TIMER and first_turn and ends_turn:
        # Ranked: a seat whose first turn runs out ends the game at once, unrated.
        _finish(state, "aborted", None, out, at)
        return
    if not hand.over:
        return
    game.end_hand()
    ended = Happened(state.version, HandOver(len(game.hands) - 1, hand_result(hand)))
    state.log.append(ended)
    out.append(ended)
    if game.finished:
        _finish(state, "rules", game.winner, out, at)
    elif _cap_reached(state, at):
        _finish(state, "cap", capped_winner(game.scores), out, at)
    else:
        state.phase = Phase.BETWEEN_HANDS
        state.next_hand_since = at
        for s in state.seats:
            s.ready = not s.is_person


def _cap_reached(state: State, at: float) -> bool:
    """Whether a capped game has been played its minutes (RULES.md 5, ``cap``): checked as each
    hand ends, so that the hand under way when the cap passes is played to its end."""
    cap, played = state.options.cap, state.duration(at)
    return cap is not None and played is not None and played >= cap * 60.0


def capped_winner(scores: list[int]) -> int | None:
    """A capped game's winner from the scores per side: the side with the highest score (its
    lowest seat, as the rules' ``winner`` names a team), or None when the highest is shared: a
    draw.

    >>> capped_winner([30, 41]), capped_winner([20, 35, 35])
    (1, None)
    """
    best = max(scores)
    leaders = [side for side, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else None


def _charge_clock(state: State, seat: int, at: float) -> None:
    """Turn-based: a seat's turn ended at ``at``: its clock loses the time it took (not its
    vacation) and gains the increment, up to the cap."""
    clock = state.options.turn_based
    if clock is None:
        return
    spent = state.used(seat, at)
    state.spent[seat] += spent
    state.clocks[seat] = clocks.left_after_turn(state.clocks[seat], spent, clock)


def _on_vacation(state: State, e: Vacation, at: float, out: list[Happened]) -> None:
    old = state.vacations.get(e.seat)
    if old is not None and state.turn == e.seat:
        # The vacation it replaces paused this turn's clock so far: given back for good.
        state.turn_credit += clocks.overlap(state.turn_since, at, old)
    # From now on (what went before is settled): an early end leaves an empty window.
    state.vacations[e.seat] = (max(e.start, at), max(e.end, at))


def _on_reminded(state: State, e: Reminded, at: float, out: list[Happened]) -> None:
    state.reminded_turn = state.turns


def _on_resumed(state: State, e: Resumed, at: float, out: list[Happened]) -> None:
    # The hall was down e.downtime seconds: the running clock is given them back.
    turn = state.turn
    if state.options.turn_based is not None and turn is not None:
        # (none of it twice: the part the vacation under way paused is paused already)
        down = e.downtime - clocks.overlap(at - e.downtime, at, state.vacations.get(turn))
        state.turn_credit += down
    else:
        state.turn_since += e.downtime
    state.next_hand_since += e.downtime


def _on_ready(state: State, e: Ready, at: float, out: list[Happened]) -> None:
    state.seats[e.seat].ready = True


def _on_out(state: State, e: Out, at: float, out: list[Happened]) -> None:
    seat = state.seats[e.seat]
    seat.out = e.reason.value
    seat.timeouts = 0
    state.placed_last.append(seat.seat)
    asked = state.resign_request
    if asked is not None and seat.seat in (asked.seat, asked.partner):
        # A request whose asker or partner is out lapses (the update's `you` says so).
        state.resign_request = None
    # A game this resignation ends says who resigned (and who agreed) in its result.
    resigned = (seat.seat, e.agreed) if e.reason is OutReason.RESIGNED else None
    if state.options.ranked is not None and seat.seat not in state.turns_done:
        _finish(state, "aborted", None, out, at)
        return
    if state.options.seats == 2:
        _finish(state, "forfeit", 1 - seat.seat, out, at, resigned)
        return
    if resigned is not None and state.partner_of(seat.seat) is not None:
        # The team concedes: the other team wins (its lower seat names it).
        _finish(state, "forfeit", 1 - seat.seat % 2, out, at, resigned)
        return
    game, hand = state.game, state.hand
    assert game is not None
    seat.kind, seat.bot, seat.ready = SeatKind.BOT, "normal", True
    if hand is None or hand.over:
        where = (len(game.hands), 0)
    else:
        where = (len(game.hands) - 1, len(hand.history))
    state.takeovers.append(
        {"seat": seat.seat, "hand": where[0], "move": where[1], "bot": "normal", "out": seat.out}
    )
    if not state.people():
        _finish(state, "abandoned", None, out, at, resigned)


def _on_rematch(state: State, e: Rematch, at: float, out: list[Happened]) -> None:
    if e.accept:
        state.rematch_accepted.add(e.seat)
    elif state.rematch_ended is None:
        state.rematch_ended = e.seat


def _on_rematch_table(state: State, e: RematchTable, at: float, out: list[Happened]) -> None:
    state.rematch_table = e.table


def _finish(
    state: State,
    reason: str,
    winner: int | None,
    out: list[Happened],
    at: float,
    resigned: tuple[int, int | None] | None = None,
) -> None:
    """The game is over (``resigned``: ended by this seat's resignation, with the partner who
    agreed)."""
    game = state.game
    assert game is not None
    state.phase = Phase.FINISHED
    state.finished_at = at
    state.resign_request = None
    # The record's result (``record.py``), and the same end as a typed value for the views.
    state.result = {"reason": reason, "winner": winner, "placed_last": list(state.placed_last)}
    if resigned is not None:
        state.result["resigned"] = resigned[0]
        if resigned[1] is not None:
            state.result["agreed"] = resigned[1]
    state.game_over = GameOver(
        reason,
        winner,
        tuple(state.placed_last),
        tuple(game.seat_scores()),
        state.duration(at),
        resigned,
    )
    out.append(Happened(state.version, state.game_over))


def note(state: State, note: ResignNotice) -> None:
    """Take in a note decided but not stored: a resign request made, or ended unaccepted (its
    acceptance is an ``Out`` event). It changes no version."""
    if state.phase not in IN_PLAY:
        return
    state.resign_request = note if isinstance(note, ResignAsked) else None


def _on_watching(state: State, e: WatchingSet, at: float, out: list[Happened]) -> None:
    state.options = replace(state.options, open_to_watchers=e.open)


def _on_renamed(state: State, e: Renamed, at: float, out: list[Happened]) -> None:
    state.seats[e.seat].name = e.name


HANDLERS: dict[type, Callable[..., None]] = {
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
    WatchingSet: _on_watching,
    Renamed: _on_renamed,
}
ALLOWED: dict[type, frozenset[Phase]] = {
    Created: frozenset({Phase.SEATING}),
    Joined: frozenset({Phase.SEATING}),
    BotSeated: frozenset({Phase.SEATING}),
    Removed: frozenset({Phase.SEATING}),
    Started: frozenset({Phase.SEATING}),
    Dealt: IN_PLAY,
    Moved: frozenset({Phase.PLAYING}),
    Resumed: frozenset({Phase.SEATING, *IN_PLAY}),
    Vacation: IN_PLAY,
    Reminded: frozenset({Phase.PLAYING}),
    Ready: frozenset({Phase.BETWEEN_HANDS}),
    Out: IN_PLAY,
    Rematch: frozenset({Phase.FINISHED}),
    RematchTable: frozenset({Phase.FINISHED}),
    WatchingSet: frozenset({Phase.SEATING, *IN_PLAY}),
    Renamed: frozenset({Phase.SEATING, *IN_PLAY}),
}
