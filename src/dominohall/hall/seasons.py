"""Arena seasons in the hall: an arena game's change to its season's standings, and each
season's end (``docs/arena.md``) run by one process at a time (the ``arena-seasons`` claim,
``once_only.py``) at start and every minute, so that a season that ended while the hall was
down ends as soon as it is back; the season's stored row makes the end happen once.
"""

from __future__ import annotations

import asyncio
import logging
import math
from collections.abc import Sequence

from ..store import Store
from ..store.arena import ArenaGame, Award, Season, SeasonStanding
from .arena import League, Standing, outcome, relegated, trophy
from .clock import Clock
from .events import Resumed
from .once_only import Claim
from .ratings import MU, POOLS, SIGMA, Skill, Speed, get_pool, placings, rate
from .table import TableState

log = logging.getLogger("dominohall.hall")

DAY = 86400.0
SEASON_DAYS = 91.0  # the default of ``serve --season-days``: three months
EVERY = 60.0  # seconds between two looks: a season ends at most a minute after its time
# The longest a real-time season's end waits for its arena games still running (docs/arena.md).
STRAGGLERS_WAIT = 2 * 3600.0


def arena_game(state: TableState, places: Sequence[int] | None = None) -> ArenaGame | None:
    """What a finished arena table does to its season's standings (None: not an arena game, or
    unrated). ``places``: the places to count instead of the game's (a game settled at a
    season's end)."""
    options, result, game = state.options, state.result, state.game
    if not options.arena or options.ranked is None or game is None:
        return None
    if places is None:
        if result is None or result["reason"] == "aborted":
            return None
        places = placings(
            game.seat_scores(), result["winner"], result["placed_last"], teams=state_teams(state)
        )
    players = [seat.player for seat in state.seats]
    if any(p is None for p in players):
        return None
    teams = state_teams(state)
    counted = tuple(places)

    def update(
        before: Sequence[SeasonStanding],
    ) -> list[tuple[int, int, float, float, bool, bool]]:
        skills = rate([Skill(b.mu, b.sigma, b.games) for b in before], counted, teams=teams)
        after = []
        for seat, (b, skill) in enumerate(zip(before, skills, strict=True)):
            result = outcome(counted, seat, teams=teams)
            standing = Standing(League(b.league), b.points).after(result)
            won, lost = result.name == "WIN", result.name == "LOSS"
            after.append((int(standing.league), standing.points, skill.mu, skill.sigma, won, lost))
        return after

    pool = get_pool(options.ranked)
    return ArenaGame(
        pool.id,
        options.speed,
        tuple(p for p in players if p is not None),
        counted,
        update,
        (MU, SIGMA),
        state.started_at,
    )


def state_teams(state: TableState) -> bool:
    return state.options.ranked is not None and get_pool(state.options.ranked).teams


def settled_places(state: TableState, at: float, down_since: float | None = None) -> list[int]:
    """The places a turn-based arena game still running at its season's end (``at``; ``state``
    as it stood then) counts with: lost by the seat that used the most time by then (vacations
    and the hall's downtime excluded: ``down_since``, when the hall went down if it was down at
    ``at``), in partnership its team; the others share first."""
    n = len(state.seats)
    used = [state.time_used(seat, at) for seat in range(n)]
    turn = state.turn
    if turn is not None and down_since is not None and down_since < at:
        used[turn] -= at - max(down_since, state.turn_since)
    slowest = max(range(n), key=lambda s: (used[s], s == turn, -s))  # equal: the seat to move
    teams = state_teams(state)
    losing = {s for s in range(n) if (s % 2 == slowest % 2 if teams else s == slowest)}
    return [n - len(losing) + 1 if s in losing else 1 for s in range(n)]


def settle(
    standings: Sequence[SeasonStanding],
) -> tuple[list[tuple[str, int, int, int | None]], list[tuple[str, int]]]:
    """A season's end: a badge (the league finished in) and a rank for each player who played
    in it, trophies to the top of Elite by season rating, and each player's league next season."""
    ranked = sorted(standings, key=lambda s: (-s.league, -s.points, -s.mu, -s.wins, s.player_id))
    played = [s for s in ranked if s.games > 0]
    elite = [s.player_id for s in played if s.league == League.ELITE]
    awards = [
        (
            s.player_id,
            s.league,
            rank,
            trophy(elite.index(s.player_id) + 1) if s.player_id in elite else None,
        )
        for rank, s in enumerate(played, 1)
    ]
    return awards, [(s.player_id, int(relegated(League(s.league)))) for s in ranked]


def following(season: Season, now: float, seconds: float) -> tuple[float, float]:
    """The next season's start and end: from the last season's end, skipping whole seasons
    the hall was down through (none would have had a game)."""
    behind = max(0, math.floor((now - season.ends_at) / seconds))
    starts = season.ends_at + behind * seconds
    return starts, starts + seconds


