"""An arena tournament as pure data (docs/tournaments.md): who waits, pairing rounds over them, the
points of each game and the standings. No clock of its own: every call is told ``now``.

While the arena runs, a pairing round (``pair``) takes the entrants waiting (joined, not paused,
not in a game) and pairs as many as the allowed pairings let: a maximum matching of least cost
(``matching.py``). A pairing is allowed between two entrants whose rank gap (their places in the
standings among the active entrants) is at most the sum of their windows, each window
``WINDOW`` wide and one rank wider for every ``WIDEN_SECONDS`` waited, and never between an entrant
and their last opponent unless only two entrants are active. It costs ``100 x rank gap`` plus
the rating gap in tens of points: close places first, close ratings between equals.

Points (a game's ``Outcome`` for each entrant): a win 2, a draw 1, a loss 0; after two wins in a
row an entrant is on fire: a win scores 4 and a draw 2 until a game is not won (a draw or a loss
ends the run). Nobody gets a bye: whoever is not paired waits for the next round. At a table of
three or four (``seats``), the first place is the win, a shared first place a draw, the last place
the loss, the places between a draw; such a table is never one of its entrants' last table again
(exactly their last opponents) unless only that many entrants are active.

Pairings close ``closing`` seconds before the end; a game still running at the end plays its hand
out (its cap, RULES.md 5) and counts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from itertools import combinations
from typing import Any

from .matching import least_cost_matching

WINDOW = 3  # each entrant's rank window on arrival
WIDEN_SECONDS = 10.0  # each entrant's window widens by one rank every this many seconds waited
RANK_COST = 100  # what one rank of gap costs
RATING_STEP = 10  # the rating gap costs one for every this many points
EXACT_UP_TO = 120  # waiting entrants paired by one matching; more: by blocks of rank
BLOCK = 60  # the block of rank paired at once beyond EXACT_UP_TO (bench/arena_pairing.py)
GROUP_LOOKAHEAD = 8  # a table of 3-4 is chosen among the next this many waiting, in rank order
REPEAT_COST = 10_000  # two entrants who met in their last game, at a table of 3-4 again


class Outcome(StrEnum):
    """One entrant's result in one game."""

    WIN = "win"
    DRAW = "draw"
    LOSS = "loss"


class ArenaError(ValueError):
    """What the arena cannot do: an unknown entrant or game, a pairing after the close."""


def points(outcome: Outcome, streak: int) -> int:
    """What ``outcome`` scores for an entrant with ``streak`` wins in a row before the game.

    >>> points(Outcome.WIN, 0), points(Outcome.WIN, 2), points(Outcome.DRAW, 2), points(Outcome.LOSS, 5)
    (2, 4, 2, 0)
    """
    base = {Outcome.WIN: 2, Outcome.DRAW: 1, Outcome.LOSS: 0}[outcome]
    return base * 2 if streak >= 2 else base


def outcomes_by_place(places: Mapping[str, int]) -> dict[str, Outcome]:
    """Each entrant's outcome from their places at a table (1 best; equal places tie): a sole
    first wins, a shared first draws, the last place loses, the places between draw.

    >>> [str(o) for o in outcomes_by_place({"a": 1, "b": 2, "c": 3}).values()]
    ['win', 'draw', 'loss']
    >>> [str(o) for o in outcomes_by_place({"a": 1, "b": 1}).values()]
    ['draw', 'draw']
    """
    first = min(places.values())
    last = max(places.values())
    firsts = sum(1 for p in places.values() if p == first)
    out = {}
    for who, place in places.items():
        if place == first:
            out[who] = Outcome.WIN if firsts == 1 else Outcome.DRAW
        elif place == last:
            out[who] = Outcome.LOSS
        else:
            out[who] = Outcome.DRAW
    return out


@dataclass
class Entrant:
    """One entrant: a player, or a fixed pair as one (``id`` names it)."""

    id: str
    rating: float
    joined: int  # the order of joining: the last tie-break
    score: int = 0
    streak: int = 0  # wins in a row (on fire from 2)
    games: int = 0
    wins: int = 0
    sheet: list[int] = field(default_factory=list)  # each game's points, in order
    last_opponents: frozenset[str] = frozenset()
    game: str | None = None  # the game being played
    paused: bool = False
    waiting_since: float = 0.0

    @property
    def on_fire(self) -> bool:
        return self.streak >= 2


@dataclass(frozen=True)
class Pairing:
    """A table the arena opens: its entrants in seat order (``game`` named by the caller)."""

    entrants: tuple[str, ...]
    cost: int


