"""The tournaments (issue 25, docs/tournaments.md) put to work: created, joined, paused, left,
cancelled; each step (``step``) starts a tournament that is due, takes in the games that ended,
pairs (an arena's round, a swiss' next round once the last is over) and opens the games as real
started tables through the table's owner, people and computer players seated; and ends it.

Everything lives in the store (``store/tournaments.py``): each step reads the tournament, changes
it and saves it at the version read, so a restart goes on where it stood; the steps run on the one
process holding the ``tournaments`` claim (``once_only.py``, ``TournamentRunner``).
"""

from __future__ import annotations

import asyncio
import copy
import logging
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any

from ..store import tournaments as stored
from ..store.tournaments import StoredTournament
from . import commands
from .broker import Broker
from .clock import Clock
from .command_path import TableOwner
from .errors import HallError
from .events import SeatAtStart, SeatKind
from .messages import ArenaRow, EnteredRow, SwissRow, Tournament
from .notices import Invitation
from .once_only import Claim, every_round
from .options import BotLevel, Options, capped
from .ratings import POOLS, RANKED_TIMERS, Speed
from .seasons import settled_places
from .seating import Person, new_table_id
from .table import TableState
from .tournament.arena import Arena, outcomes_by_place
from .tournament.entrants import Entrant, seats_of
from .tournament.swiss import Swiss
from .tournament_news import TournamentNews

log = logging.getLogger("dominohall.hall")

KINDS = ("arena", "swiss")
CREATE_LIMIT = 3  # tournaments an account may create in a day (the operator: no limit)
DAY = 86400.0
MINUTES = range(5, 24 * 60 + 1)  # an arena lasts 5 minutes to a day
NAME_LENGTH = range(3, 41)
ROUND_DAYS = range(1, 31)  # a turn-based swiss' round lasts 1 to 30 days


@dataclass(frozen=True)
class Plan:
    """What a tournament is to be: its kind, the tables' options (a cap among them), when it
    starts, and an arena's minutes or a swiss' rounds; fixed pairs for a partnership preset."""

    name: str
    kind: str
    options: Options
    starts_at: float
    minutes: int | None = None
    rounds: int | None = None
    invitation_only: bool = False
    pairs: bool = False
    # Rated: the games are ranked games of the pool of ``options.ranked`` (``rated_options``).
    rated: bool = False
    # A turn-based swiss: the days each round lasts (its games still running then are settled).
    round_days: int | None = None

    def check(self) -> None:
        """``bad_option`` saying what is wrong."""
        if self.rated:
            check_rated(self.options)
        elif self.options.ranked is not None or self.options.arena:
            raise HallError("bad_option", "only a rated tournament's games are ranked")
        name = self.name.strip()
        if len(name) not in NAME_LENGTH or not all(c.isprintable() for c in name):
            raise HallError("bad_option", "a tournament's name is 3 to 40 visible characters")
        if self.kind not in KINDS:
            raise HallError(
                "bad_option",
                "a tournament is an arena or a swiss, not {self_kind!r}",
                self_kind=self.kind,
            )
        if self.options.turn_based is not None and self.kind == "arena":
            raise HallError("bad_option", "an arena is played in real time")
        if self.kind == "arena" and (self.minutes is None or self.minutes not in MINUTES):
            raise HallError("bad_option", "an arena lasts 5 to 1440 minutes")
        if self.kind == "swiss" and (self.rounds is None or not 1 <= self.rounds <= 15):
            raise HallError("bad_option", "a swiss plays 1 to 15 rounds")
        if self.pairs != (self.options.seats == 4 and self.options.preset == "partnership"):
            raise HallError("bad_option", "fixed pairs play the partnership preset, four seats")
        if self.kind == "swiss" and self.options.seats != 2 and not self.pairs:
            raise HallError("bad_option", "a swiss pairs two players (or two pairs) a game")
        turn_based = self.options.turn_based is not None
        if turn_based and (self.round_days is None or self.round_days not in ROUND_DAYS):
            raise HallError(
                "bad_option",
                "a turn-based swiss' rounds last {round_days_start} to {round_days_last} days "
                "(round_days)",
                round_days_start=ROUND_DAYS.start,
                round_days_last=ROUND_DAYS.stop - 1,
            )
        if not turn_based and self.round_days is not None:
            raise HallError(
                "bad_option",
                "round_days is for a turn-based swiss: a real-time round ends with its games",
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "options": self.options.to_json(),
            "starts_at": self.starts_at,
            "minutes": self.minutes,
            "rounds": self.rounds,
            "invitation_only": self.invitation_only,
            "pairs": self.pairs,
            "rated": self.rated,
            "round_days": self.round_days,
        }

    @classmethod
    def from_json(cls, obj: dict[str, Any]) -> Plan:
        return cls(**{**obj, "options": Options.from_json(obj["options"])})


