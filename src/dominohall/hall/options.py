"""A table's options (RULES.md 6): game, play to, seats, turn timer, computer players, privacy."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..rules import PRESETS, ConfigError, get_preset
from .errors import HallError

TURN_SECONDS = {"normal": 25.0, "relaxed": 50.0, "quick": 12.5}
NEXT_HAND_SECONDS = {"normal": 20.0, "relaxed": 40.0, "quick": 10.0}
BOT_LEVELS = ("easy", "normal", "hard")
FIELDS = ("preset", "target", "seats", "timer", "private", "bots")  # of a request for a table


@dataclass(frozen=True)
class Options:
    preset: str = "draw"
    target: int = 50
    seats: int = 2
    timer: str = "normal"
    private: bool = False
    ranked: str | None = None  # the pool of a ranked table (docs/ratings.md); None: casual

    @property
    def turn_seconds(self) -> float:
        return TURN_SECONDS[self.timer]

    @property
    def next_hand_seconds(self) -> float:
        return NEXT_HAND_SECONDS[self.timer]

    def to_json(self) -> dict[str, Any]:
        ranked = {"ranked": self.ranked} if self.ranked is not None else {}
        return {
            "preset": self.preset,
            "target": self.target,
            "seats": self.seats,
            "timer": self.timer,
            "private": self.private,
            **ranked,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Options:
        return cls(
            obj["preset"],
            obj["target"],
            obj["seats"],
            obj["timer"],
            obj["private"],
            obj.get("ranked"),
        )

    @classmethod
    def parse(cls, obj: dict[str, Any]) -> tuple[Options, list[str | None]]:
        """Options and computer players (one entry per seat) from a request; HallError if bad.

        The request's fields have their types already (``web/fields.py`` checks them, and that
        no other field is given): here are the values the hall offers.
        """
        preset_id = obj.get("preset", "draw")
        try:
            preset = get_preset(preset_id)
        except ConfigError:
            raise HallError(
                "bad_option", f"unknown game {preset_id!r} (known: {', '.join(PRESETS)})"
            ) from None
        target = obj.get("target", preset.default_target)
        if target not in preset.targets:
            allowed = ", ".join(map(str, preset.targets))
            raise HallError("bad_option", f"{preset.name} plays to {allowed}, not {target!r}")
        seats = obj.get("seats", 4 if preset.teams else 2)
        if seats not in preset.players:
            allowed = ", ".join(map(str, preset.players))
            raise HallError("bad_option", f"{preset.name} seats {allowed} players, not {seats!r}")
        timer = obj.get("timer", "normal")
        if timer not in TURN_SECONDS:
            raise HallError(
                "bad_option", f"the turn timer is normal, relaxed or quick, not {timer!r}"
            )
        private = obj.get("private", False)
        bots = obj.get("bots")
        if bots is None:
            bots = [None] * seats
        if len(bots) != seats:
            raise HallError(
                "bad_option", f"'bots' lists one entry per seat ({seats}), or is left out"
            )
        for seat, bot in enumerate(bots):
            if bot is not None and bot not in BOT_LEVELS:
                raise HallError(
                    "bad_option",
                    f"seat {seat}: a computer player is easy, normal or hard, not {bot!r}",
                )
        if bots[0] is not None:
            raise HallError("bad_option", "seat 0 is yours: it cannot hold a computer player")
        return cls(preset.id, target, seats, timer, private), bots
