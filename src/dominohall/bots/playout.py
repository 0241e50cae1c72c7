"""Playing a guessed hand to its end with a quick, sensible policy, and judging how it ended.

Hard's search runs thousands of these per decision, so the policy works on the ``Hand`` itself
(make/unmake, no views): shed the heaviest tile, or where plays score, take the most points.
"""

from __future__ import annotations

from ..rules import Hand, Move
from ..rules.moves import MoveKind
from ..rules.presets import Count, GameEnd
from ..rules.tiles import RANK
from .base import play_points

# Looked up once: reading an enum member off its class is as dear as a function call, and these
# are compared on every move of every playout.
_PLAY, _NO_COUNT, _EXACT = MoveKind.PLAY, Count.NONE, GameEnd.EXACT


def policy_move(hand: Hand) -> Move:
    """Much as Normal plays: most points now, then the heaviest tile (the first arm offered)."""
    moves = hand.legal_moves()
    if len(moves) == 1 or moves[0].kind is not _PLAY:
        return moves[0]
    preset = hand.preset
    if preset.count is _NO_COUNT:
        best = moves[0]
        best_rank = RANK[best.tile]
        for move in moves:  # max() by RANK, without a key function's call per move
            if RANK[move.tile] > best_rank:
                best, best_rank = move, RANK[move.tile]
        return best
    layout = hand.layout
    side = preset.side_of(hand.turn)
    room = hand.target - hand.scores[side] if preset.game_end is _EXACT else 1 << 30
    best, best_key = moves[0], (-1, -1)
    for move in moves:
        points = play_points(preset, layout, move)
        if points > room:
            points = 0
        key = (points, RANK[move.tile])
        if key > best_key:
            best, best_key = move, key
    return best


def play_out(hand: Hand) -> int:
    """Play ``hand`` to its end by the policy; returns how many moves were made (to pop them)."""
    made = 0
    while hand.result is None:
        hand.push(policy_move(hand))
        made += 1
    return made


def unwind(hand: Hand, moves: int) -> None:
    for _ in range(moves):
        hand.pop()


def game_winner(hand: Hand) -> int | None:
    """The side that wins the game as this finished hand leaves the scores, or None (play on)."""
    if hand.reached_target is not None:
        return hand.reached_target
    preset = hand.preset
    if preset.game_end is GameEnd.EXACT:
        return None
    scores = hand.scores
    best = max(scores)
    fell = preset.floor is not None and min(scores) <= preset.floor
    if best < hand.target and not fell:
        return None
    leaders = [side for side, s in enumerate(scores) if s == best]
    return leaders[0] if len(leaders) == 1 else None


def judge(
    hand: Hand, side: int, before: tuple[int, ...], win_value: float, hand_value: float = 0.0
) -> float:
    """How good the end of ``hand`` is for ``side``: its points since ``before`` less the others'
    (on average), plus ``win_value`` for winning the game there (minus it for losing it), plus
    ``hand_value`` for winning the hand (minus it for another side's win; nothing on a tie)."""
    scores = hand.scores
    mine = scores[side] - before[side]
    others = len(scores) - 1
    theirs = (sum(scores) - sum(before) - mine) / others if others else 0.0
    value = mine - theirs
    winner = game_winner(hand)
    if winner is not None:
        value += win_value if winner == side else -win_value
    if hand_value:
        result = hand.result
        if result is not None and result.winner is not None:
            won = hand.preset.side_of(result.winner) == side
            value += hand_value if won else -hand_value
    return value
