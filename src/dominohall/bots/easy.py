"""Easy: plays any tile that fits, uniformly at random."""

from __future__ import annotations

from ..rules import Move, View
from .base import new_rng


class EasyBot:
    name = "easy"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = new_rng(seed)

    def choose(self, view: View) -> Move:
        return self.rng.choice(view.legal_moves())