class Arena:
    """One arena tournament from ``start`` to ``end`` (seconds), pairing tables of ``seats``."""

    def __init__(self, start: float, end: float, *, seats: int = 2, closing: float = 30.0) -> None:
        if end <= start:
            raise ArenaError("an arena ends after it starts")
        self.start, self.end, self.seats = start, end, seats
        self.closes = max(start, end - closing)
        self.entrants: dict[str, Entrant] = {}
        self.games: dict[str, tuple[str, ...]] = {}  # running games: their entrants
        self.finished: dict[str, dict[str, Outcome]] = {}

    # -- who is in --------------------------------------------------------------------------
    def join(self, entrant: str, rating: float, now: float) -> Entrant:
        """A new entrant (or one paused coming back), waiting from ``now``."""
        if now >= self.end:
            raise ArenaError("the arena is over")
        known = self.entrants.get(entrant)
        if known is None:
            known = self.entrants[entrant] = Entrant(entrant, rating, len(self.entrants))
        known.paused = False
        known.waiting_since = now
        return known

    def pause(self, entrant: str) -> None:
        """Not paired again until they join again (a game under way plays on); leaving is a pause
        for good: the points stay in the standings."""
        self._entrant(entrant).paused = True

    def _entrant(self, entrant: str) -> Entrant:
        try:
            return self.entrants[entrant]
        except KeyError:
            raise ArenaError(f"{entrant!r} is not in the arena") from None

    def active(self) -> list[Entrant]:
        """The entrants taking part now: not paused (playing or waiting)."""
        return [e for e in self.entrants.values() if not e.paused]

    def waiting(self) -> list[Entrant]:
        return [e for e in self.active() if e.game is None]

    # -- standings --------------------------------------------------------------------------
    def standings(self) -> list[Entrant]:
        """Everyone, best first: score, then rating, then who joined first."""
        return sorted(self.entrants.values(), key=lambda e: (-e.score, -e.rating, e.joined))

    def ranks(self) -> dict[str, int]:
        """Each active entrant's place among the active ones (0 best)."""
        active = [e for e in self.standings() if not e.paused]
        return {e.id: i for i, e in enumerate(active)}

    # -- pairing ----------------------------------------------------------------------------
    def window(self, entrant: Entrant, now: float) -> int:
        waited = max(0.0, now - entrant.waiting_since)
        return WINDOW + int(waited // WIDEN_SECONDS)

    def allowed(self, now: float) -> dict[tuple[str, str], int]:
        """The allowed pairings among the waiting entrants and what each costs, each pair once
        (in rank order)."""
        ranks = self.ranks()
        alone = len(ranks) <= 2  # only two active: they may meet again and again
        waiting = sorted(self.waiting(), key=lambda e: ranks[e.id])
        windows = {e.id: self.window(e, now) for e in waiting}
        widest = max(windows.values(), default=0)
        out: dict[tuple[str, str], int] = {}
        for i, a in enumerate(waiting):
            reach_a = windows[a.id]
            for b in waiting[i + 1 :]:
                gap = ranks[b.id] - ranks[a.id]
                if gap > reach_a + widest:
                    break  # (ranks only grow from here)
                if gap > reach_a + windows[b.id]:
                    continue
                if not alone and (b.id in a.last_opponents or a.id in b.last_opponents):
                    continue
                rating_gap = int(abs(a.rating - b.rating)) // RATING_STEP
                out[(a.id, b.id)] = RANK_COST * gap + rating_gap
        return out

    def pair(self, now: float) -> list[Pairing]:
        """A pairing round: the tables to open now (none once pairings have closed)."""
        if now < self.start or now >= self.closes:
            return []
        if self.seats != 2:
            return self._group(now)
        costs = self.allowed(now)
        ranks = self.ranks()
        waiting = sorted((e.id for e in self.waiting()), key=ranks.__getitem__)
        pairs: list[tuple[str, str]] = []
        if len(waiting) <= EXACT_UP_TO:
            pairs = least_cost_matching(waiting, costs)
        else:
            # Blocks of rank, each matched exactly; who is left over joins the next block.
            carried: list[str] = []
            for at in range(0, len(waiting), BLOCK):
                block = carried + waiting[at : at + BLOCK]
                inside = set(block)
                sub = {k: v for k, v in costs.items() if k[0] in inside and k[1] in inside}
                found = least_cost_matching(block, sub)
                pairs += found
                taken = {x for pair in found for x in pair}
                carried = [x for x in block if x not in taken]
        return [Pairing(pair, costs[pair]) for pair in pairs]

    def _group(self, now: float) -> list[Pairing]:
        """Tables of three or four, a table at a time in rank order: the best placed waiting
        entrant heads it, with the cheapest others among the next ``GROUP_LOOKAHEAD`` waiting
        (``_table_cost``); never a table that is one of its entrants' last table again (the
        same last opponents), unless only that many entrants are active. Whoever is left over,
        or could head no allowed table, waits for the next round."""
        ranks = self.ranks()
        free = sorted((e.id for e in self.waiting()), key=ranks.__getitem__)
        n = self.seats
        alone = len(ranks) <= n  # only one table's worth active: they may meet again
        tables: list[Pairing] = []
        while len(free) >= n:
            head, rest = free[0], free[1 : 1 + GROUP_LOOKAHEAD]
            best: tuple[int, tuple[str, ...]] | None = None
            for others in combinations(rest, n - 1):
                table = (head, *others)
                if not alone and self.same_table_again(table):
                    continue
                cost = self._table_cost(table, ranks)
                if best is None or cost < best[0]:
                    best = (cost, table)
            if best is None:
                free.pop(0)  # (no allowed table for them this round: they wait)
                continue
            tables.append(Pairing(best[1], best[0]))
            free = [x for x in free if x not in best[1]]
        return tables

    def same_table_again(self, table: Sequence[str]) -> bool:
        """Whether some entrant of ``table`` would meet exactly their last opponents again."""
        return any(
            self.entrants[e].last_opponents == frozenset(table) - {e}
            for e in table
            if self.entrants[e].last_opponents
        )

    def _table_cost(self, table: Sequence[str], ranks: Mapping[str, int]) -> int:
        """A table's cost: each two entrants who met in their last game cost ``REPEAT_COST``
        (so that a table mixes players who have not just met where it can), then the rank
        spread, as a pairing's rank gap."""
        repeats = sum(
            1
            for a, b in combinations(table, 2)
            if b in self.entrants[a].last_opponents or a in self.entrants[b].last_opponents
        )
        spread = max(ranks[e] for e in table) - min(ranks[e] for e in table)
        return REPEAT_COST * repeats + RANK_COST * spread

    def opened(self, game: str, entrants: Sequence[str]) -> None:
        """A pairing's table is open as ``game``: its entrants are playing."""
        if game in self.games or game in self.finished:
            raise ArenaError(f"game {game!r} is known already")
        for who in entrants:
            e = self._entrant(who)
            if e.game is not None:
                raise ArenaError(f"{who!r} is playing {e.game!r} already")
        for who in entrants:
            self.entrants[who].game = game
        self.games[game] = tuple(entrants)

    def finish(self, game: str, outcomes: Mapping[str, Outcome], now: float) -> dict[str, int]:
        """A game's results (after the end too: a game running at the end counts): each
        entrant's points; they wait again from ``now``."""
        entrants = self.games.pop(game, None)
        if entrants is None:
            raise ArenaError(f"game {game!r} is not running in the arena")
        if set(outcomes) != set(entrants):
            raise ArenaError(f"game {game!r} was played by {sorted(entrants)}")
        scored = {}
        for who in entrants:
            e = self.entrants[who]
            outcome = outcomes[who]
            got = points(outcome, e.streak)
            e.score += got
            e.sheet.append(got)
            e.games += 1
            e.streak = e.streak + 1 if outcome is Outcome.WIN else 0
            e.wins += outcome is Outcome.WIN
            e.last_opponents = frozenset(entrants) - {who}
            e.game = None
            e.waiting_since = now
            scored[who] = got
        self.finished[game] = dict(outcomes)
        return scored

    def running(self) -> Iterable[str]:
        return iter(self.games)

    def to_json(self) -> dict[str, Any]:
        """The whole arena as JSON (stored, so that a restart goes on where it stood)."""
        return {
            "start": self.start,
            "end": self.end,
            "seats": self.seats,
            "closes": self.closes,
            "entrants": [
                {**asdict(e), "last_opponents": sorted(e.last_opponents)}
                for e in self.entrants.values()
            ],
            "games": {game: list(who) for game, who in self.games.items()},
            "finished": {
                game: {who: str(o) for who, o in outcome.items()}
                for game, outcome in self.finished.items()
            },
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Arena:
        arena = cls(obj["start"], obj["end"], seats=obj["seats"])
        arena.closes = obj["closes"]
        for e in obj["entrants"]:
            entrant = Entrant(**{**e, "last_opponents": frozenset(e["last_opponents"])})
            arena.entrants[entrant.id] = entrant
        arena.games = {game: tuple(who) for game, who in obj["games"].items()}
        arena.finished = {
            game: {who: Outcome(o) for who, o in outcome.items()}
            for game, outcome in obj["finished"].items()
        }
        return arena

    def cap_at(self, now: float, game_cap: int | None = None) -> int:
        """The cap (minutes, RULES.md 5) of a table opened at ``now``: the minutes left until the
        end, rounded up, so that a game running at the end plays its hand out and stops; at most
        the tournament's own cap of a game."""
        left = max(1, -int(-(self.end - now) // 60))
        return left if game_cap is None else min(left, game_cap)
