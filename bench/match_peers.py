"""Hard against the strongest public dominoes programs, hand by hand, under this project's rules.

Two matches (issue 13), each hand the first hand of a fresh game of the preset, so that the first
lead is forced as RULES.md says, on a fresh seeded deal:

- ``block``: 2-player Block, Hard against OpenSpiel's ISMCTS (``python_block_dominoes``,
  ``ISMCTSBot``, random-rollout evaluator, UCT c=2, 1,000 simulations by default). OpenSpiel's
  game has no ``resample_from_infostate``, so the harness gives ISMCTS a resampler: the
  opponent's tiles drawn uniformly from the tiles it may hold (those it was shown to lack, when
  it was skipped, left out), the same inference Hard makes.
- ``partnership``: a Hard pair against a pair of abw333 ``dominoes`` players using
  ``probabilistic_alphabeta`` (``--samples`` deals each, 10 by default, full alpha-beta on each,
  from move ``--start-move`` of the hand on, 4 by default; before it, heaviest tile first).

Deal ``d`` is played twice, hand ``2d`` with Hard in one seat (team) and ``2d+1`` in the other,
so the luck of the deal cancels out. The peer keeps its own game's copy of the position and
searches that; the harness hands it the moves it does not choose (the forced first lead, which
its game does not know is forced; passes, which its game makes by itself). Every move is checked
three ways: by an independent referee written from the rules (``peer_mapping.referee``), by our
engine (``Hand.push``), and by the peer's own game (it must list the move as legal), and after
every move the two games must agree on the open ends and every hand; at the end, on the winner
and the points.

Needs the peers installed beside the project, outside its dependencies::

    python3 -m venv /work/peers-venv
    /work/peers-venv/bin/pip install open_spiel dominoes -e .
    nice -n 19 /work/peers-venv/bin/python bench/match_peers.py block --hands 200 --seed 1000

Prints one JSON object: hands won by Hard (ties half) with the 95% Wilson interval, Hard's net
points per hand with a 95% interval, and each side's seconds per decision (real choices only).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import signal
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from peer_mapping import (  # noqa: E402
    abw_end,
    covered_number,
    move_covering,
    open_ends,
    pair_of,
    referee,
    tile_of_pair,
)

from dominohall.bots.hard import DEFAULT_BUDGET, HardBot  # noqa: E402
from dominohall.bots.match import percentile, wilson  # noqa: E402
from dominohall.rules import PASS, PRESETS, Game, Hand  # noqa: E402
from dominohall.rules.tiles import HIGH, LOW, iter_tiles  # noqa: E402


@dataclass
class Outcome:
    """One hand from Hard's side: 1 won, 0.5 tied, 0 lost; net points; decision times."""

    score: float
    net: int
    hard_times: list[float] = field(default_factory=list)
    peer_times: list[float] = field(default_factory=list)


def first_hand(preset_id: str, players: int, seed: str) -> Hand:
    """The first hand of a fresh game: a seeded deal, the lead forced by the preset."""
    return Game(PRESETS[preset_id], players, rng=random.Random(seed)).start_hand()


def outcome_of(hand: Hand, hard_side: int) -> tuple[float, int]:
    result = hand.result
    assert result is not None
    winner = result.winner
    score = 0.5 if winner is None else float(hand.preset.side_of(winner) == hard_side)
    net = hand.points[hard_side] - hand.points[1 - hard_side]
    return score, net


