"""One table as a state machine fed by its event log: seating -> playing <-> between hands -> finished.

``TableState.apply`` is the only way a table changes, live and when the log is replayed after a
restart, so both give the same table. It takes events the hall has already checked and committed;
it decides nothing by chance and reads no clock (each event carries its time).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from ..rules import Game, Hand, Move, mask_of, parse_tile, tile_name, tiles_of
from ..rules.moves import MoveKind
from ..rules.tiles import RANK
from .options import Options

TAIL = 200  # events kept in memory for clients catching up


class Phase(StrEnum):
    SEATING = "seating"
    PLAYING = "playing"
    BETWEEN_HANDS = "between_hands"
    FINISHED = "finished"


@dataclass
class Seat:
    seat: int
    kind: str = "empty"  # "empty", "human" or "bot"
    player: str | None = None  # the person's player id (kept after a computer takes over)
    name: str | None = None
    bot: str | None = None  # the computer player's level
    out: str | None = None  # why the person is out of the game: timeout, left, disconnected
    timeouts: int = 0  # 1 after the timer ran out on this seat's last turn
    ready: bool = False  # pressed Next hand

    @property
    def is_person(self) -> bool:
        """A person plays this seat (not empty, not a computer player)."""
        return self.kind == "human"


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
    }


def move_event(seat: int, hand: int, move: Move, by: str) -> dict[str, Any]:
    """The event of a move made at a table by a player, the timer or a computer player."""
    return {"kind": "move", **move.to_json(seat), "hand": hand, "by": by}


def _names(mask: int) -> list[str]:
    return [tile_name(t) for t in sorted(tiles_of(mask), key=lambda t: -RANK[t])]


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
        self.next_hand_since = 0.0  # when the last hand ended
        self.placed_last: list[int] = []  # seats out of the game, the first out first
        self.takeovers: list[dict[str, Any]] = []
        self.turns_done: set[int] = set()  # seats that ended a turn of this game (ranked aborts)
        self.result: dict[str, Any] | None = None  # how the game ended (the record's result)
        self.closed = False  # no person was left before the start: no game
        self.rematch_accepted: set[int] = set()  # seats whose person accepted a rematch
        self.rematch_ended: int | None = None  # the seat whose person left: no rematch
        self.rematch_table: str | None = None  # the rematch's table, once everyone accepted
        self._cache: dict[object, Any] = {}  # views shared by every seat, for this version
        self.shown_layout: object = None  # the layout's JSON, kept up as tiles are laid (views)

    def cached(self, key: object, make: Callable[[], Any]) -> Any:
        """A value made once per version and shared by every seat's view (the layout)."""
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    # Queries --------------------------------------------------------------------------
    @property
    def hand(self) -> Hand | None:
        return self.game.hand if self.game is not None else None

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
        """When the turn timer of the turn being played runs out."""
        return self.turn_since + self.options.turn_seconds

    @property
    def next_hand_deadline(self) -> float:
        """When the next hand starts if not everyone pressed Next hand before."""
        return self.next_hand_since + self.options.next_hand_seconds

    def seat_of(self, player: str) -> int | None:
        """The seat a person plays (not one they were taken out of)."""
        for seat in self.seats:
            if seat.player == player and seat.kind == "human":
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

    def free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "empty"]

    def player_names(self) -> list[str]:
        return [s.name or "" for s in self.seats]

    # Events ---------------------------------------------------------------------------
    @classmethod
    def replay(
        cls, table_id: str, events: Iterable[tuple[int, float, dict[str, Any]]]
    ) -> TableState:
        """A table as its log of (version, at, body) events leaves it."""
        state = cls(table_id)
        for _version, at, body in events:
            state.apply(body, at)
        return state

    def apply(self, body: dict[str, Any], at: float) -> list[dict[str, Any]]:
        """Apply one committed event; returns it and the events it caused, with its version."""
        self.version += 1
        self._cache.clear()
        event = {"version": self.version, **body}
        out = [event]
        kind = body["kind"]
        handler = getattr(self, "_on_" + kind)
        handler(event, at, out)
        self.tail.extend(out)
        return out

    def _on_created(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        self.options = Options.from_json(e["options"])
        self.created_at = at
        self.seats = [Seat(i) for i in range(self.options.seats)]
        for i, s in enumerate(e["seats"]):
            seat = self.seats[i]
            seat.kind, seat.player, seat.name, seat.bot = (
                s["kind"],
                s["player"],
                s["name"],
                s["bot"],
            )
        # The creator sits at seat 0; a rematch may seat a computer player there.
        self.host = next((s.seat for s in self.seats if s.is_person), 0)

    def _on_joined(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        seat = self.seats[e["seat"]]
        seat.kind, seat.player, seat.name, seat.bot = "human", e["player"], e["name"], None

    def _on_bot_seated(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        seat = self.seats[e["seat"]]
        seat.kind, seat.player, seat.name, seat.bot = "bot", None, e["bot"].title(), e["bot"]

    def _on_removed(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        self.seats[e["seat"]] = Seat(e["seat"])
        if self.host == e["seat"] or not self.people():
            people = self.people()
            self.host = people[0].seat if people else None
            if self.host is not None:
                out.append({"version": self.version, "kind": "host", "seat": self.host})
        if not self.people():
            self.phase = Phase.FINISHED
            self.closed = True
            out.append({"version": self.version, "kind": "closed"})

    def _on_started(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        o = self.options
        self.game = Game(o.preset, o.seats, o.target)
        self.phase = Phase.PLAYING

    def _on_dealt(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        assert self.game is not None
        holdings = [mask_of([parse_tile(t) for t in hand]) for hand in e["dealt"]]
        boneyard = [parse_tile(t) for t in e["boneyard"]]
        self.game.start_hand(holdings, boneyard, e["leader"])
        self.phase = Phase.PLAYING
        self.log = [e]
        self.turn_since = at
        for seat in self.seats:
            seat.ready = False

    def _on_move(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        game, hand = self.game, self.hand
        assert game is not None and hand is not None
        seat = e["seat"]
        move = Move.parse(e)
        side = game.preset.side_of(seat)
        before = hand.scores[side]
        hand.push(move)
        scored = hand.scores[side] - before if move.is_play else 0
        result = hand.result
        if result is not None and result.winner == seat and not result.blocked:
            scored -= result.bonus  # going out: the bonus is the hand's, not this play's count
        e["scored"] = scored
        self.log.append(e)
        by = e.get("by", "player")
        first_turn = seat not in self.turns_done
        if move.kind is not MoveKind.DRAW:  # a play or a pass ends the turn
            self.turns_done.add(seat)
        if by == "timer":
            self.seats[seat].timeouts = 1
        elif by == "player":
            self.seats[seat].timeouts = 0
        if hand.over or hand.turn != seat:
            self.turn_since = at
        if self.options.ranked is not None and by == "timer" and first_turn:
            # Ranked: a seat whose first turn runs out ends the game at once, unrated.
            self._finish({"reason": "aborted", "winner": None}, out)
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
            self._finish({"reason": "rules", "winner": game.winner}, out)
        else:
            self.phase = Phase.BETWEEN_HANDS
            self.next_hand_since = at
            for s in self.seats:
                s.ready = not s.is_person

    def _on_resumed(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        # The hall was down for e["downtime"] seconds: the running clock is given them back.
        self.turn_since += e["downtime"]
        self.next_hand_since += e["downtime"]

    def _on_ready(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        self.seats[e["seat"]].ready = True

    def _on_out(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        seat = self.seats[e["seat"]]
        seat.out = e["reason"]
        seat.timeouts = 0
        self.placed_last.append(seat.seat)
        if self.options.ranked is not None and seat.seat not in self.turns_done:
            self._finish({"reason": "aborted", "winner": None}, out)
            return
        if self.options.seats == 2:
            self._finish({"reason": "forfeit", "winner": 1 - seat.seat}, out)
            return
        game, hand = self.game, self.hand
        assert game is not None
        seat.kind, seat.bot, seat.ready = "bot", "normal", True
        if hand is None or hand.over:
            where = (len(game.hands), 0)
        else:
            where = (len(game.hands) - 1, len(hand.history))
        self.takeovers.append(
            {"seat": seat.seat, "hand": where[0], "move": where[1], "bot": "normal"}
        )
        if not self.people():
            self._finish({"reason": "abandoned", "winner": None}, out)

    def _on_rematch(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        if e["accept"]:
            self.rematch_accepted.add(e["seat"])
        elif self.rematch_ended is None:
            self.rematch_ended = e["seat"]

    def _on_rematch_table(self, e: dict[str, Any], at: float, out: list[dict[str, Any]]) -> None:
        self.rematch_table = e["table"]

    def _finish(self, result: dict[str, Any], out: list[dict[str, Any]]) -> None:
        assert self.game is not None
        self.phase = Phase.FINISHED
        self.result = {**result, "placed_last": list(self.placed_last)}
        out.append({"version": self.version, "kind": "game_over", "result": self.game_json()})

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
        )