def rated_options(options: Options) -> Options:
    """A rated tournament's tables' options: ``options`` ranked in the pool of their preset
    (``bad_option`` unless they are that pool's own, RULES.md 6: ``check_rated``)."""
    rated = replace(options, ranked=options.preset)
    check_rated(rated)
    return rated


def check_rated(options: Options) -> None:
    """``bad_option`` saying what is wrong, unless ``options`` are a pool's (RULES.md 6): its
    preset at its target, for a player count it plays, the ranked timer of the speed, public."""
    if options.ranked not in POOLS:
        pools = ", ".join(POOLS)
        raise HallError(
            "bad_option",
            "a rated tournament plays a pool's preset ({pools}), not {options_preset}",
            pools=pools,
            options_preset=options.preset,
        )
    pool = POOLS[options.ranked]
    if options.preset != pool.preset or options.target != pool.target:
        raise HallError(
            "bad_option",
            "a rated tournament of {pool_id} plays to {pool_target}, not {options_target}",
            pool_id=pool.id,
            pool_target=pool.target,
            options_target=options.target,
        )
    if options.seats not in pool.players:
        raise HallError(
            "bad_option",
            "the {pool_id} pool does not rate {options_seats}-player games",
            pool_id=pool.id,
            options_seats=options.seats,
        )
    timer = RANKED_TIMERS[Speed(options.speed)]
    if options.timer != timer:
        raise HallError(
            "bad_option",
            "a rated tournament's timer is {timer} at its speed ({options_speed}), "
            "not {options_timer}",
            timer=timer,
            options_speed=options.speed,
            options_timer=options.timer,
        )
    if options.private or options.arena:
        raise HallError("bad_option", "a rated tournament's games are public, not arena games")


