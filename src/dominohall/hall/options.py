"""A table's options (RULES.md 6): game, play to, seats, turn timer, computer players, privacy,
who may watch.

The timer also sets the table's speed: the real-time timers (a few seconds a turn) or the
turn-based clocks (a day or so a move), each a line of data below.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from ..i18n import English
from ..rules import PRESETS, ConfigError, get_preset
from .errors import HallError
from .messages import ChosenOptions

TURN_SECONDS = {"normal": 25.0, "relaxed": 50.0, "quick": 12.5}
NEXT_HAND_SECONDS = {"normal": 20.0, "relaxed": 40.0, "quick": 10.0}
HOUR = 3600.0
DAY = 24 * HOUR


@dataclass(frozen=True)
class TurnBasedClock:
    """A turn-based speed (RULES.md 6, S3): each player's clock starts at one ``increment``,
    each of their turns adds it, and it never holds more than ``cap`` seconds."""

    id: str
    name: str
    increment: float
    cap: float


TURN_BASED = {
    c.id: c
    for c in (
        TurnBasedClock("day", "1 move per day (+24 h a turn, at most 3 days)", DAY, 3 * DAY),
        TurnBasedClock("half-day", "Fast (+12 h a turn, at most 1.5 days)", 12 * HOUR, 1.5 * DAY),
        TurnBasedClock("three-days", "Slow (+72 h a turn, at most 7 days)", 3 * DAY, 7 * DAY),
    )
}
RANKED_REAL_TIME = "normal"  # real-time ranked games use the Normal timer (RULES.md 6)
RANKED_TURN_BASED = "day"  # turn-based ranked games play 1 move per day (RULES.md 6)
TIMERS = (*TURN_SECONDS, *TURN_BASED)


@dataclass(frozen=True)
class Options:
    preset: str = "draw"
    target: int = 50
    seats: int = 2
    timer: str = "normal"
    private: bool = False
    ranked: str | None = None  # the pool of a ranked table (docs/ratings.md); None: casual
    # Whether people without a seat may watch the game; None: as the table's privacy says (a
    # public table is open to watchers, a private one is not: docs/protocol.md 3).
    open_to_watchers: bool | None = None
    # A ranked game that also counts for its pool and speed's arena season (docs/arena.md).
    arena: bool = False
    # A tournament game's cap in minutes of play (RULES.md 5, ``cap``): once reached, the hand in
    # progress is played out and the highest score wins. None: no cap (every other table).
    cap: int | None = None

    @property
    def watchable(self) -> bool:
        """Whether anyone may watch the game, not only its players."""
        if self.open_to_watchers is not None:
            return self.open_to_watchers
        return not self.private

    @property
    def turn_based(self) -> TurnBasedClock | None:
        """The turn-based clock of a turn-based table (None: a real-time table)."""
        return TURN_BASED.get(self.timer)

    @property
    def speed(self) -> str:
        """``real-time`` or ``turn-based`` (as ratings and the matchmaking name speeds)."""
        return "turn-based" if self.timer in TURN_BASED else "real-time"

    @property
    def turn_seconds(self) -> float:
        """A real-time turn's seconds; a turn-based table's increment."""
        clock = self.turn_based
        return clock.increment if clock is not None else TURN_SECONDS[self.timer]

    @property
    def next_hand_seconds(self) -> float:
        """The wait between hands: none on a turn-based table (the next hand starts at once)."""
        return NEXT_HAND_SECONDS.get(self.timer, 0.0)

    def to_json(self) -> ChosenOptions:
        chosen: ChosenOptions = {
            "preset": self.preset,
            "target": self.target,
            "seats": self.seats,
            "timer": self.timer,
            "private": self.private,
        }
        if self.ranked is not None:
            chosen["ranked"] = self.ranked
        if self.open_to_watchers is not None:
            chosen["open_to_watchers"] = self.open_to_watchers
        if self.arena:
            chosen["arena"] = True
        if self.cap is not None:
            chosen["cap"] = self.cap
        return chosen

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Options:
        return cls(
            obj["preset"],
            obj["target"],
            obj["seats"],
            obj["timer"],
            obj["private"],
            obj.get("ranked"),
            obj.get("open_to_watchers"),
            bool(obj.get("arena", False)),
            obj.get("cap"),
        )

    @classmethod
    def choose(
        cls,
        preset: str | None = None,
        target: int | None = None,
        seats: int | None = None,
        timer: str | None = None,
        private: bool | None = None,
        open_to_watchers: bool | None = None,
    ) -> Options:
        """A casual table's options from what a person chose (None: the default); a value the
        hall does not offer is a ``bad_option`` saying what is."""
        preset_id = preset if preset is not None else "draw"
        try:
            rules = get_preset(preset_id)
        except ConfigError:
            raise HallError(
                "bad_option",
                "unknown game {preset_id!r} (known: {presets})",
                preset_id=preset_id,
                presets=", ".join(PRESETS),
            ) from None
        target = target if target is not None else rules.default_target
        if target not in rules.targets:
            allowed = ", ".join(map(str, rules.targets))
            raise HallError(
                "bad_option",
                "{rules_name} plays to {allowed}, not {target!r}",
                rules_name=rules.name,
                allowed=allowed,
                target=target,
            )
        seats = seats if seats is not None else (4 if rules.teams else 2)
        if seats not in rules.players:
            allowed = ", ".join(map(str, rules.players))
            raise HallError(
                "bad_option",
                "{rules_name} seats {allowed} players, not {seats!r}",
                rules_name=rules.name,
                allowed=allowed,
                seats=seats,
            )
        timer = timer if timer is not None else "normal"
        if timer not in TIMERS:
            raise HallError(
                "bad_option",
                "the turn timer is one of {timers} (GET /api/timers), not {timer!r}",
                timers=", ".join(TIMERS),
                timer=timer,
            )
        return cls(rules.id, target, seats, timer, bool(private), None, open_to_watchers)


CAP_MINUTES = range(1, 601)  # a cap from one minute to ten hours


def capped(options: Options, minutes: int | None) -> Options:
    """``options`` with a cap of ``minutes`` (tournaments only, never a preset's: RULES.md 5);
    None leaves them uncapped. ``bad_option`` when the cap is out of range or the table is
    turn-based (its games last days: a cap in minutes means nothing there)."""
    if minutes is None:
        return options
    if isinstance(minutes, bool) or not isinstance(minutes, int) or minutes not in CAP_MINUTES:
        raise HallError("bad_option", "a cap is 1 to 600 minutes, not {minutes!r}", minutes=minutes)
    if options.turn_based is not None:
        raise HallError("bad_option", "a turn-based game cannot be capped in minutes")
    return replace(options, cap=minutes)


class BotLevel(StrEnum):
    """A computer player's level (``bots/``)."""

    EASY = "easy"
    NORMAL = "normal"
    HARD = "hard"

    @classmethod
    def named(cls, name: str, where: str = "") -> BotLevel:
        """The level called ``name``; ``bad_option`` (saying ``where``) when there is none."""
        try:
            return cls(name)
        except ValueError:
            raise HallError(
                "bad_option",
                "{where}a computer player is easy, normal or hard, not {name!r}",
                where=English(where),
                name=name,
            ) from None


def check_table_bots(options: Options, bots: Sequence[BotLevel | None]) -> None:
    """``bots`` has one entry per seat, the creator's seat 0 none."""
    if len(bots) != options.seats:
        raise HallError(
            "bad_option",
            "'bots' lists one entry per seat ({options_seats}), or is left out",
            options_seats=options.seats,
        )
    if bots[0] is not None:
        raise HallError("bad_option", "seat 0 is yours: it cannot hold a computer player")
