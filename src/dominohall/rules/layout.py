"""The tiles on the table: arms, their open ends, spinners, and counting the open ends.

Arms are numbered once and keep their number (DESIGN.md): the lead opens arms 0 and 1 (its first
half faces arm 0); a spinner's two ends open the next two unused numbers (2 and 3 for the first),
which can be played on once both of the spinner's sides are covered. A spinner played on arm k
covers one side; arm k goes on through its far side.

>>> from dominohall.rules.tiles import parse_tile
>>> lay = Layout(LayoutKind.FIRST_DOUBLE_SPINNER)
>>> _ = lay.lead(parse_tile("5-5"), 5)
>>> lay.count_total()
10
>>> _ = lay.place(parse_tile("5-0"), 0)
>>> lay.count_total(), lay.open_arms
(10, [0, 1])
>>> _ = lay.place(parse_tile("5-3"), 1)
>>> lay.count_total(), lay.open_arms
(3, [0, 1, 2, 3])
"""

from __future__ import annotations

from typing import Any

from .presets import LayoutKind
from .tiles import FITTING, IS_DOUBLE, OTHER_HALF, Tile

# Looked up once: reading an enum member off its class is as dear as a function call.
_LINE, _ALL_DOUBLES = LayoutKind.LINE, LayoutKind.ALL_DOUBLES_SPINNERS

MAX_ARMS = 16  # two from the lead, two per double at most
NO_ARM = -1
NO_TILE = -1

# What place() returns so that undo() can restore the layout exactly; only undo() reads it.
PlaceToken = Any


# A layout's fields beside its kind, in the order __reduce__ gives them.
FIELDS = (
    "lead_tile",
    "lead_first",
    "tips",
    "ends",
    "open_arms",
    "open_suits",
    "waiting_ends",
    "lead_spinner_waiting",
    "next_arm",
    "spinners",
    "chain",
)


