"""Hard's worker pool: the whole budget while the workers keep up, shared out when decisions queue."""

from __future__ import annotations

import asyncio
import random
from concurrent.futures import Future

import pytest

from dominohall.bots.hard import DEFAULT_BUDGET
from dominohall.hall.computer import LEAST_BUDGET, Thinkers
from dominohall.rules import PRESETS, Game, View

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def test_a_decision_with_a_worker_free_gets_the_whole_budget():
    thinkers = Thinkers(workers=2, hard_budget=0.4)
    for asked in (1, 2):
        thinkers.asked = asked
        assert thinkers.budget_now() == 0.4
    thinkers.hard_budget = None
    thinkers.asked = 1
    assert thinkers.budget_now() == DEFAULT_BUDGET


def test_decisions_queued_share_the_budget_down_to_a_least():
    thinkers = Thinkers(workers=1, hard_budget=0.4)
    thinkers.asked = 4
    assert thinkers.budget_now() == pytest.approx(0.1)
    thinkers.asked = 1000
    assert thinkers.budget_now() == LEAST_BUDGET
    thinkers.hard_budget = 0.01  # a budget set below the least is kept as it is
    assert thinkers.budget_now() == 0.01


class HeldPool:
    """Stands for the worker processes: records each decision's budget and answers when told."""

    def __init__(self) -> None:
        self.budgets: list[float] = []
        self.pending: list[tuple[Future, View]] = []

    def submit(self, fn, level, view, budget):
        self.budgets.append(budget)
        future: Future = Future()
        self.pending.append((future, view))
        return future

    def answer_all(self) -> None:
        for future, view in self.pending:
            future.set_result(view.legal_moves()[0])


async def test_each_decision_is_asked_with_the_budget_of_its_moment():
    thinkers = Thinkers(workers=1, hard_budget=0.3)
    pool = HeldPool()
    thinkers._pool = pool  # type: ignore[assignment]
    hand = Game(PRESETS["block"], 2, rng=random.Random(1)).start_hand()
    view = hand.view(hand.turn)
    asks = [asyncio.ensure_future(thinkers.choose("hard", view)) for _ in range(3)]
    while len(pool.budgets) < 3:
        await asyncio.sleep(0)
    assert pool.budgets == [0.3, 0.15, pytest.approx(0.1)]
    pool.answer_all()
    await asyncio.gather(*asks)
    assert thinkers.asked == 0