# OpenSpiel: Block, 2 players ------------------------------------------------------------------
class Spiel:
    """OpenSpiel's game, its action table and the ISMCTS bot, loaded once."""

    def __init__(self, simulations: int) -> None:
        import numpy as np
        import pyspiel
        from open_spiel.python.algorithms import ismcts, mcts
        from open_spiel.python.games import block_dominoes

        self.np, self.ismcts, self.mcts = np, ismcts, mcts
        self.module = block_dominoes
        self.game = pyspiel.load_game("python_block_dominoes")
        self.simulations = simulations
        self.index = {(a.player, a.tile, a.edge): i for i, a in enumerate(block_dominoes._ACTIONS)}
        self.deck_index = {tile: i for i, tile in enumerate(block_dominoes._DECK)}

    def new_state(self, hands: list[list[tuple[int, int]]], history: list[Any]) -> Any:
        """A state with player 0 and 1 dealt ``hands`` (as dealt), then ``history`` replayed."""
        state = self.game.new_initial_state()
        for hand in hands:
            for low, high in hand:
                state.apply_action(self.deck_index[(float(low), float(high))])
        for action in history:
            state.apply_action(self.index[(action.player, action.tile, action.edge)])
        return state

    def action(self, player: int, tile: int, edge: int | None) -> int:
        low, high = pair_of(tile)
        return self.index[
            (player, (float(low), float(high)), None if edge is None else float(edge))
        ]

    def bot(self, seed: int, rng: random.Random) -> Any:
        evaluator = self.mcts.RandomRolloutEvaluator(1, self.np.random.RandomState(seed))
        bot = self.ismcts.ISMCTSBot(
            self.game,
            evaluator,
            2.0,
            self.simulations,
            random_state=self.np.random.RandomState(seed + 1),
        )
        bot.set_resampler(lambda state, player: self.resample(state, player, rng))
        return bot

    def resample(self, state: Any, player: int, rng: random.Random) -> Any:
        """A state ``player`` cannot tell from ``state``: the opponent's tiles drawn uniformly
        from those it may hold (not seen, and not showing a number it was skipped on)."""
        opponent = 1 - player
        history = state.actions_history
        played: list[list[tuple[float, float]]] = [[], []]
        lacks: set[float] = set()
        edges: list[float] = []
        for i, action in enumerate(history):
            played[action.player].append(action.tile)
            if not edges:
                edges = list(action.tile)
            else:
                edges.remove(action.edge)
                edges.append(action.tile[0] if action.tile[0] != action.edge else action.tile[1])
            # Who moved next (the player to move now, after the last action): the player again
            # means the opponent was skipped, so nothing of it fitted the ends then.
            following = history[i + 1].player if i + 1 < len(history) else player
            if action.player == player and following == player:
                lacks.update(edges)
        seen = set(state.hands[player]) | {t for p in played for t in p}
        unseen = [t for t in self.module._DECK if t not in seen]
        allowed = [t for t in unseen if t[0] not in lacks and t[1] not in lacks]
        guess = rng.sample(allowed, len(state.hands[opponent]))
        dealt: list[list[tuple[float, float]]] = [[], []]
        dealt[player] = list(state.hands[player]) + played[player]
        dealt[opponent] = guess + played[opponent]
        return self.new_state(
            [[(int(a), int(b)) for a, b in hand] for hand in dealt], list(history)
        )


def block_hand(spiel: Spiel, deal: int, hard_seat: int, hard: HardBot, seed: int) -> Outcome:
    hand = first_hand("block", 2, f"peers-block:{seed}:{deal}")
    leader = hand.leader
    player_of = [0 if s == leader else 1 for s in range(2)]  # OpenSpiel's player 0 leads
    state = spiel.new_state(
        [[pair_of(t) for t in iter_tiles(hand.holdings[s])] for s in (leader, 1 - leader)], []
    )
    ismcts = spiel.bot(seed * 7919 + deal * 2 + hard_seat, random.Random(f"{seed}:{deal}"))
    out = Outcome(0.0, 0)
    while hand.result is None:
        seat = hand.turn
        moves = hand.legal_moves()
        if moves == [PASS]:  # OpenSpiel skips a player who cannot play
            referee(hand.holdings[seat], hand.layout, PASS)
            hand.push(PASS)
            continue
        assert state.current_player() == player_of[seat], "the games disagree on whose turn it is"
        if len(moves) == 1:
            move = moves[0]  # forced (the first lead, or one tile that fits): nobody is asked
        elif seat == hard_seat:
            started = time.perf_counter()
            move = hard.choose(hand.view(seat))
            out.hard_times.append(time.perf_counter() - started)
        else:
            started = time.perf_counter()
            chosen = spiel.module._ACTIONS[ismcts.step(state)]
            out.peer_times.append(time.perf_counter() - started)
            move = move_covering(
                hand.layout,
                tile_of_pair(*chosen.tile),
                None if chosen.edge is None else int(chosen.edge),
                None if chosen.edge is not None else int(chosen.tile[0]),
            )
        referee(hand.holdings[seat], hand.layout, move)
        action = spiel.action(player_of[seat], move.tile, covered_number(hand.layout, move))
        assert action in state.legal_actions(), f"OpenSpiel does not allow {move}"
        state.apply_action(action)
        hand.push(move)
        assert open_ends(hand.layout) == [int(e) for e in state.open_edges]
        for s in range(2):
            theirs = sorted(tile_of_pair(*t) for t in state.hands[player_of[s]])
            assert theirs == sorted(iter_tiles(hand.holdings[s])), "the hands differ"
    assert state.is_terminal(), "our hand ended and OpenSpiel's did not"
    out.score, out.net = outcome_of(hand, hard_seat)
    assert state.returns()[player_of[hard_seat]] == out.net, "the games score the hand apart"
    return out