class Tournaments:
    """The tournaments service over the store and the hall's tables (``owner``, whose people
    ``broker`` tells); without them (the command line's, no hall running) it creates and enters
    but never steps."""

    def __init__(
        self,
        store: stored.Tournaments,
        owner: TableOwner | None,
        broker: Broker | None,
        clock: Clock,
        *,
        held_back: Callable[[str], Awaitable[None]] | None = None,
        news: TournamentNews | None = None,
    ) -> None:
        """``held_back``: raises ``HeldBack`` for a player who walked away from real-time games
        lately (``abandonment.py``): kept out of real-time tournaments as out of other tables.
        ``news``: told each tournament saved changed, for the tournament sockets of every
        process (``tournament_feed.py``)."""
        self._news = news
        self.store = store
        self._held_back = held_back
        self._owner = owner
        self._broker = broker
        self._lock = asyncio.Lock()  # one step at a time in this process
        # Tables found unfinished by a look while asleep here: not looked at again (read from
        # their logs every step) until they wake or their round's deadline passes.
        self._asleep_unfinished: set[str] = set()
        self.clock = clock

    @property
    def owner(self) -> TableOwner:
        if self._owner is None:
            raise RuntimeError("a tournament is stepped by a hall")
        return self._owner

    @property
    def broker(self) -> Broker:
        if self._broker is None:
            raise RuntimeError("a tournament is stepped by a hall")
        return self._broker

    # -- asked by people --------------------------------------------------------------------
    async def create(self, creator: Person | None, plan: Plan) -> Tournament:
        """A new tournament (``creator`` None: the operator's); ``bad_option``, or
        ``too_many_tournaments`` past the limit of an account."""
        plan.check()
        now = self.clock.now()
        if creator is not None:
            made = await self.store.created_since(creator.id, now - DAY)
            if made >= CREATE_LIMIT:
                raise HallError(
                    "too_many_tournaments",
                    "an account creates {create_limit} tournaments a day",
                    create_limit=CREATE_LIMIT,
                )
        if plan.starts_at < now - 60:
            raise HallError("bad_option", "a tournament starts now or later")
        body = {"plan": plan.to_json(), "entrants": {}, "engine": None, "tables": {}}
        row = StoredTournament(
            secrets.token_hex(5),
            plan.name.strip(),
            plan.kind,
            creator.id if creator is not None else None,
            now,
            plan.starts_at,
            "created",
            not plan.invitation_only,
            body,
            0,
        )
        await self.store.create(row)
        return self._json(row)

    async def join(
        self, person: Person, tournament_id: str, partner: Person | None = None
    ) -> Tournament:
        """``person`` (with ``partner``, a fixed pair) enters, or comes back from a pause."""
        players = (person.id,) if partner is None else (person.id, partner.id)
        names = [person.name] + ([partner.name] if partner is not None else [])
        row = await self._get(tournament_id)
        if (
            self._held_back is not None
            and Plan.from_json(row.body["plan"]).options.turn_based is None
        ):
            for player in players:
                await self._held_back(player)
        return await self._enter(tournament_id, Entrant(players), names, None)

    async def seat_computers(
        self, tournament_id: str, count: int, level: BotLevel = BotLevel.NORMAL
    ) -> Tournament:
        """Computer players entered as entrants (the operator's demo and load tests); the
        tournament after them."""
        row = await self._get(tournament_id)
        if row.body["plan"].get("rated"):
            raise HallError("bad_option", "a rated tournament seats no computer players")
        pairs = row.body["plan"]["pairs"]
        answer = self._json(row)  # (none asked for: the tournament as it is)
        for i in range(count):
            n = len(row.body["entrants"]) + i + 1
            ids = (f"bot{n}a", f"bot{n}b") if pairs else (f"bot{n}",)
            names = [f"{level.title()} {n}{x}" for x in ("a", "b")] if pairs else [f"Bot {n}"]
            answer = await self._enter(tournament_id, Entrant(ids), names, level)
        return answer

    async def pause(self, person: Person, tournament_id: str) -> Tournament:
        """Not paired again until ``join`` (a game under way plays on); in a swiss: withdrawn."""

        def change(row: StoredTournament, engine: Arena | Swiss | None) -> None:
            entrant = _entrant_of(row, person.id)
            if engine is None:
                del row.body["entrants"][entrant]
            elif isinstance(engine, Arena):
                engine.pause(entrant)
            else:
                engine.withdraw(entrant)

        return await self._change(tournament_id, change)

    leave = pause  # leaving keeps the points: a pause for good (docs/tournaments.md)

    async def cancel(self, tournament_id: str) -> Tournament:
        """The operator cancels: no more pairings; games under way play on, uncounted."""

        def change(row: StoredTournament, engine: Arena | Swiss | None) -> str:
            if row.status in ("finished", "cancelled"):
                raise HallError("tournament_over", "the tournament is over")
            return "cancelled"

        return await self._change(tournament_id, change)

    async def get(self, tournament_id: str) -> Tournament:
        return self._json(await self._get(tournament_id))

    async def listed(self) -> list[Tournament]:
        """The tournaments the home page lists: created or running, not invitation-only."""
        rows = await self.store.of_status("created", "running")
        return [self._json(r) for r in rows if r.listed]

    # -- the steps ---------------------------------------------------------------------------
    async def step_all(self) -> None:
        for row in await self.store.of_status("created", "running"):
            try:
                await self.step(row.id)
            except Exception:  # noqa: BLE001 - the others go on; this one is tried again
                log.exception("tournament %s: step failed", row.id)

    async def step(self, tournament_id: str) -> None:
        """Start when due, take in the ended games, pair, end; the pairings are saved before
        their tables open (a table's id chosen first), so a step that loses its save to another
        opens nothing, and a table saved but not opened (a crash between) opens at the next."""
        async with self._lock:
            row = await self._get(tournament_id)
            if row.status not in ("created", "running"):
                return
            now = self.clock.now()
            before = copy.deepcopy(row.body)
            plan = Plan.from_json(row.body["plan"])
            engine = _engine(row)
            if engine is None:
                if now < plan.starts_at:
                    return
                if plan.kind == "swiss" and len(row.body["entrants"]) < 2:
                    if await self.store.save(row.id, row.version, "cancelled", row.body):
                        await self._told(row.id)
                    return  # (nobody to play: cancelled at its start)
                engine = self._begin(row, plan, now)
            await self._take_in(row, engine, now)
            opening = self._pair(row, plan, engine, now)
            status = "running"
            if isinstance(engine, Arena) and now >= engine.end and not engine.games:
                status = "finished"
            if isinstance(engine, Swiss) and engine.finished:
                status = "finished"
            row.body["engine"] = engine.to_json()
            if not await self.store.save(row.id, row.version, status, row.body):
                return  # changed meanwhile (a join): the next step pairs again
            if status != row.status or row.body != before:
                await self._told(row.id)
            for table_id in opening:
                await self._open(row, table_id)

    def _begin(self, row: StoredTournament, plan: Plan, now: float) -> Arena | Swiss:
        ratings = {e: i for i, e in enumerate(row.body["entrants"])}
        if plan.kind == "arena":
            assert plan.minutes is not None
            seats = 2 if plan.pairs else plan.options.seats
            arena = Arena(now, now + plan.minutes * 60.0, seats=seats)
            for entrant in row.body["entrants"]:
                arena.join(entrant, 1500.0 - ratings[entrant], now)
            return arena
        assert plan.rounds is not None
        entrants = list(row.body["entrants"])
        return Swiss(entrants, min(plan.rounds, len(entrants) - 1 + len(entrants) % 2))

    async def _take_in(self, row: StoredTournament, engine: Arena | Swiss, now: float) -> None:
        """The games that ended since the last step, counted."""
        deadline = row.body.get("round_deadline")
        past_deadline = deadline is not None and now >= deadline
        for table_id, game in list(row.body["tables"].items()):
            entrants = game["entrants"]
            if not past_deadline and self._unchanged(table_id):
                continue
            try:
                state = await self.owner.table(table_id)
            except HallError as error:
                if error.code != "no_table":
                    raise
                await self._open(row, table_id)  # saved by a step that stopped before opening
                continue
            settled = state.result is None and state.game is not None and past_deadline
            if (state.result is None or state.game is None) and not settled:
                if self.owner.asleep(table_id):
                    self._asleep_unfinished.add(table_id)
                continue
            assert state.game is not None
            self._asleep_unfinished.discard(table_id)
            del row.body["tables"][table_id]
            sides = _sides(row, entrants)
            scores = state.game.seat_scores()
            if settled:
                # Still running at the round's deadline: counted as lost by the side that used
                # the most time (the season's rule, docs/arena.md); the game plays on, apart.
                assert deadline is not None
                by_seat = settled_places(state, deadline)
                placed = {e: min(by_seat[s] for s in sides[e]) for e in entrants}
            else:
                placed = _places(state, sides)
            absent = _absent(state, sides)
            if absent is not None:  # (never came: last, whatever the scores say)
                placed = {e: (2 if e == absent else 1) for e in entrants}
            # Kept for good: a finished tournament links every game it played.
            row.body.setdefault("played", []).append(
                {
                    "table": table_id,
                    "entrants": entrants,
                    "places": [placed[e] for e in entrants],
                    **({"settled": True} if settled else {}),
                }
            )
            if isinstance(engine, Arena):
                engine.finish(table_id, outcomes_by_place(placed), now)
                continue
            a, b = entrants
            winner = None if placed[a] == placed[b] else (a if placed[a] < placed[b] else b)
            points = {who: scores[sides[who][0]] for who in entrants}
            if absent is not None:  # a no-show: withdrawn
                engine.no_show(absent, b if absent == a else a)
                continue
            engine.record(a, b, points[a], points[b], winner)

    def _unchanged(self, table_id: str) -> bool:
        """The table was found unfinished by a look while asleep here and is asleep now: it has
        nothing to take in (a table wakes at any command, and only one playing on sleeps)."""
        if self.owner.asleep(table_id):
            return table_id in self._asleep_unfinished
        self._asleep_unfinished.discard(table_id)  # woken: looked at again
        return False

    def _pair(
        self, row: StoredTournament, plan: Plan, engine: Arena | Swiss, now: float
    ) -> list[str]:
        """The games to open now, each put in the tournament with its table's id and options."""
        cap: int | None
        if isinstance(engine, Arena):
            groups = [p.entrants for p in engine.pair(now)]
            cap = engine.cap_at(now, plan.options.cap)
        else:
            if engine.finished or not engine.round_over():
                return []
            groups = [(g.a, g.b) for g in engine.pair()]
            cap = plan.options.cap
            if plan.round_days is not None:  # (turn-based: the round ends on a given day)
                row.body["round_deadline"] = now + plan.round_days * DAY
        options = capped(plan.options, cap) if plan.options.turn_based is None else plan.options
        opening = []
        for group in groups:
            table_id = new_table_id()
            if isinstance(engine, Arena):
                engine.opened(table_id, group)
            row.body["tables"][table_id] = {"entrants": list(group), "options": options.to_json()}
            opening.append(table_id)
        return opening

    async def _open(self, row: StoredTournament, table_id: str) -> None:
        """A paired game's table, started, the group's players seated (a computer entrant as a
        computer player); its people are told (``Invitation``, docs/protocol.md 8)."""
        game = row.body["tables"][table_id]
        options = Options.from_json(game["options"])
        kept = row.body["entrants"]
        group = game["entrants"]
        entrants = [Entrant(tuple(kept[e]["players"])) for e in group]
        players = seats_of(entrants, options.seats)
        names = {
            p: n for e in group for p, n in zip(kept[e]["players"], kept[e]["names"], strict=True)
        }
        levels = {p: kept[e]["bot"] for e in group for p in kept[e]["players"]}
        seats = tuple(
            SeatAtStart(SeatKind.BOT, None, names[p], levels[p])
            if levels[p] is not None
            else SeatAtStart(SeatKind.HUMAN, p, names[p])
            for p in players
        )
        await self.owner.open(table_id, commands.Open(options, seats, True))
        for seat in seats:  # seated by the tournament: their page opens the table
            if seat.player is not None:
                self.broker.tell(seat.player, Invitation("tournament", table_id, row.name))

    async def _told(self, tournament_id: str) -> None:
        """Every process told the tournament changed (saved first)."""
        if self._news is not None:
            await self._news.changed(tournament_id)

    # -- the row -----------------------------------------------------------------------------
    async def _get(self, tournament_id: str) -> StoredTournament:
        row = await self.store.get(tournament_id)
        if row is None:
            raise HallError(
                "no_tournament", "no tournament {tournament_id!r}", tournament_id=tournament_id
            )
        return row

    async def _enter(
        self, tournament_id: str, entrant: Entrant, names: list[str], bot: BotLevel | None
    ) -> Tournament:
        def change(row: StoredTournament, engine: Arena | Swiss | None) -> None:
            if row.body["plan"]["pairs"] != entrant.is_pair:
                if row.body["plan"]["pairs"]:  # two whole sentences, for the translators
                    raise HallError("bad_option", "this tournament's entrants are fixed pairs")
                raise HallError("bad_option", "this tournament's entrants are single players")
            for player in entrant.players:
                known = next(
                    (e for e, v in row.body["entrants"].items() if player in v["players"]), None
                )
                if known is not None and known != entrant.id:
                    raise HallError(
                        "already_entered",
                        "{player} plays as {known} already",
                        player=player,
                        known=known,
                    )
            row.body["entrants"][entrant.id] = {
                "players": list(entrant.players),
                "names": names,
                "bot": None if bot is None else bot.value,
            }
            if isinstance(engine, Arena):
                if self.clock.now() >= engine.closes:
                    raise HallError("tournament_over", "the arena's pairings have closed")
                engine.join(entrant.id, 1500.0, self.clock.now())
            elif isinstance(engine, Swiss):
                raise HallError("tournament_started", "a swiss is entered before it starts")

        return await self._change(tournament_id, change)

    async def _change(self, tournament_id: str, change: Any) -> Tournament:
        """``change(row, engine)`` applied and saved, again from a fresh read if another save
        came first; it may return the new status."""
        for _ in range(5):
            row = await self._get(tournament_id)
            if row.status in ("finished", "cancelled"):
                raise HallError("tournament_over", "the tournament is over")
            engine = _engine(row)
            status = change(row, engine) or row.status
            if engine is not None:
                row.body["engine"] = engine.to_json()
            if await self.store.save(row.id, row.version, status, row.body):
                await self._told(tournament_id)
                return self._json(await self._get(tournament_id))
        raise HallError("busy", "the tournament is changing: try again")

    def _json(self, row: StoredTournament) -> Tournament:
        """A tournament as the API answers it (docs/protocol.md 14)."""
        plan = row.body["plan"]
        engine = _engine(row)
        kept = row.body["entrants"]

        def names(entrant: str) -> str:
            return " & ".join(kept[entrant]["names"]) if entrant in kept else entrant

        standings: list[ArenaRow] | list[SwissRow] | list[EnteredRow]
        ends_at = None
        if isinstance(engine, Arena):
            ends_at = engine.end
            arena_rows: list[ArenaRow] = [
                {
                    "entrant": e.id,
                    "name": names(e.id),
                    "points": e.score,
                    "games": e.games,
                    "on_fire": e.on_fire,
                    "sheet": e.sheet,
                    "paused": e.paused,
                }
                for e in engine.standings()
            ]
            standings = arena_rows
        elif isinstance(engine, Swiss):
            swiss_rows: list[SwissRow] = [
                {
                    "entrant": s.id,
                    "name": names(s.id),
                    "points": s.points,
                    "head_to_head": s.head_to_head,
                    "difference": s.difference,
                    "sonneborn_berger": s.sonneborn_berger,
                    "withdrawn": s.withdrawn,
                }
                for s in engine.standings()
            ]
            standings = swiss_rows
        else:
            entered: list[EnteredRow] = [
                {"entrant": e, "name": names(e), "points": 0} for e in kept
            ]
            standings = entered
        return {
            "id": row.id,
            "link": f"/tournaments/{row.id}",
            "name": row.name,
            "kind": row.kind,
            "status": row.status,
            "creator": row.creator_id,
            "starts_at": row.starts_at,
            "ends_at": ends_at,
            "minutes": plan["minutes"],
            "rounds": plan["rounds"],
            "round": engine.round if isinstance(engine, Swiss) else None,
            "round_days": plan.get("round_days"),
            "round_deadline": row.body.get("round_deadline"),
            "options": plan["options"],
            "invitation_only": plan["invitation_only"],
            "pairs": plan["pairs"],
            "rated": bool(plan.get("rated")),
            "entrants": len(kept),
            "standings": standings,
            "games": [
                {
                    "table": t,
                    "link": f"/t/{t}",
                    "entrants": [names(e) for e in game["entrants"]],
                    "players": [p for e in game["entrants"] for p in kept[e]["players"]],
                }
                for t, game in row.body["tables"].items()
            ],
            "played": [
                {
                    "game": g["table"],
                    "link": f"/games/{g['table']}",
                    "entrants": [names(e) for e in g["entrants"]],
                    "places": g["places"],
                    "settled": bool(g.get("settled")),
                }
                for g in row.body.get("played", [])
            ],
        }