class Layout:
    """The layout of one hand. Mutable, with make/unmake for search (``place``/``undo``)."""

    __slots__ = ("kind", *FIELDS)

    def __init__(self, kind: LayoutKind) -> None:
        self.kind = kind
        self.lead_tile = -1
        self.lead_first = -1
        # Per arm: the number showing at its open end, and the tile lying there, or NO_TILE
        # while the arm is bare (no tile laid on it yet: its end is the lead or a spinner).
        self.tips = [0] * MAX_ARMS
        self.ends = [NO_TILE] * MAX_ARMS
        self.open_arms: list[int] = []
        # Bitmask over numbers 0..6 of the tips of open arms (kept in step for legal moves).
        self.open_suits = 0
        # waiting_ends[k]: the first of the two arms of the spinner lying at the end of arm k,
        # which open when a tile covers the spinner's far side; NO_ARM when none waits.
        self.waiting_ends = [NO_ARM] * MAX_ARMS
        self.lead_spinner_waiting = False
        self.next_arm = 2
        self.spinners = 0
        # Every tile laid, in order: (tile, arm or NO_ARM for the lead, number facing the arm's root).
        self.chain: list[tuple[int, int, int]] = []

    def copy(self) -> Layout:
        # Made by its class, not by __new__ alone, which a compiled class does not allow.
        other = self.__class__(self.kind)
        other.lead_tile = self.lead_tile
        other.lead_first = self.lead_first
        other.tips = self.tips[:]
        other.ends = self.ends[:]
        other.open_arms = self.open_arms[:]
        other.open_suits = self.open_suits
        other.waiting_ends = self.waiting_ends[:]
        other.lead_spinner_waiting = self.lead_spinner_waiting
        other.next_arm = self.next_arm
        other.spinners = self.spinners
        other.chain = self.chain[:]
        return other

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (a view goes to the worker that decides for a computer player) by its fields,
        # as a compiled class cannot be made empty and filled in.
        return (_rebuilt, (self.__class__, self.kind, tuple(getattr(self, f) for f in FIELDS)))

    @property
    def empty(self) -> bool:
        return self.lead_tile < 0

    def fitting(self, holding: int) -> int:
        """The tiles of ``holding`` that fit some open end (every tile before the lead)."""
        if self.lead_tile < 0:
            return holding
        return holding & FITTING[self.open_suits]

    def is_bare(self, arm: int) -> bool:
        """Whether no tile lies on ``arm`` yet (its end is the lead or a spinner)."""
        return self.ends[arm] < 0

    def double_at(self, arm: int) -> bool:
        """Whether a double lies at the open end of ``arm``."""
        end = self.ends[arm]
        return end >= 0 and IS_DOUBLE[end]

    def _is_spinner(self, tile: Tile) -> bool:
        if not IS_DOUBLE[tile] or self.kind is _LINE:
            return False
        return self.kind is _ALL_DOUBLES or self.spinners == 0

    def lead(self, tile: Tile, first: int) -> PlaceToken:
        """Lay the first tile, ``first`` facing arm 0."""
        other = OTHER_HALF[tile][first]
        token: PlaceToken = (
            NO_ARM,
            0,
            NO_TILE,
            0,
            self.next_arm,
            NO_ARM,
            self.spinners,
            False,
            self.open_suits,
        )
        self.lead_tile = tile
        self.lead_first = first
        self.tips[0] = first
        self.tips[1] = other
        self.open_arms.append(0)
        self.open_arms.append(1)
        self.open_suits = (1 << first) | (1 << other)
        if self._is_spinner(tile):
            self.spinners += 1
            self.next_arm = 4
            self.tips[2] = self.tips[3] = first
            self.lead_spinner_waiting = True
        self.chain.append((tile, NO_ARM, first))
        return token

    def place(self, tile: Tile, arm: int) -> PlaceToken:
        """Lay ``tile`` at the open end of ``arm`` (the caller has checked that it fits)."""
        tips = self.tips
        match = tips[arm]
        token: PlaceToken = (
            arm,
            match,
            self.ends[arm],
            len(self.open_arms),
            self.next_arm,
            self.waiting_ends[arm],
            self.spinners,
            self.lead_spinner_waiting,
            self.open_suits,
        )
        # A spinner waiting at this arm's end now has both sides covered: its ends open.
        ends = self.waiting_ends[arm]
        if ends != NO_ARM:
            self.waiting_ends[arm] = NO_ARM
            self.open_arms.append(ends)
            self.open_arms.append(ends + 1)
        tips[arm] = OTHER_HALF[tile][match]
        self.ends[arm] = tile
        if IS_DOUBLE[tile] and self._is_spinner(tile):
            self.spinners += 1
            first_end = self.next_arm
            self.next_arm += 2
            tips[first_end] = tips[first_end + 1] = match
            self.waiting_ends[arm] = first_end
        if self.lead_spinner_waiting and self.ends[0] >= 0 and self.ends[1] >= 0:
            self.lead_spinner_waiting = False
            self.open_arms.append(2)
            self.open_arms.append(3)
        suits = 0
        for k in self.open_arms:
            suits |= 1 << tips[k]
        self.open_suits = suits
        self.chain.append((tile, arm, match))
        return token

    def undo(self, token: PlaceToken) -> None:
        arm, tip, end, n_open, next_arm, waiting, spinners, lead_waiting, suits = token
        self.chain.pop()
        self.open_suits = suits
        # A spinner laid gave out two arm numbers and set their ends: take them back.
        self.tips[next_arm : self.next_arm] = [0] * (self.next_arm - next_arm)
        self.next_arm = next_arm
        self.spinners = spinners
        self.lead_spinner_waiting = lead_waiting
        if arm == NO_ARM:
            self.lead_tile = -1
            self.lead_first = -1
            self.open_arms.clear()
            self.tips[0] = self.tips[1] = 0  # as a new layout's
            return
        self.tips[arm] = tip
        self.ends[arm] = end
        del self.open_arms[n_open:]
        self.waiting_ends[arm] = waiting

    def faces(self) -> list[tuple[int, int]]:
        """The ends that count, as (number, how many faces show it: 1, or 2 for a double)."""
        faces: list[tuple[int, int]] = []
        lead_double_counted = False
        lead_double = self.lead_tile >= 0 and IS_DOUBLE[self.lead_tile]
        for k in self.open_arms:
            end = self.ends[k]
            if end < 0:
                if k >= 2:
                    continue  # a spinner's end counts only once a tile lies there
                if lead_double:
                    if not lead_double_counted:
                        faces.append((self.tips[k], 2))
                        lead_double_counted = True
                else:
                    faces.append((self.tips[k], 1))
            else:
                faces.append((self.tips[k], 2 if IS_DOUBLE[end] else 1))
        return faces

    def count_total(self) -> int:
        """The sum of the open ends that count (RULES.md 2, "Counting the open ends")."""
        total = 0
        for n, mult in self.faces():
            total += n * mult
        return total

    def header_count(self) -> int:
        """The largest number of counting faces that show one number (Double Bergen)."""
        per_number = [0] * 7
        for n, mult in self.faces():
            per_number[n] += mult
        return max(per_number)

    def open_numbers(self) -> list[int]:
        """The numbers a tile may match now, one per open arm."""
        return [self.tips[k] for k in self.open_arms]