# abw333 dominoes: Partnership ----------------------------------------------------------------
def partnership_hand(
    samples: int, start_move: int, deal: int, hard_team: int, hards: list[HardBot], seed: int
) -> Outcome:
    import dominoes

    hand = first_hand("partnership", 4, f"peers-partnership:{seed}:{deal}")
    random.seed(f"abw:{seed}:{deal}:{hard_team}")  # abw333 samples deals with the global random
    leader = hand.leader
    lead = hand.legal_moves()[0]
    hands = [
        dominoes.Hand([dominoes.Domino(HIGH[t], LOW[t]) for t in iter_tiles(hand.holdings[s])])
        for s in range(4)
    ]
    first = dominoes.Domino(lead.first, HIGH[lead.tile] + LOW[lead.tile] - lead.first)
    peer_game = dominoes.Game(dominoes.Board(), hands, [], leader, ((first, True),), leader, None)
    # Full alpha-beta of the first positions costs many seconds a deal: before ``start_move``
    # the peer plays as the library's own bota_gorda (heaviest tile), as its start_move intends.
    search = dominoes.players.probabilistic_alphabeta(
        start_move=start_move, sample_size=samples, player=dominoes.players.bota_gorda
    )

    def player(game: Any) -> None:
        dominoes.players.bota_gorda(game)
        search(game)

    out = Outcome(0.0, 0)
    while hand.result is None:
        seat = hand.turn
        moves = hand.legal_moves()
        if moves == [PASS]:  # abw333 records the pass by itself
            referee(hand.holdings[seat], hand.layout, PASS)
            hand.push(PASS)
            continue
        assert peer_game.turn == seat, "the games disagree on whose turn it is"
        if len(moves) == 1:
            move = moves[0]
        elif seat % 2 == hard_team:
            started = time.perf_counter()
            move = hards[seat // 2].choose(hand.view(seat))
            out.hard_times.append(time.perf_counter() - started)
        else:
            started = time.perf_counter()
            player(peer_game)
            domino, left = peer_game.valid_moves[0]
            out.peer_times.append(time.perf_counter() - started)
            end = peer_game.board.left_end() if left else peer_game.board.right_end()
            move = move_covering(hand.layout, tile_of_pair(domino.first, domino.second), end)
        referee(hand.holdings[seat], hand.layout, move)
        if hand.layout.empty:
            left, domino = True, first
        else:
            left = abw_end(
                hand.layout, move, peer_game.board.left_end(), peer_game.board.right_end()
            )
            domino = dominoes.Domino(HIGH[move.tile], LOW[move.tile])
        assert (domino, left) in peer_game.valid_moves, f"abw333 does not allow {move}"
        peer_game.make_move(domino, left)
        hand.push(move)
        if hand.result is None:
            ends = sorted((peer_game.board.left_end(), peer_game.board.right_end()))
            assert open_ends(hand.layout) == ends, "the games' ends differ"
        for s in range(4):
            theirs = sorted(tile_of_pair(d.first, d.second) for d in peer_game.hands[s])
            assert theirs == sorted(iter_tiles(hand.holdings[s])), "the hands differ"
    result = peer_game.result
    assert result is not None, "our hand ended and abw333's did not"
    out.score, out.net = outcome_of(hand, hard_team)
    peer_says = 0.5 if result.points == 0 else float((result.points > 0) == (hard_team == 0))
    assert peer_says == out.score, "the games disagree on who won"
    return out


# The match --------------------------------------------------------------------------------
def summary(outcomes: list[Outcome], args: argparse.Namespace, started: float) -> dict[str, Any]:
    n = len(outcomes)
    won = sum(o.score for o in outcomes)
    low, high = wilson(won, n) if n else (0.0, 1.0)  # ties count half (a half win)
    nets = [o.net for o in outcomes]
    mean = statistics.fmean(nets) if nets else 0.0
    half = 1.96 * statistics.stdev(nets) / math.sqrt(n) if n > 1 else float("inf")

    def times(name: str) -> dict[str, float]:
        values = sorted(t for o in outcomes for t in getattr(o, name))
        return {
            "decisions": len(values),
            "mean_s": statistics.fmean(values) if values else 0.0,
            "p95_s": percentile(values, 0.95),
        }

    return {
        "match": args.match,
        "peer": (
            f"ISMCTS {args.simulations} simulations"
            if args.match == "block"
            else f"probabilistic_alphabeta sample_size={args.samples} start_move={args.start_move}"
        ),
        "hard": {
            "budget_s": args.budget or DEFAULT_BUDGET,
            "samples": args.hard_samples,
            "method": args.hard_method or "ismcts",
        },
        "seed": args.seed,
        "first_hand": args.first_hand,
        "hands": n,
        "hard_hands_won": won,
        "hard_win_rate": won / n if n else 0.0,
        "ci95": [round(low, 4), round(high, 4)],
        "hard_net_points_per_hand": round(mean, 3),
        "net_points_ci95": [round(mean - half, 3), round(mean + half, 3)],
        "hard_seconds": times("hard_times"),
        "peer_seconds": times("peer_times"),
        "wall_s": round(time.perf_counter() - started, 1),
        # Each hand's result for Hard (1, 0.5, 0) in order, to compare two Hards deal by deal.
        **({"outcomes": [o.score for o in outcomes]} if args.outcomes else {}),
    }


def make_hard(args: argparse.Namespace, seed: int) -> HardBot:
    kwargs: dict[str, Any] = {}
    if args.budget is not None:
        kwargs["budget"] = args.budget
    if args.hard_samples is not None:
        kwargs["samples"] = args.hard_samples
    if args.hard_method is not None:
        kwargs["method"] = args.hard_method
    return HardBot(seed=seed, **kwargs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("match", choices=("block", "partnership"))
    parser.add_argument("--hands", type=int, default=100, help="hands (even: each deal twice)")
    parser.add_argument("--seed", type=int, default=1000, help="seeds the deals and the bots")
    parser.add_argument(
        "--first-hand",
        type=int,
        default=0,
        help="start at this hand of the seed's series (even), to go on with a match stopped early",
    )
    parser.add_argument("--simulations", type=int, default=1000, help="ISMCTS simulations")
    # The package's usual strength (issue 27); until then the bench ran --samples 4 --start-move 5.
    parser.add_argument("--samples", type=int, default=10, help="probabilistic_alphabeta deals")
    parser.add_argument(
        "--start-move", type=int, default=4, help="probabilistic_alphabeta from this move on"
    )
    parser.add_argument("--budget", type=float, default=None, help="Hard's seconds per decision")
    parser.add_argument("--hard-samples", type=int, default=None, help="Hard's deals (old Hard)")
    parser.add_argument("--hard-method", choices=("ismcts", "pimc"), default=None)
    parser.add_argument(
        "--outcomes", action="store_true", help="list each hand's result in the JSON"
    )
    parser.add_argument("--progress", type=int, default=20, help="print a line every N hands")
    args = parser.parse_args()
    spiel = Spiel(args.simulations) if args.match == "block" else None
    outcomes: list[Outcome] = []
    started = time.perf_counter()
    # Stopped early (SIGTERM or Ctrl-C), the match reports the hands finished so far.
    signal.signal(signal.SIGTERM, lambda *_: (_ for _ in ()).throw(KeyboardInterrupt()))
    try:
        play(args, spiel, outcomes, started)
    except KeyboardInterrupt:
        print(f"# stopped after {len(outcomes)} hands", file=sys.stderr)
    print(json.dumps(summary(outcomes, args, started), indent=2))


def play(
    args: argparse.Namespace, spiel: Spiel | None, outcomes: list[Outcome], started: float
) -> None:
    for h in range(args.first_hand, args.first_hand + args.hands):
        deal, side = divmod(h, 2)
        if spiel is not None:
            hard = make_hard(args, args.seed * 100_003 + h)
            outcomes.append(block_hand(spiel, deal, side, hard, args.seed))
        else:
            hards = [make_hard(args, args.seed * 100_003 + h * 2 + k) for k in range(2)]
            outcomes.append(
                partnership_hand(args.samples, args.start_move, deal, side, hards, args.seed)
            )
        if args.progress and len(outcomes) % args.progress == 0:
            line = summary(outcomes, args, started)
            print(
                f"# {len(outcomes)} hands: {line['hard_win_rate']:.3f} {line['ci95']} "
                f"net {line['hard_net_points_per_hand']}",
                file=sys.stderr,
                flush=True,
            )


if __name__ == "__main__":
    main()