def _engine(row: StoredTournament) -> Arena | Swiss | None:
    obj = row.body["engine"]
    if obj is None:
        return None
    return Arena.from_json(obj) if row.kind == "arena" else Swiss.from_json(obj)


def _entrant_of(row: StoredTournament, player: str) -> str:
    for entrant, kept in row.body["entrants"].items():
        if player in kept["players"]:
            return str(entrant)
    raise HallError("not_entered", "you are not in this tournament")


def _sides(row: StoredTournament, entrants: list[str]) -> dict[str, list[int]]:
    """Each entrant's seats at its table (as ``seats_of`` seated them)."""
    kept = row.body["entrants"]
    seats = len(entrants) * len(kept[entrants[0]]["players"])
    players = seats_of([Entrant(tuple(kept[e]["players"])) for e in entrants], seats)
    return {e: [players.index(p) for p in kept[e]["players"]] for e in entrants}


def _absent(state: TableState, sides: dict[str, list[int]]) -> str | None:
    """The entrant who never came to a game that ended for it: out before making a move of
    their own (a forfeit), or whose first turn ran out at a ranked table (the game aborted,
    RULES.md 6); None for any other end."""
    result = state.result
    if result is None:
        return None

    def never_moved(entrant: str) -> bool:
        return not any(s in state.last_turn_of for s in sides[entrant])

    gone = list(result.get("placed_last") or [])
    if result["reason"] == "aborted" and not gone:  # (the first turn ran out: the timer's)
        gone = [k for k, seat in enumerate(state.seats) if seat.timeouts]
    if result["reason"] not in ("forfeit", "aborted") or not gone:
        return None
    out = next(e for e in sides if gone[0] in sides[e])
    return out if never_moved(out) else None


def _places(state: TableState, sides: dict[str, list[int]]) -> dict[str, int]:
    """Each entrant's place at a finished table (1 best, equal places tie): a seat out of the
    game (left, timed out) places its entrant last, then the rules' winner, then the score."""
    assert state.game is not None and state.result is not None
    scores = state.game.seat_scores()
    winner = state.result["winner"]
    out = state.result.get("placed_last", [])

    def key(entrant: str) -> tuple[int, int, int]:
        seats = sides[entrant]
        gone = any(s in out for s in seats)
        return (0 if gone else 1, 1 if winner in seats else 0, scores[seats[0]])

    keys = {e: key(e) for e in sides}
    return {e: 1 + sum(keys[o] > keys[e] for o in sides) for e in sides}


class TournamentRunner:
    """Steps every tournament every ``EVERY`` seconds on the process holding the claim."""

    EVERY = 2.0

    def __init__(self, tournaments: Tournaments, claim: Claim) -> None:
        self.tournaments = tournaments
        self.claim = claim

    async def once(self) -> bool:
        if not await self.claim.claim():
            return False
        await self.tournaments.step_all()
        return True

    async def run(self, every: float = EVERY) -> None:
        await every_round(self.claim, every, self.tournaments.step_all, "tournaments")
