"""The install compiles the engine's hot modules (setup.py, mypyc). The compiled engine must play
exactly as its Python source: the same deals for a seed, the same legal moves, the same scores
and results, move after move. Its objects also travel between processes (a view to the worker
that decides for a computer player, the chosen move back), so they must pickle."""

from __future__ import annotations

import importlib
import pickle
import random
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

import dominohall.rules as rules
from dominohall.rules import PRESET_LIST, Game, Move
from dominohall.rules.compiled import HOT_MODULES, compiled_modules, stale_modules

GAMES = 12  # per preset and player count: every preset's rules, a few hundred hands in all


@pytest.fixture(scope="module")
def source_engine(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The rules package as Python source only, under a name of its own."""
    if not compiled_modules():
        pytest.skip(
            "this install runs the engine as Python (no compiler, or DOMINOHALL_PURE_PYTHON)"
        )
    root = tmp_path_factory.mktemp("source")
    shutil.copytree(
        Path(rules.__file__).parent,
        root / "source_rules",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    sys.path.insert(0, str(root))
    try:
        package = importlib.import_module("source_rules")
        for name in HOT_MODULES:
            assert getattr(package, name).__file__.endswith(".py")
        yield package
    finally:
        sys.path.remove(str(root))
        for name in [
            m for m in sys.modules if m == "source_rules" or m.startswith("source_rules.")
        ]:
            del sys.modules[name]


def test_the_install_compiled_the_hot_modules_and_none_is_stale() -> None:
    built = compiled_modules()
    if not built:
        pytest.skip(
            "this install runs the engine as Python (no compiler, or DOMINOHALL_PURE_PYTHON)"
        )
    assert built == list(HOT_MODULES)
    assert stale_modules() == []


@pytest.mark.parametrize(
    ("preset_id", "players"), [(p.id, n) for p in PRESET_LIST for n in p.players]
)
def test_the_compiled_engine_plays_as_its_source(
    source_engine: ModuleType, preset_id: str, players: int
) -> None:
    for seed in range(GAMES):
        compiled = Game(preset_id, players, rng=random.Random(seed))
        source = source_engine.Game(preset_id, players, rng=random.Random(seed))
        pick = random.Random(1000 + seed)
        while not compiled.finished:
            hand, twin = compiled.start_hand(), source.start_hand()
            assert twin.dealt == hand.dealt and twin.boneyard == hand.boneyard
            assert twin.leader == hand.leader and twin.must_lead == hand.must_lead
            while hand.result is None:
                legal = hand.legal_moves()
                assert [repr(m) for m in twin.legal_moves()] == [repr(m) for m in legal]
                move = legal[pick.randrange(len(legal))]
                hand.push(move)
                kind = source_engine.MoveKind(int(move.kind))
                twin.push(source_engine.Move(kind, move.tile, move.arm, move.first))
                assert (twin.scores, twin.points, twin.turn) == (
                    hand.scores,
                    hand.points,
                    hand.turn,
                )
            assert tuple(twin.result) == tuple(hand.result)
            assert twin.reached_target == hand.reached_target
            compiled.end_hand()
            source.end_hand()
            assert (source.finished, source.winner) == (compiled.finished, compiled.winner)


def test_a_view_and_a_move_survive_pickling() -> None:
    for preset in ("all-fives", "block", "spinner-fives"):
        hand = Game(preset, 2, rng=random.Random(3)).start_hand()
        for _ in range(6):
            if hand.result is None:
                hand.push(hand.legal_moves()[0])
        view = hand.view(0)
        again = pickle.loads(pickle.dumps(view))
        assert type(again.layout) is type(view.layout)
        assert again.legal_moves() == view.legal_moves()
        assert again.layout.chain == view.layout.chain
        assert again.layout.count_total() == view.layout.count_total()
    for move in (Move.play("6-4", arm=1), Move.lead("5-5"), Move.draw("3-2"), Move.pass_()):
        back = pickle.loads(pickle.dumps(move))
        assert back == move and back.bit == move.bit
