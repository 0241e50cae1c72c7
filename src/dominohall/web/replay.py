"""A finished game's replay: every position of every hand, as the rules engine computes it.

The stored game record is replayed move by move with ``rules`` (the record check's own replay),
and each position is written as the page draws it: the layout (``docs/protocol.md`` LAYOUT), every
seat's tiles (the game is over: all are shown), the boneyard, and the scores. So the replay viewer
never applies a rule itself.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..hall import messages
from ..hall.layout_view import ShownLayout
from ..rules import Hand, tiles_of
from ..rules.record import new_game, parse_record, replay_steps
from ..rules.tiles import RANK, tile_name


def replay_json(record_json: dict[str, Any]) -> messages.Replay:
    """``{"hands": [HAND, ...]}`` (docs/protocol.md section 6): each hand's positions, from the
    deal (no move yet) to its last move."""
    record = parse_record(record_json)
    game = new_game(record)
    preset = game.preset
    hands: list[messages.ReplayHand] = []
    shown: ShownLayout | None = None
    for step in replay_steps(record, game):
        hand = step.hand
        if step.move_index is None:
            shown = ShownLayout(hand.layout.kind)
            hands.append(
                {
                    "number": step.hand_index,
                    "leader": hand.leader,
                    "positions": [],
                    "result": None,
                }
            )
        assert shown is not None
        current = hands[-1]
        move: dict[str, object] | None = None  # (the record's move, as stored)
        if step.move_index is not None:
            move = record_json["hands"][step.hand_index]["moves"][step.move_index]
        current["positions"].append(
            {
                "move": move,
                "turn": hand.turn if hand.result is None else None,
                "layout": shown.json(hand.layout),
                "tiles": [_names(hand.holdings[s]) for s in range(hand.players)],
                "boneyard": len(hand.boneyard) - hand.drawn,
                "points": [hand.points[preset.side_of(s)] for s in range(hand.players)],
                "scores": game.seat_scores(),
            }
        )
        if hand.result is not None:
            current["result"] = _result(hand, preset.side_of)
    return {"hands": hands}


def _result(hand: Hand, side_of: Callable[[int], int]) -> messages.ReplayResult:
    r = hand.result
    assert r is not None
    return {
        "winner": r.winner,
        "blocked": r.blocked,
        "bonus": r.bonus,
        "cut_short": r.cut_short,
        "points": [hand.points[side_of(s)] for s in range(hand.players)],
    }


def _names(mask: int) -> list[str]:
    """A seat's tiles, heaviest first (as the table shows a hand)."""
    return [tile_name(t) for t in sorted(tiles_of(mask), key=lambda t: -RANK[t])]
