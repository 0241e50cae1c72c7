"""Computer players: Easy, Normal and Hard, built on the rules engine's views."""

from __future__ import annotations

from .base import Bot, points_now
from .easy import EasyBot
from .hard import HardBot
from .normal import NormalBot

BOT_NAMES = ("easy", "normal", "hard")


def make_bot(name: str, *, seed: int | None = None, budget: float | None = None) -> Bot:
    """A computer player by name: ``easy``, ``normal`` or ``hard``; ``budget``: Hard's seconds a
    decision (its default when None), also a wall-clock limit at twice that."""
    if name == "easy":
        return EasyBot(seed)
    if name == "normal":
        return NormalBot(seed)
    if name == "hard":
        if budget is None:
            return HardBot(seed=seed)
        return HardBot(seed=seed, budget=budget, time_cap=2 * budget)
    raise ValueError(f"unknown bot {name!r} (known: {', '.join(BOT_NAMES)})")


__all__ = ["BOT_NAMES", "Bot", "EasyBot", "HardBot", "NormalBot", "make_bot", "points_now"]