class Seasons:
    """Begins each pool and speed's first season and ends each season once its time is past."""

    def __init__(self, store: Store, clock: Clock, claim: Claim, days: float) -> None:
        self.store = store
        self.clock = clock
        self.claim = claim
        self.seconds = days * DAY

    async def begin(self) -> None:
        """Every pool and speed has a season (the first begun now, by whichever process is first)."""
        now = self.clock.now()
        pairs = [(pool, speed.value) for pool in POOLS for speed in Speed]
        await self.store.arena.begin_first(pairs, now, now + self.seconds)

    async def once(self) -> list[Season] | None:
        """One look: the seasons ended by this process now (None: another process holds the job)."""
        if not await self.claim.claim():
            return None
        await self.begin()
        ended = []
        now = self.clock.now()
        for season in sorted(await self.store.arena.open_seasons(), key=lambda s: s.number):
            if season.ends_at > now:
                continue
            following_ = following(season, now, self.seconds)
            # The next season begins on time; this one stays open while its real-time arena
            # games still run, so that each counts for the season it started in.
            await self.store.arena.begin_next(season, following_)
            if now < season.ends_at + STRAGGLERS_WAIT and await self._still_running(season):
                continue
            settled = await self._running_at_end(season)
            closed = await self.store.arena.close(
                season, now, following_, (MU, SIGMA), settled, settle
            )
            if closed:
                ended.append(season)
                log.info("arena season %d of %s %s ended", season.number, season.pool, season.speed)
        return ended

    # What the web reads --------------------------------------------------------------------
    async def season(self, pool: str, speed: str, number: int | None) -> Season | None:
        """A season of a pool and speed (None: the current one)."""
        if number is None:
            return await self.store.arena.current(pool, speed)
        return await self.store.arena.season(pool, speed, number)

    async def standings(
        self, season: Season, limit: int
    ) -> list[tuple[SeasonStanding, str, str | None]]:
        return await self.store.arena.standings(season.pool, season.speed, season.number, limit)

    async def awards(self, season: Season) -> list[Award]:
        return await self.store.arena.awards(season.pool, season.speed, season.number)

    async def of_player(self, player_id: str) -> list[tuple[Season, SeasonStanding]]:
        return await self.store.arena.of_player(player_id)

    async def awards_of(self, player_id: str) -> list[Award]:
        return await self.store.arena.awards_of(player_id)

    async def _still_running(self, season: Season) -> int:
        """How many real-time arena games of the season's pool, started before its end, are
        still running (the season's end waits for them)."""
        if season.speed != Speed.REAL_TIME.value:
            return 0
        running = 0
        for table_id in await self.store.live_tables():
            state = TableState.replay(table_id, await self.store.events(table_id))
            o = state.options
            if not o.arena or o.ranked != season.pool or o.speed != season.speed:
                continue
            started = state.started_at
            if state.result is None and started is not None and started < season.ends_at:
                running += 1
        return running

    async def _running_at_end(self, season: Season) -> list[tuple[str, ArenaGame]]:
        """The turn-based arena games of the season's pool still running at its end, each with
        its change as the season counts it (lost by the seat that used the most time)."""
        if season.speed != Speed.TURN_BASED.value:
            return []
        settled = []
        end = season.ends_at
        for table_id in await self.store.live_tables():
            log_ = await self.store.events(table_id)
            # The table as it stood at the season's end; if the hall was down then, the event
            # that gave the downtime back (written at the restart) says since when.
            state = TableState.replay(table_id, [e for e in log_ if e[1] <= end])
            later = [e for e in log_ if e[1] > end]
            down_since = None
            if later and later[0][2].get("kind") == Resumed.kind:
                down_since = later[0][1] - float(later[0][2]["downtime"])
            o = state.options
            if not o.arena or o.ranked != season.pool or o.speed != season.speed:
                continue
            if state.game is None or state.started_at is None or state.started_at >= season.ends_at:
                continue
            game = arena_game(state, settled_places(state, end, down_since))
            if game is not None:
                settled.append((table_id, game))
        return settled

    async def look(self) -> None:
        """``once``, its failure logged (the next look tries again)."""
        try:
            await self.once()
        except Exception:  # noqa: BLE001 - the next look tries again
            log.exception("arena seasons failed")

    async def run(self, every: float = EVERY) -> None:
        """A look every ``every`` seconds (the first at start, by ``open_hall``), until cancelled
        (the claim then released)."""
        try:
            while True:
                await asyncio.sleep(every)
                await self.look()
        finally:
            await self.claim.release()


async def standing_labels(store: Store, state: TableState) -> dict[str, str]:
    """Each player's league and points at an arena table (``Gold 4``), by player id; nothing
    at another table."""
    o = state.options
    labels: dict[str, str] = {}
    if not o.arena or o.ranked is None:
        return labels
    for seat in state.seats:
        if seat.player is None or seat.player in labels:
            continue
        mine = [
            st
            for season, st in await store.arena.of_player(seat.player)
            if season.pool == o.ranked and season.speed == o.speed
        ]
        standing = Standing(League(mine[0].league), mine[0].points) if mine else Standing()
        labels[seat.player] = standing.label
    return labels
