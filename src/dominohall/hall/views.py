"""The protocol's JSON of a table (docs/protocol.md): a summary, a seat's whole state, and the
update a seat's socket receives after each change (protocol 2).

Only serialising happens here: what a seat may see (its own tiles, its legal moves, a drawn tile
only to the drawer) is the hall's to say (``hall/seat_view.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..rules import PRESETS, Layout, Move, tile_name
from ..rules.moves import MoveKind
from ..rules.tiles import PIPS, RANK
from . import messages
from .end_choices import end_choices
from .event_view import game_json, shown
from .layout_view import ShownLayout
from .seat_view import moves_of, own_tiles, public_events
from .table import Phase, TableState
from .table.happened import HandOver
from .table.rematch import rematch_open, rematch_people
from .turn_view import turn_based_json
from .view_cache import cache_of, cached

PROTOCOL = 2


def summary(state: TableState) -> messages.TableSummary:
    """A table as the lobby and the HTTP answers show it."""
    return {
        **_head(state),
        "seats": [
            {"seat": s.seat, "kind": s.kind, "name": s.name, "bot": s.bot} for s in state.seats
        ],
        "free_seats": len(state.free_seats()),
        "created_at": state.created_at,
    }


def _head(state: TableState) -> messages.TableHead:
    o = state.options
    head: messages.TableHead = {
        "id": state.id,
        "link": f"/t/{state.id}",
        "preset": o.preset,
        "preset_name": PRESETS[o.preset].name,
        "target": o.target,
        "timer": o.timer,
        "speed": o.speed,
        "turn_seconds": o.turn_seconds,
        "private": o.private,
        "open_to_watchers": o.watchable,
        "ranked": o.ranked,  # the pool of a ranked table (None: casual)
        "cap": o.cap,
        "phase": state.phase.value,
        "host": state.host,
    }
    if o.arena:
        head["arena"] = True
    return head


def rematch_json(state: TableState) -> messages.Rematch | None:
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


def table_meta(state: TableState) -> messages.TableMeta:
    record = f"/games/{state.id}/record" if state.result is not None else None
    return {**_head(state), "record": record}


def state_for(
    state: TableState,
    seat: int | None,
    *,
    player: str | None,
    name: str | None,
    connected: set[int],
    now: float,
    ratings: dict[str, str] | None = None,
    was: int | None = None,
    watching: int = 0,
) -> messages.State:
    """The whole table as ``seat`` may see it (the ``state`` of a ``state`` message);
    ``ratings``: a ranked table's players' shown ratings (``Room.ratings``); ``was``: the seat a
    watcher was taken out of, when ``player`` is not given (``table_feed.Audience``);
    ``watching``: how many sockets without a seat watch the table (``Room.watching``)."""
    hand = state.hand
    seats = _seats(state, connected, ratings)
    return {
        "table": cached(state, "table", lambda: table_meta(state)),
        "you": you_json(state, seat, player, name, was),
        "seats": seats,
        "hand": hand_view(state, seat) if hand is not None else None,
        "clock": clock_json(state, now),
        "next_hand": next_hand_json(state, now),
        "game": cached(state, "game", lambda: game_json(state)),
        "rematch": rematch_json(state),
        "turn_based": turn_based_json(state, seat, now),
        "watchers": watching,
        "now": now,
    }


def you_json(
    state: TableState,
    seat: int | None,
    player: str | None,
    name: str | None,
    was: int | None = None,
) -> messages.You:
    """Who the message is for; ``player`` and ``name`` are left None for the socket tier to fill
    in when the message is made for an audience rather than a person."""
    return {
        "seat": seat,
        "player": player,
        "name": name,
        "host": seat is not None and seat == state.host,
        "out": _out_of(state, seat, player, was),
        "resign": resign_json(state, seat),
    }


def resign_json(state: TableState, seat: int | None) -> messages.ResignRequest | None:
    """The pending resign request, for the two seats of its team only (None for the others)."""
    asked = state.resign_request
    if asked is None or seat not in (asked.seat, asked.partner):
        return None
    return {
        "seat": asked.seat,
        "partner": asked.partner,
        "deadline": asked.deadline,
        "seconds": asked.seconds,
    }


def clock_json(state: TableState, now: float) -> messages.Clock | None:
    """The turn timer of a person's turn (None when no person's turn is being played)."""
    turn = state.turn
    if turn is None or not state.seats[turn].is_person:
        return None
    deadline = state.turn_deadline
    return {
        "seat": turn,
        "deadline": deadline,
        "seconds": state.options.turn_seconds,
        "left": max(0.0, deadline - now),
    }


def next_hand_json(state: TableState, now: float) -> messages.NextHand | None:
    """The wait for the next hand (None unless between hands)."""
    if state.phase is not Phase.BETWEEN_HANDS:
        return None
    deadline = state.next_hand_deadline
    return {
        "deadline": deadline,
        "left": max(0.0, deadline - now),
        "seconds": state.options.next_hand_seconds,
        "ready": [s.seat for s in state.seats if s.ready],
    }


def _out_of(
    state: TableState, seat: int | None, player: str | None, was: int | None
) -> messages.OutOf | None:
    """The seat a person watching went out of, and why (None for everyone else)."""
    if seat is not None:
        return None
    if player is not None:
        was = state.was_seated(player)
    if was is None:
        return None
    reason = state.seats[was].out
    return {"seat": was, "reason": reason} if reason is not None else None


def _seats(
    state: TableState, connected: set[int], ratings: dict[str, str] | None
) -> list[messages.Seat]:
    key = ("seats", frozenset(connected), ratings is not None)
    return cached(state, key, lambda: seats_json(state, connected, ratings))


def seats_json(
    state: TableState, connected: set[int], ratings: dict[str, str] | None = None
) -> list[messages.Seat]:
    game, hand = state.game, state.hand
    preset = PRESETS[state.options.preset]
    scores = game.seat_scores() if game is not None else [0] * state.options.seats
    counts = [h.bit_count() for h in hand.holdings] if hand is not None else None
    shown = ratings or {}  # a ranked table's ratings (hall/ranked.py), else none
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
            "rating": shown.get(s.player) if s.player is not None else None,
        }
        for s in state.seats
    ]


def hand_view(state: TableState, seat: int | None) -> messages.Hand:
    game, hand = state.game, state.hand
    assert game is not None and hand is not None
    mine = own_tiles(state, seat)
    last = state.log[-1]
    over = hand.over and isinstance(last.event, HandOver)
    return {
        "number": len(game.hands) - 1,
        "leader": hand.leader,
        "turn": state.turn,
        "tiles": [tile_name(t) for t in mine],
        "pips": sum(PIPS[t] for t in mine),
        "layout": _layout_json(state),
        "boneyard": len(hand.boneyard) - hand.drawn,
        "ends_total": _ends_total(state),
        "moves": _moves(state, seat),
        "log": _log(state, seat),
        "points": _points(state),
        "result": _result(state) if over else None,
    }


def _result(state: TableState) -> messages.HandResult:
    """The hand's result, as its ``hand_over`` (the last entry of the log) shows it."""
    ended = shown(state, state.log[-1])
    assert ended["kind"] == "hand_over"
    return ended["result"]


