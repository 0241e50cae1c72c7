"""One hand of play as a state machine: legal moves, make (``push``) and unmake (``pop``).

A ``Hand`` holds the whole truth of a hand (every player's tiles and the boneyard order); it is
what the server and the record check replay. Players and bots only ever see a ``View``.

>>> from dominohall.rules import PRESETS, parse_tile as t
>>> hand = Hand(PRESETS["block"], [{t("6-6"), t("6-1"), t("0-0")}, {t("6-4"), t("2-2")}], [], leader=0)
>>> hand.legal_moves()
[Move.lead('0-0'), Move.lead('6-1'), Move.lead('6-6')]
>>> hand.push(Move.lead("6-6"))
>>> hand.legal_moves()
[Move.play('6-4', arm=0), Move.play('6-4', arm=1)]
>>> hand.push(Move.play("6-4", arm=1)); hand.push(Move.play("6-1", arm=0))
>>> hand.legal_moves()
[Move.pass_()]
>>> hand.push(Move.pass_())
>>> hand.push(Move.play("2-2", arm=0))
Traceback (most recent call last):
...
dominohall.rules.errors.IllegalMoveError: seat 0 does not hold 2-2
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import NamedTuple

from .errors import ConfigError, HandOverError, IllegalMoveError
from .layout import LAYOUT_CLASS, MAX_ARMS, Layout, PlaceToken
from .moves import DRAW, DRAWS, LEADS, PASS, PLAYS, Move, MoveKind
from .presets import Bonus, Count, Drawing, GameEnd, LayoutKind, Preset
from .scoring import BonusCount, count_bonus, penalty, play_score
from .tiles import (
    BIT,
    FITTING,
    OTHER_HALF,
    SUIT,
    TILE_COUNT,
    TileSet,
    iter_tiles,
    mask_of,
    pips_each,
    pips_of,
    tile_name,
)

# TILES_IN[mask] for every subset of one suit: its tiles as a tuple (legal moves without loops).
TILES_IN: dict[int, tuple[int, ...]] = {}
for _suit in SUIT:
    _members = [t for t in range(TILE_COUNT) if _suit & BIT[t]]
    for _bits in range(1 << len(_members)):
        _tiles = tuple(m for i, m in enumerate(_members) if _bits >> i & 1)
        TILES_IN[mask_of(_tiles)] = _tiles

# PLAYS_ON[arm][fit]: the plays on ``arm`` of the tiles of ``fit`` (a subset of one suit).
PLAYS_ON: tuple[dict[int, tuple[Move, ...]], ...] = tuple(
    {fit: tuple(PLAYS[t][arm] for t in tiles) for fit, tiles in TILES_IN.items()}
    for arm in range(MAX_ARMS)
)

_PLAYS_ON_0, _PLAYS_ON_1 = PLAYS_ON[0], PLAYS_ON[1]


def legal_moves_of(layout: Layout, holding: TileSet, must_lead: int, can_draw: bool) -> list[Move]:
    """The legal moves of a player holding ``holding`` (shared by hands and views)."""
    if layout.lead_tile < 0:
        if must_lead >= 0:
            return [LEADS[must_lead]]
        return [LEADS[t] for t in iter_tiles(holding)]
    moves: list[Move] = []
    tips = layout.tips
    for arm in layout.open_arms:
        fit = holding & SUIT[tips[arm]]
        if fit:
            moves += PLAYS_ON[arm][fit]
    if moves:
        return moves
    return [DRAW] if can_draw else [PASS]


# Per number of players (2 to 4): NEXT_SEAT[players][seat] plays after ``seat``; SEATS[players]
# are the scoring sides when each seat is its own side.
NEXT_SEAT = {n: tuple((s + 1) % n for s in range(n)) for n in (2, 3, 4)}
SEATS = {n: tuple(range(n)) for n in (2, 3, 4)}
TEAM_SIDES = (0, 1, 0, 1)  # partnership: seats 0 and 2 against 1 and 3

# Enum members looked up once: reading one off its class goes through EnumType.__getattr__, as
# dear as a function call, and these are compared on every move or every hand.
_PLAY, _DRAW = MoveKind.PLAY, MoveKind.DRAW
_LINE = LayoutKind.LINE
_UNTIL_FITS, _NO_COUNT = Drawing.UNTIL_FITS, Count.NONE
_EXACT, _IMMEDIATE = GameEnd.EXACT, GameEnd.IMMEDIATE
_NET_PENALTY, _TEAM = Bonus.NET_PENALTY, Bonus.TEAM

# One move made, as push() records it: (seat, move, open numbers as a bitmask when it was made),
# then what pop() needs to unmake it: the layout's token (a play), passes in a row before it,
# and the scores and hand points before it when the move could change them.
Made = tuple[int, Move, int, "PlaceToken | None", int, "tuple[list[int], list[int]] | None"]


class HandResult(NamedTuple):
    """How a hand ended. ``bonus`` is what the winner actually scored.

    A named tuple: as immutable as a frozen dataclass, and built for a third of the cost.
    """

    winner: int | None  # a seat, or None (a blocked tie, or cut short)
    blocked: bool
    bonus: int
    cut_short: bool = False  # the game ended mid-hand (immediate or exact target reached)


# Builds a HandResult from all four fields, skipping the named tuple's Python-level __new__
# (a function call with defaults) at the end of every hand.
_new_result = tuple.__new__


class Hand:
    """One hand: the deal, the layout, whose turn it is, and the scores as they run."""

    __slots__ = (
        "preset",
        "holdings",
        "players",
        "dealt",
        "boneyard",
        "drawn",
        "leader",
        "turn",
        "must_lead",
        "target",
        "scores",
        "points",
        "layout",
        "passes",
        "result",
        "reached_target",
        "history",
        "_drawing",
        "_counts",
        "_side",
        "_next_seat",
        "_line",
    )

    def __init__(
        self,
        preset: Preset,
        holdings: Iterable[TileSet | Iterable[int]],
        boneyard: Iterable[int],
        leader: int,
        *,
        scores: list[int] | None = None,
        target: int | None = None,
        must_lead: int = -1,
    ) -> None:
        self.preset = preset
        self.holdings: list[TileSet] = [
            h if h.__class__ is int else mask_of(set(h))  # type: ignore[arg-type]
            for h in holdings
        ]
        self.players = players = len(self.holdings)
        self.dealt: tuple[TileSet, ...] = tuple(self.holdings)  # as dealt, for the record
        if not 2 <= players <= 4:
            raise ConfigError(f"a hand is played by 2 to 4 players, not {players}")
        if not 0 <= leader < players:
            raise ConfigError(f"leader {leader} is not a seat of a {self.players}-player hand")
        self.boneyard: list[int] = list(boneyard)
        self.drawn = 0
        self.leader = leader
        self.turn = leader
        self.must_lead = must_lead
        self.target = preset.default_target if target is None else target
        sides = preset.sides(players)
        self.scores: list[int] = list(scores) if scores is not None else [0] * sides
        self.points: list[int] = [0] * sides
        self.layout = LAYOUT_CLASS[preset.layout](preset.layout)
        self.passes = 0
        self.result: HandResult | None = None
        self.reached_target: int | None = None  # the side whose score ended the game mid-hand
        self.history: list[Made] = []  # every move made, with what pop() needs
        self._drawing = preset.drawing is _UNTIL_FITS
        self._counts = preset.count is not _NO_COUNT
        self._side: Sequence[int] = TEAM_SIDES if preset.teams else SEATS[players]
        self._next_seat = NEXT_SEAT[players]
        self._line = preset.layout is _LINE  # so self.layout is a LineLayout (copies keep it)

    # Queries --------------------------------------------------------------------------
    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def drawable(self) -> int:
        """How many tiles can still be drawn (the boneyard less its reserve)."""
        return len(self.boneyard) - self.drawn - self.preset.reserve

    @property
    def boneyard_left(self) -> list[int]:
        return self.boneyard[self.drawn :]

    def pips(self, seat: int) -> int:
        return pips_of(self.holdings[seat])

    def legal_moves(self) -> list[Move]:
        """Every legal move of the seat to move ([] once the hand is over)."""
        if self.result is not None:
            return []
        # The same as legal_moves_of(), inlined: this is the search's hottest loop.
        layout = self.layout
        holding = self.holdings[self.turn]
        tips = layout.tips
        if self._line and layout.lead_tile >= 0:  # the two arms of a line, unrolled
            moves = [*_PLAYS_ON_0[holding & SUIT[tips[0]]], *_PLAYS_ON_1[holding & SUIT[tips[1]]]]
        else:
            moves = []
            for arm in layout.open_arms:  # none before the lead
                fit = holding & SUIT[tips[arm]]
                if fit:
                    moves += PLAYS_ON[arm][fit]
        if moves:
            return moves
        if layout.lead_tile < 0:
            return legal_moves_of(layout, holding, self.must_lead, False)
        if self._drawing and len(self.boneyard) - self.drawn > self.preset.reserve:
            return [DRAW]
        return [PASS]

    def is_legal(self, move: Move) -> bool:
        try:
            self._check(move)
        except IllegalMoveError:
            return False
        return True

    # Make and unmake ------------------------------------------------------------------
    def push(self, move: Move) -> None:
        """Make ``move`` for the seat to move; raises IllegalMoveError saying why it is not legal."""
        # The legality tests here are the fast path; _check() explains a failure precisely.
        if self.result is not None:
            self._check(move)
        seat = self.turn
        layout = self.layout
        suits = layout.open_suits
        holding = self.holdings[seat]
        bit = move.bit  # non-zero exactly for a play of a real tile
        if bit:
            arm = move.arm
            if arm is None:
                if not holding & bit or not self._may_lead(move):
                    self._check(move)
                token = layout.lead(move.tile, move.first)
            else:
                # The arm is open (so there is a lead) and the tile, held, shows its open end.
                if not (arm in layout.open_arms and holding & bit & SUIT[layout.tips[arm]]):
                    self._check(move)
                if self._line:  # LineLayout.place(), inlined: the commonest move of a search
                    tile = move.tile
                    tips = layout.tips
                    ends = layout.ends
                    match = tips[arm]
                    token = ends[arm]
                    tips[arm] = OTHER_HALF[tile][match]
                    ends[arm] = tile
                    layout.open_suits = (1 << tips[0]) | (1 << tips[1])
                    layout.chain.append((tile, arm, match))
                else:
                    token = layout.place(move.tile, arm)
            holding ^= bit
            self.holdings[seat] = holding
            if self._counts or not holding:
                saved = (self.scores[:], self.points[:])
                self.history.append((seat, move, suits, token, self.passes, saved))
                self.passes = 0
                self._after_play(seat)
                if self.result is not None:
                    return
            else:
                self.history.append((seat, move, suits, token, self.passes, None))
                self.passes = 0
            self.turn = self._next_seat[seat]
            return
        if move.kind is _PLAY or layout.lead_tile < 0 or holding & FITTING[suits]:
            self._check(move)  # a play of no tile, or a draw or a pass when not allowed
        can_draw = self._drawing and len(self.boneyard) - self.drawn > self.preset.reserve
        if move.kind is _DRAW:
            if not can_draw or (move.tile >= 0 and move.tile != self.boneyard[self.drawn]):
                self._check(move)
            tile = self.boneyard[self.drawn]
            self.drawn += 1
            self.holdings[seat] = holding | BIT[tile]
            self.history.append((seat, DRAWS[tile], suits, None, self.passes, None))
            return
        if can_draw:
            self._check(move)
        if self.passes + 1 < self.players:
            self.history.append((seat, PASS, suits, None, self.passes, None))
            self.passes += 1
            self.turn = self._next_seat[seat]
            return
        saved = (self.scores[:], self.points[:])
        self.history.append((seat, PASS, suits, None, self.passes, saved))
        self.passes += 1
        self._end_blocked()

    def _may_lead(self, move: Move) -> bool:
        """Whether a held tile may open the hand, its ``first`` half facing arm 0."""
        first = move.first
        if self.layout.lead_tile >= 0 or not 0 <= first <= 6 or OTHER_HALF[move.tile][first] < 0:
            return False
        return self.must_lead < 0 or move.tile == self.must_lead

    def pop(self) -> Move:
        """Unmake the last move and return it."""
        if not self.history:
            raise IllegalMoveError("no move to take back")
        seat, move, _, token, passes, saved = self.history.pop()
        self.turn = seat
        self.passes = passes
        self.result = None
        self.reached_target = None
        if saved is not None:
            self.scores, self.points = saved
        if token is not None:
            self.holdings[seat] |= move.bit
            self.layout.undo(token)
        elif move.kind is _DRAW:
            self.drawn -= 1
            self.holdings[seat] ^= BIT[move.tile]
        return move

    @property
    def move_stack(self) -> list[Move]:
        return [made[1] for made in self.history]

    # Rules ----------------------------------------------------------------------------
    def _check(self, move: Move) -> None:
        if self.result is not None:
            raise HandOverError("the hand is over")
        seat = self.turn
        holding = self.holdings[seat]
        layout = self.layout
        kind = move.kind
        if kind is _PLAY:
            tile = move.tile
            if not 0 <= tile < TILE_COUNT:
                raise IllegalMoveError(f"{tile} is not a tile")
            if not holding & BIT[tile]:
                raise IllegalMoveError(f"seat {seat} does not hold {tile_name(tile)}")
            arm = move.arm
            if layout.lead_tile < 0:
                if arm is not None:
                    raise IllegalMoveError(
                        "the lead is not played on an arm (it opens arms 0 and 1)"
                    )
                if not 0 <= move.first <= 6 or OTHER_HALF[tile][move.first] < 0:
                    raise IllegalMoveError(
                        f"the lead's first half {move.first} is not on {tile_name(tile)}"
                    )
                if self.must_lead >= 0 and tile != self.must_lead:
                    raise IllegalMoveError(
                        f"seat {seat} must open with {tile_name(self.must_lead)}, not {tile_name(tile)}"
                    )
                return
            if arm is None:
                raise IllegalMoveError(f"{tile_name(tile)} needs an arm: only the lead has none")
            if arm not in layout.open_arms:
                raise IllegalMoveError(f"arm {arm} is not open (open arms: {layout.open_arms})")
            if OTHER_HALF[tile][layout.tips[arm]] < 0:
                raise IllegalMoveError(
                    f"{tile_name(tile)} does not fit arm {arm}, whose open end is {layout.tips[arm]}"
                )
            return
        if layout.lead_tile < 0:
            raise IllegalMoveError(f"seat {seat} opens the hand and must lead a tile")
        fitting = layout.fitting(holding)
        last = self.history[-1] if self.history else None
        if fitting and last is not None and last[0] == seat and last[1].kind is _DRAW:
            raise IllegalMoveError(
                f"seat {seat} must play the drawn tile {tile_name(last[1].tile)}"
            )
        if kind is _DRAW:
            if not self._drawing:
                raise IllegalMoveError(f"there is no drawing in {self.preset.id}")
            if fitting:
                raise IllegalMoveError(
                    f"seat {seat} may not draw while able to play ({_names(fitting)} fits)"
                )
            if self.drawable <= 0:
                raise IllegalMoveError("the boneyard is empty: nothing left to draw, so pass")
            if move.tile >= 0 and move.tile != self.boneyard[self.drawn]:
                raise IllegalMoveError(
                    f"the draw names {tile_name(move.tile)}, but the next tile of the boneyard "
                    f"is {tile_name(self.boneyard[self.drawn])}"
                )
            return
        if fitting:
            raise IllegalMoveError(
                f"seat {seat} may not pass while able to play ({_names(fitting)} fits)"
            )
        if self._drawing and self.drawable > 0:
            raise IllegalMoveError(f"seat {seat} may not pass while the boneyard has tiles: draw")

    def _award(self, side: int, points: int) -> bool:
        """Add points to a side, by the game-end rule; True when that ends the game at once."""
        game_end = self.preset.game_end
        if game_end is _EXACT:
            if self.scores[side] + points > self.target:
                return False  # a score past the target is not scored at all
            self.scores[side] += points
            self.points[side] += points
            return self.scores[side] == self.target
        self.scores[side] += points
        self.points[side] += points
        return game_end is _IMMEDIATE and self.scores[side] >= self.target

    def _after_play(self, seat: int) -> None:
        count = play_score(self.preset, self.layout) if self._counts else 0
        side = self._side[seat]
        if self.holdings[seat]:
            if count and self._award(side, count):
                self.reached_target = side
                self.result = _new_result(HandResult, (None, False, 0, True))
            return
        self._settle(seat, count, pips_each(self.holdings), blocked=False)

    def _end_blocked(self) -> None:
        pips = pips_each(self.holdings)
        winner = self._blocked_winner(pips)
        if winner is None:
            self.result = _new_result(HandResult, (None, True, 0, False))
            return
        self._settle(winner, 0, pips, blocked=True)

    def _settle(self, winner: int, count: int, pips: list[int], *, blocked: bool) -> None:
        """End the hand for its winner: the last play's count (going out) and the bonus form
        one score (RULES.md 5, exact), then the others pay their penalties."""
        bonus = self._bonus(winner, pips)
        side = self._side[winner]
        before = self.scores[side]
        ends_game = self._award(side, count + bonus) if count + bonus else False
        scored = self.scores[side] != before
        self._apply_penalties(winner, pips)
        if ends_game:
            self.reached_target = side
        self.result = _new_result(HandResult, (winner, blocked, bonus if scored else 0, False))

    def _blocked_winner(self, pips: list[int]) -> int | None:
        if self.preset.bonus is _TEAM:
            team_pips = [pips[0] + pips[2], pips[1] + pips[3]]
            if team_pips[0] == team_pips[1]:
                return None
            team = 0 if team_pips[0] < team_pips[1] else 1
            a, b = team, team + 2
            return a if pips[a] <= pips[b] else b
        fewest = min(pips)
        if pips.count(fewest) > 1:
            return None
        return pips.index(fewest)

    def tied_for_fewest(self) -> list[int]:
        """The seats tied for fewest pips (a blocked hand with no sole winner)."""
        pips = pips_each(self.holdings)
        return [s for s in range(self.players) if pips[s] == min(pips)]

    def _bonus(self, winner: int, pips: list[int]) -> int:
        """What the winner scores from the pips each seat holds."""
        return count_bonus(self.preset.bonus, winner, pips, self._side).bonus

    def bonus_count(self) -> BonusCount | None:
        """How the bonus of the hand's winner was counted, step by step (None: no winner)."""
        winner = self.result.winner if self.result is not None else None
        if winner is None:
            return None
        return count_bonus(self.preset.bonus, winner, pips_each(self.holdings), self._side)

    def team_pips(self) -> list[int]:
        """The pips each side holds (each team's together in partnership; a seat's alone else)."""
        sides = [0] * self.preset.sides(self.players)
        for seat, pips in enumerate(pips_each(self.holdings)):
            sides[self._side[seat]] += pips
        return sides

    def _apply_penalties(self, winner: int, pips: list[int]) -> None:
        rule = self.preset.bonus
        if rule is not _NET_PENALTY:
            return
        for seat in range(self.players):
            if seat != winner:
                loss = penalty(rule, pips[seat])
                self.scores[seat] -= loss
                self.points[seat] -= loss

    # Views ----------------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        """What ``seat`` may know (``None``: a spectator)."""
        from .view import View

        return View.of(self, seat)

    def __repr__(self) -> str:
        held = ", ".join(_names(h) or "-" for h in self.holdings)
        return (
            f"<Hand {self.preset.id} turn={self.turn} holdings=[{held}] moves={len(self.history)}>"
        )


def _names(mask: TileSet) -> str:
    return " ".join(tile_name(t) for t in iter_tiles(mask))


# Imported late for the annotation only (view imports hand).
from .view import View  # noqa: E402