class LineLayout(Layout):
    """The line: two arms, doubles laid across, no spinner. The same layout, made faster to play
    on, since the line presets (and their search) are the ones played most."""

    __slots__ = ()

    def __init__(self, kind: LayoutKind) -> None:
        # The same state as Layout's, sized for two arms (a new one for every hand played).
        self.kind = kind
        self.lead_tile = -1
        self.lead_first = -1
        self.tips = [0, 0]
        self.ends = [NO_TILE, NO_TILE]
        self.open_arms = []
        self.open_suits = 0
        self.waiting_ends = _NOTHING_WAITS  # shared and never changed: a line has no spinners
        self.lead_spinner_waiting = False
        self.next_arm = 2
        self.spinners = 0
        self.chain = []

    # The token is the tile that lay at the arm's end before (NO_TILE: the arm was bare); the
    # chain says which arm and which number the tile covered. Hand.push() inlines this.
    def place(self, tile: Tile, arm: int) -> PlaceToken:
        tips = self.tips
        ends = self.ends
        match = tips[arm]
        covered = ends[arm]
        tips[arm] = OTHER_HALF[tile][match]
        ends[arm] = tile
        self.open_suits = (1 << tips[0]) | (1 << tips[1])
        self.chain.append((tile, arm, match))
        return covered

    def lead(self, tile: Tile, first: int) -> PlaceToken:
        self.lead_tile = tile
        self.lead_first = first
        self.tips[0] = first
        self.tips[1] = other = OTHER_HALF[tile][first]
        self.open_arms.extend((0, 1))
        self.open_suits = (1 << first) | (1 << other)
        self.chain.append((tile, NO_ARM, first))
        return NO_ARM

    def undo(self, token: PlaceToken) -> None:
        chain = self.chain
        _, arm, match = chain.pop()
        if arm == NO_ARM:
            self.lead_tile = -1
            self.lead_first = -1
            self.open_arms.clear()
            self.open_suits = 0
            self.tips[:] = [0, 0]  # as a new layout's
            return
        tips = self.tips
        tips[arm] = match
        self.open_suits = (1 << tips[0]) | (1 << tips[1])
        self.ends[arm] = token  # the tile place() covered

    def count_total(self) -> int:
        """Layout.count_total() for the two arms of a line (Hard counts the ends of every play
        it tries where plays score): a tile at an arm's end counts its tip once, a double
        twice; a bare arm shows the lead, a double lead counting twice but only once in all."""
        lead = self.lead_tile
        if lead < 0:
            return 0
        tips, ends = self.tips, self.ends
        end0, end1 = ends
        if end0 >= 0 and end1 >= 0:
            return tips[0] * _FACES[end0] + tips[1] * _FACES[end1]
        bare = _FACES[lead]  # a bare arm shows the lead's half: twice for a double
        if end0 < 0 and end1 < 0:
            return tips[0] * 2 if bare == 2 else tips[0] + tips[1]
        if end0 < 0:
            return tips[0] * bare + tips[1] * _FACES[end1]
        return tips[0] * _FACES[end0] + tips[1] * bare


_NOTHING_WAITS = [NO_ARM, NO_ARM]
# _FACES[tile]: how many times the number at an open end counts when ``tile`` lies there.
_FACES = tuple(2 if double else 1 for double in IS_DOUBLE)


def _rebuilt(cls: type[Layout], kind: LayoutKind, values: tuple[Any, ...]) -> Layout:
    """A pickled layout made again (``Layout.__reduce__``)."""
    layout = cls(kind)
    for name, value in zip(FIELDS, values, strict=True):
        setattr(layout, name, value)
    return layout


# The class that plays each kind of layout: LAYOUT_CLASS[kind](kind) is an empty layout.
LAYOUT_CLASS: dict[LayoutKind, type[Layout]] = {
    kind: LineLayout if kind is _LINE else Layout for kind in LayoutKind
}