def _log(state: TableState, seat: int | None) -> list[messages.Event]:
    """This hand's events as ``seat`` sees them, kept up event by event across versions (the
    log only grows within a hand; a deal starts a new one). A copy: each message its own."""
    kept = cache_of(state).logs
    log = state.log
    found = kept.get(seat)
    if found is None or found[0] is not log or len(found[1]) > len(log):
        found = kept[seat] = (log, [])
    seen = found[1]
    if len(seen) < len(log):
        seen.extend(public_events(state, log[len(seen) :], seat))
    return list(seen)


def _ends_total(state: TableState) -> int | None:
    game, hand = state.game, state.hand
    assert game is not None and hand is not None
    count, layout = game.preset.count.value, hand.layout
    if count == "none" or layout.empty:
        return None
    return layout.header_count() if count == "headers" else layout.count_total()


def _points(state: TableState) -> list[int]:
    game, hand = state.game, state.hand
    assert game is not None and hand is not None
    return [hand.points[game.preset.side_of(s)] for s in range(hand.players)]


def _moves(state: TableState, seat: int | None) -> messages.Moves | None:
    legal = moves_of(state, seat)
    if legal is None:
        return None
    game = state.game
    assert game is not None

    def ends(arms: list[int]) -> list[int]:
        # The ends worth asking about, so that the page holds no rule of which ends are alike.
        layout = _layout_json(state)  # (only read: shared with the state's "layout")
        return end_choices(layout, arms, game.preset)

    return moves_json(legal, ends)


