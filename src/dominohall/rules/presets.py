"""The options of RULES.md section 2 and the twelve presets of section 3, as data.

>>> PRESETS["all-fives"].count
<Count.FIVES: 'fives'>
>>> PRESETS["cross-fives-threes"].targets
(61,)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import ConfigError


class Drawing(StrEnum):
    NONE = "none"
    UNTIL_FITS = "until_fits"


class LayoutKind(StrEnum):
    LINE = "line"
    FIRST_DOUBLE_SPINNER = "first_double_spinner"
    ALL_DOUBLES_SPINNERS = "all_doubles_spinners"


class Count(StrEnum):
    NONE = "none"
    FIVES = "fives"
    THREES = "threes"
    FIVES_THREES = "fives_threes"
    HEADERS = "headers"


class CountValue(StrEnum):
    FULL = "full"
    UNITS = "units"


class FirstLead(StrEnum):
    HIGHEST_DOUBLE = "highest_double"
    LOT = "lot"
    RANDOM = "random"
    HOLDER_6_6 = "holder_6_6"


class NextLead(StrEnum):
    AFTER_OPENER = "after_opener"
    LOT = "lot"
    RANDOM_AMONG_TIED = "random_among_tied"


class Bonus(StrEnum):
    OTHERS = "others"
    OTHERS_R5 = "others_r5"
    ALL_UNITS = "all_units"
    NET_UNITS = "net_units"
    NET_PENALTY = "net_penalty"
    TEAM = "team"


class GameEnd(StrEnum):
    HAND_END = "hand_end"
    IMMEDIATE = "immediate"
    HAND_END_HIGHEST = "hand_end_highest"
    EXACT = "exact"


@dataclass(frozen=True)
class Preset:
    """A named bundle of options. Tables may change only the target (among ``targets``)."""

    id: str
    name: str
    source: str
    drawing: Drawing
    layout: LayoutKind
    count: Count
    count_value: CountValue
    first_lead: FirstLead
    next_lead: NextLead
    bonus: Bonus
    game_end: GameEnd
    targets: tuple[int, ...]
    default_target: int
    players: tuple[int, ...] = (2, 3, 4)
    hand_size_override: int | None = None
    floor: int | None = None  # cross-draw: the game also ends when a score falls this low
    reserve: int = 0
    teams: bool = False

    def hand_size(self, players: int) -> int:
        if self.hand_size_override is not None:
            return self.hand_size_override
        return 7 if players == 2 else 5

    def check_players(self, players: int) -> None:
        if players not in self.players:
            allowed = ", ".join(map(str, self.players))
            raise ConfigError(f"{self.id} is played by {allowed} players, not {players}")

    def check_target(self, target: int) -> None:
        if target not in self.targets:
            allowed = ", ".join(map(str, self.targets))
            raise ConfigError(f"{self.id} plays to {allowed}, not {target}")

    def side_of(self, seat: int) -> int:
        """The scoring side of a seat: its team in partnership, else the seat itself."""
        return seat % 2 if self.teams else seat

    def sides(self, players: int) -> int:
        return 2 if self.teams else players

    def leader_is_chosen_by_chance_first(self) -> bool:
        return self.first_lead in (FirstLead.LOT, FirstLead.RANDOM)

    def as_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "source": self.source,
            "drawing": self.drawing.value,
            "reserve": self.reserve,
            "layout": self.layout.value,
            "count": self.count.value,
            "count_value": self.count_value.value,
            "first_lead": self.first_lead.value,
            "next_lead": self.next_lead.value,
            "bonus": self.bonus.value,
            "game_end": self.game_end.value,
            "floor": self.floor,
            "targets": list(self.targets),
            "default_target": self.default_target,
            "players": list(self.players),
            "hand_size": {str(n): self.hand_size(n) for n in self.players},
            "teams": [[0, 2], [1, 3]] if self.teams else None,
        }


def _preset(**kw: object) -> Preset:
    return Preset(**kw)  # type: ignore[arg-type]


_S2 = dict(
    drawing=Drawing.UNTIL_FITS,
    layout=LayoutKind.LINE,
    count=Count.NONE,
    count_value=CountValue.FULL,
    first_lead=FirstLead.HIGHEST_DOUBLE,
    next_lead=NextLead.AFTER_OPENER,
    bonus=Bonus.OTHERS,
    game_end=GameEnd.HAND_END,
    targets=(50, 100, 200),
    default_target=50,
)
_S1 = dict(
    drawing=Drawing.UNTIL_FITS,
    count=Count.FIVES,
    count_value=CountValue.FULL,
    first_lead=FirstLead.LOT,
    next_lead=NextLead.LOT,
    bonus=Bonus.ALL_UNITS,
    game_end=GameEnd.HAND_END_HIGHEST,
    targets=(100, 150, 200),
    default_target=100,
)
_S3 = dict(
    drawing=Drawing.UNTIL_FITS,
    layout=LayoutKind.FIRST_DOUBLE_SPINNER,
    count_value=CountValue.UNITS,
    first_lead=FirstLead.RANDOM,
    next_lead=NextLead.RANDOM_AMONG_TIED,
    bonus=Bonus.NET_UNITS,
    game_end=GameEnd.HAND_END_HIGHEST,
)

PRESET_LIST: tuple[Preset, ...] = (
    _preset(id="draw", name="Draw", source="S2 default", **_S2),
    _preset(id="block", name="Block", source="S2", **{**_S2, "drawing": Drawing.NONE}),
    _preset(
        id="all-fives",
        name="All Fives",
        source="S2",
        **{
            **_S2,
            "count": Count.FIVES,
            "bonus": Bonus.OTHERS_R5,
            "game_end": GameEnd.IMMEDIATE,
        },
    ),
    _preset(
        id="spinner-fives",
        name="All Fives with spinner",
        source="S1",
        layout=LayoutKind.FIRST_DOUBLE_SPINNER,
        **_S1,
    ),
    _preset(id="muggins", name="Muggins", source="S1", layout=LayoutKind.LINE, **_S1),
    _preset(
        id="five-up", name="Five Up", source="S1", layout=LayoutKind.ALL_DOUBLES_SPINNERS, **_S1
    ),
    _preset(
        id="cross-fives",
        name="Cross Fives",
        source="S3",
        count=Count.FIVES,
        targets=(30, 60, 90),
        default_target=30,
        **_S3,
    ),
    _preset(
        id="cross-threes",
        name="Cross Threes",
        source="S3",
        count=Count.THREES,
        targets=(50, 100, 150),
        default_target=50,
        **_S3,
    ),
    _preset(
        id="cross-fives-threes",
        name="Cross Fives and Threes",
        source="S3",
        count=Count.FIVES_THREES,
        targets=(61,),
        default_target=61,
        **{**_S3, "game_end": GameEnd.EXACT},
    ),
    _preset(
        id="cross-bergen",
        name="Cross Double Bergen",
        source="S3",
        count=Count.HEADERS,
        targets=(100, 200),
        default_target=100,
        **{**_S3, "count_value": CountValue.FULL},
    ),
    _preset(
        id="cross-draw",
        name="Cross Draw (no play scoring)",
        source="S3",
        count=Count.NONE,
        targets=(50,),
        default_target=50,
        floor=-25,
        **{**_S3, "bonus": Bonus.NET_PENALTY},
    ),
    _preset(
        id="partnership",
        name="Partnership",
        source="ours (pagat's Latin American game)",
        drawing=Drawing.NONE,
        layout=LayoutKind.LINE,
        count=Count.NONE,
        count_value=CountValue.FULL,
        first_lead=FirstLead.HOLDER_6_6,
        next_lead=NextLead.AFTER_OPENER,
        bonus=Bonus.TEAM,
        game_end=GameEnd.HAND_END,
        targets=(100, 200),
        default_target=100,
        players=(4,),
        hand_size_override=7,
        teams=True,
    ),
)

PRESETS: dict[str, Preset] = {p.id: p for p in PRESET_LIST}
DEFAULT_PRESET = "draw"


def get_preset(preset_id: object) -> Preset:
    if not isinstance(preset_id, str) or preset_id not in PRESETS:
        known = ", ".join(PRESETS)
        raise ConfigError(f"unknown preset {preset_id!r} (known: {known})")
    return PRESETS[preset_id]
