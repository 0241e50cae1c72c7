"""What one seat sees of a table, as the JSON of docs/protocol.md (spectators: seat None).

This is the one place where the table's truth is cut down to a seat's view: no other seat's
tile and no boneyard order leave it before the hand is over.
"""

from __future__ import annotations

from typing import Any

from ..hall.rematch import rematch_open, rematch_people
from ..hall.table import Phase, TableState
from ..rules import PRESETS, Layout, Move, tile_name
from ..rules.layout import NO_ARM, LayoutKind
from ..rules.moves import MoveKind
from ..rules.tiles import IS_DOUBLE, PIPS, RANK, tiles_of
from .turn_view import turn_based_json

# Event fields no client ever sees: the deal, and who a person is behind their seat.
_SECRET = {"dealt", "boneyard", "player", "options", "seats"}
_WITH_SECRETS = {"created", "joined", "dealt"}


def public_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event as ``seat`` may see it: a draw shows its tile only to the seat that drew it.

    Events with nothing to hide are returned as they are (they are not copied).
    """
    kind = event["kind"]
    if kind == "move":
        if "draw" in event and event["seat"] != seat:
            return {**event, "draw": True}
        return event
    if kind in _WITH_SECRETS:
        return {k: v for k, v in event.items() if k not in _SECRET}
    return event


def summary(state: TableState) -> dict[str, Any]:
    """A table as the lobby and the HTTP answers show it."""
    o = state.options
    return {
        "id": state.id,
        "link": f"/t/{state.id}",
        "preset": o.preset,
        "preset_name": PRESETS[o.preset].name,
        "target": o.target,
        "timer": o.timer,
        "speed": o.speed,
        "turn_seconds": o.turn_seconds,
        "private": o.private,
        "phase": state.phase.value,
        "host": state.host,
        "seats": [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in state.seats
        ],
        "free_seats": len(state.free_seats()),
        "created_at": state.created_at,
    }


def my_table(state: TableState, seat: int, now: float) -> dict[str, Any]:
    """A table as its seated player's "My games" list shows it (``GET /api/me/tables``, the
    player's socket): whether it waits for them, and when the clock running now runs out."""
    deadline = state.clock_deadline()
    return {
        **summary(state),
        "seat": seat,
        "turn": state.turn,
        "your_turn": state.waits_for(seat),
        "deadline": deadline,
        "left": None if deadline is None else max(0.0, deadline - now),
    }


def rematch_json(state: TableState) -> dict[str, Any] | None:
    """The rematch offer (None before the game's end or after a closed table)."""
    if state.phase is not Phase.FINISHED or state.result is None:
        return None
    return {
        "open": rematch_open(state),
        "people": rematch_people(state),
        "accepted": sorted(state.rematch_accepted),
        "ended_by": state.rematch_ended,
        "table": state.rematch_table,
    }


def table_meta(state: TableState) -> dict[str, Any]:
    meta = summary(state)
    for key in ("seats", "free_seats", "created_at"):
        del meta[key]
    meta["record"] = f"/games/{state.id}/record" if state.result is not None else None
    return meta


def state_for(
    state: TableState,
    seat: int | None,
    *,
    player: str | None,
    name: str | None,
    connected: set[int],
    now: float,
) -> dict[str, Any]:
    """The whole table as ``seat`` may see it (the ``state`` of a ``state`` message)."""
    hand = state.hand
    seats = state.cached(("seats", frozenset(connected)), lambda: seats_json(state, connected))
    clock = None
    turn = state.turn
    if turn is not None and state.seats[turn].is_person:
        seconds = state.options.turn_seconds
        deadline = state.turn_deadline
        clock = {
            "seat": turn,
            "deadline": deadline,
            "seconds": seconds,
            "left": max(0.0, deadline - now),
        }
    next_hand = None
    if state.phase is Phase.BETWEEN_HANDS:
        seconds = state.options.next_hand_seconds
        deadline = state.next_hand_deadline
        next_hand = {
            "deadline": deadline,
            "left": max(0.0, deadline - now),
            "seconds": seconds,
            "ready": [s.seat for s in state.seats if s.ready],
        }
    return {
        "table": state.cached("table", lambda: table_meta(state)),
        "you": {
            "seat": seat,
            "player": player,
            "name": name,
            "host": seat is not None and seat == state.host,
            "out": _out_of(state, seat, player),
        },
        "seats": seats,
        "hand": hand_view(state, seat) if hand is not None else None,
        "clock": clock,
        "next_hand": next_hand,
        "game": state.cached("game", state.game_json),
        "rematch": rematch_json(state),
        "turn_based": turn_based_json(state, seat, now),
        "now": now,
    }


def _out_of(state: TableState, seat: int | None, player: str | None) -> dict[str, Any] | None:
    """The seat a person watching went out of, and why (None for everyone else)."""
    was = state.was_seated(player) if seat is None and player is not None else None
    if was is None or state.seats[was].out is None:
        return None
    return {"seat": was, "reason": state.seats[was].out}


def seats_json(state: TableState, connected: set[int]) -> list[dict[str, Any]]:
    game, hand = state.game, state.hand
    preset = PRESETS[state.options.preset]
    scores = game.seat_scores() if game is not None else [0] * state.options.seats
    counts = [h.bit_count() for h in hand.holdings] if hand is not None else None
    return [
        {
            "seat": s.seat,
            "kind": s.kind,
            "name": s.name,
            "bot": s.bot,
            "connected": s.kind == "bot" or s.seat in connected,
            "score": scores[s.seat],
            "tiles": counts[s.seat] if counts is not None else 0,
            "team": preset.side_of(s.seat) if preset.teams else None,
            "out": s.out is not None,
            "out_reason": s.out,
            "timeouts": s.timeouts,
            "ready": s.ready,
        }
        for s in state.seats
    ]