# Updates (protocol 2) ---------------------------------------------------------------------
def update_for(
    state: TableState,
    seat: int | None,
    events: list[messages.Event],
    *,
    laid: int,
    timeouts: tuple[int, ...],
    player: str | None,
    name: str | None,
    connected: set[int],
    now: float,
    ratings: dict[str, str] | None = None,
    was: int | None = None,
) -> messages.UpdateMessage:
    """The ``update`` message after ``events`` (as ``seat`` sees them already) for a socket that
    was sent ``laid`` tiles of this hand's layout and ``timeouts`` per seat: the events, and the
    parts of the state they changed, as the rules decided them (turn, legal moves, open ends...).
    The seats are sent whole after any event but a move, and when a move changed a seat's
    timeouts (the timer played for it, or it moved in time again)."""
    parts: messages.UpdateParts = {}
    hand = state.hand
    if hand is not None:
        parts["hand"] = _hand_patch(state, seat, events, laid)
    if any(e["kind"] != "move" for e in events) or timeouts != timeouts_of(state):
        parts["table"] = cached(state, "table", lambda: table_meta(state))
        parts["you"] = you_json(state, seat, player, name, was)
        parts["seats"] = _seats(state, connected, ratings)
        parts["next_hand"] = next_hand_json(state, now)
        parts["game"] = cached(state, "game", lambda: game_json(state))
        parts["rematch"] = rematch_json(state)
    elif hand is not None:
        parts["counts"] = cached(state, "counts", lambda: [h.bit_count() for h in hand.holdings])
        if _scored(events):
            game = state.game
            assert game is not None
            parts["scores"] = cached(state, "scores", game.seat_scores)
    # In the order sent: the parts, the clock, then a turn-based table's clocks.
    message: messages.UpdateMessage = {
        "type": "update",
        "version": state.version,
        "events": events,
        **parts,
        "clock": clock_json(state, now),
    }
    if state.options.turn_based is not None:  # each player's clock changes with every move
        message["turn_based"] = turn_based_json(state, seat, now)
    return message


def timeouts_of(state: TableState) -> tuple[int, ...]:
    """Each seat's timeouts (a move can change them, beside its tile count and score)."""
    return tuple(s.timeouts for s in state.seats)


def _scored(events: Sequence[messages.Event]) -> bool:
    """Whether the events changed a score: a play that scored, a hand's end."""
    return any(e.get("scored") or e["kind"] == "hand_over" for e in events)


def laid_count(state: TableState) -> int:
    """How many tiles this hand's layout has (what a socket was sent of it)."""
    hand = state.hand
    return len(hand.layout.chain) if hand is not None else 0


def _hand_patch(
    state: TableState, seat: int | None, events: Sequence[messages.Event], laid: int
) -> messages.HandUpdate:
    hand = state.hand
    assert hand is not None
    # Only what the events can have changed: the turn and the legal moves always, the boneyard
    # after a draw, the points after a play that scored or a hand's end, the count of the ends
    # after a tile was laid.
    patch: messages.HandUpdate = {"turn": state.turn, "moves": _moves(state, seat)}
    if any("draw" in e for e in events):
        patch["boneyard"] = len(hand.boneyard) - hand.drawn
    if _scored(events):
        patch["points"] = cached(state, "points", lambda: _points(state))
    if seat is not None and any(
        e["kind"] == "move" and e["seat"] == seat and "pass" not in e for e in events
    ):
        mine = own_tiles(state, seat)  # a play or a draw of this seat's changed its tiles
        patch["tiles"] = [tile_name(t) for t in mine]
        patch["pips"] = sum(PIPS[t] for t in mine)
    if len(hand.layout.chain) > laid:
        # Made once per version and shared by every seat sent the same tiles.
        patch["ends_total"] = cached(state, "ends_total", lambda: _ends_total(state))
        patch["layout"] = cached(
            state,
            ("laid", laid),
            lambda: _shown_layout(state, hand.layout).since(laid, hand.layout),
        )
    if any(e["kind"] == "hand_over" for e in events):
        patch["result"] = _result(state)
    return patch


def _layout_json(state: TableState) -> messages.Layout:
    """The hand's whole layout as JSON, made once per version."""
    hand = state.hand
    assert hand is not None
    layout = hand.layout
    return cached(state, "layout", lambda: _shown_layout(state, layout).json(layout))


def _shown_layout(state: TableState, layout: Layout) -> ShownLayout:
    cache = cache_of(state)
    shown = cache.shown_layout
    if not isinstance(shown, ShownLayout) or not shown.follows(layout):
        shown = cache.shown_layout = ShownLayout(layout.kind)
    shown.catch_up(layout)
    return shown


def moves_json(legal: list[Move], ends: Callable[[list[int]], list[int]]) -> messages.Moves:
    """The legal moves of the seat to move, grouped as the page offers them; ``ends``: which of
    a play's arms are worth asking about."""
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
    play: list[messages.Play] = []
    for tile, arms in sorted(plays.items(), key=lambda ta: -RANK[ta[0]]):
        arms.sort()
        play.append({"tile": tile_name(tile), "arms": arms, "ends": ends(arms)})
    return {"play": play, "lead": lead, "draw": draw, "pass": passes}