def hand_view(state: TableState, seat: int | None) -> dict[str, Any]:
    game, hand = state.game, state.hand
    assert game is not None and hand is not None
    preset = game.preset
    mine = sorted(tiles_of(hand.holdings[seat]), key=lambda t: -RANK[t]) if seat is not None else []
    layout = hand.layout
    ends_total = None
    if preset.count.value != "none" and not layout.empty:
        headers = preset.count.value == "headers"
        ends_total = layout.header_count() if headers else layout.count_total()
    my_turn = state.phase is Phase.PLAYING and not hand.over and hand.turn == seat
    over = hand.over and state.log[-1]["kind"] == "hand_over"
    return {
        "number": len(game.hands) - 1,
        "leader": hand.leader,
        "turn": state.turn,
        "tiles": [tile_name(t) for t in mine],
        "pips": sum(PIPS[t] for t in mine),
        "layout": state.cached("layout", lambda: _shown_layout(state, layout)),
        "boneyard": len(hand.boneyard) - hand.drawn,
        "ends_total": ends_total,
        "moves": moves_json(hand.legal_moves()) if my_turn else None,
        "log": [public_event(e, seat) for e in state.log],
        "points": [hand.points[preset.side_of(s)] for s in range(hand.players)],
        "result": state.log[-1]["result"] if over else None,
    }


def _shown_layout(state: TableState, layout: Layout) -> dict[str, Any]:
    shown = state.shown_layout
    if not isinstance(shown, ShownLayout) or not shown.follows(layout):
        shown = state.shown_layout = ShownLayout(layout.kind)
    return shown.json(layout)


def moves_json(legal: list[Move]) -> dict[str, Any]:
    """The legal moves of the seat to move, grouped as the page offers them."""
    plays: dict[int, list[int]] = {}
    lead: list[str] = []
    draw = passes = False
    for move in legal:
        if move.kind is MoveKind.DRAW:
            draw = True
        elif move.kind is MoveKind.PASS:
            passes = True
        elif move.arm is None:
            lead.append(tile_name(move.tile))
        else:
            plays.setdefault(move.tile, []).append(move.arm)
    return {
        "play": [
            {"tile": tile_name(t), "arms": sorted(arms)}
            for t, arms in sorted(plays.items(), key=lambda ta: -RANK[ta[0]])
        ],
        "lead": lead,
        "draw": draw,
        "pass": passes,
    }


def layout_json(layout: Layout) -> dict[str, Any]:
    """Arms with their tiles from the root outward, where each arm starts, and the open ends."""
    return ShownLayout(layout.kind).json(layout)


class ShownLayout:
    """The layout's JSON kept up as tiles are laid: each tile is placed once per hand, not once
    per version (the chain is replayed on a layout of its own to learn where spinners' ends hang).
    """

    def __init__(self, kind: LayoutKind) -> None:
        self.replay = Layout(kind)
        self.arms: dict[int, dict[str, Any]] = {}
        self.chain: list[dict[str, Any]] = []
        self.lead: dict[str, Any] | None = None

    def follows(self, layout: Layout) -> bool:
        """Whether ``layout`` is this one with tiles added (not another hand, nothing taken back)."""
        n = len(self.chain)
        return len(layout.chain) >= n and layout.chain[:n] == self.replay.chain

    def json(self, layout: Layout) -> dict[str, Any]:
        if layout.empty:
            return {"lead": None, "arms": [], "open_ends": [], "chain": []}
        for laid in layout.chain[len(self.chain) :]:
            self._lay(*laid)
        open_arms = sorted(layout.open_arms)
        arms = [
            {
                **arm,
                "tiles": list(arm["tiles"]),  # entries are never changed once made
                "open": k in open_arms,
                "end": layout.tips[k] if k in open_arms else None,
            }
            for k, arm in sorted(self.arms.items())
        ]
        return {
            "lead": self.lead,
            "arms": arms,
            "open_ends": [{"arm": k, "number": layout.tips[k]} for k in open_arms],
            "chain": list(self.chain),
        }

    def _lay(self, tile: int, arm: int, facing: int) -> None:
        replay, arms = self.replay, self.arms
        if arm == NO_ARM:
            replay.lead(tile, facing)
            spinner = replay.spinners == 1
            self.lead = {"tile": tile_name(tile, facing), "first": facing, "spinner": spinner}
            arms[0] = {"arm": 0, "from": None, "tiles": []}
            arms[1] = {"arm": 1, "from": None, "tiles": []}
            if spinner:
                for k in (2, 3):
                    arms[k] = {"arm": k, "from": {"arm": None, "index": 0}, "tiles": []}
            self.chain.append({"tile": tile_name(tile, facing), "arm": None, "facing": facing})
            return
        spinners_before, next_arm = replay.spinners, replay.next_arm
        replay.place(tile, arm)
        entry: dict[str, Any] = {
            "tile": tile_name(tile),
            "facing": facing,
            "double": IS_DOUBLE[tile],
        }
        if replay.spinners > spinners_before:
            entry["spinner"] = True
            index = len(arms[arm]["tiles"])
            for k in (next_arm, next_arm + 1):
                arms[k] = {"arm": k, "from": {"arm": arm, "index": index}, "tiles": []}
        arms[arm]["tiles"].append(entry)
        self.chain.append({"tile": tile_name(tile), "arm": arm, "facing": facing})
