"""A rolling restart during play (issue 23, docs/deploy.md "Rolling a new version out"): three
halls on one PostgreSQL database and the machine's Redis, games played through random halls,
and each hall in turn stopped cleanly (``OpenHall.close``: what ``serve`` runs on SIGTERM) and
started again under a new process name. The hand-driven clock never moves as far as a lease:
every table the stopped hall held goes on at once at another hall, because a clean stop gives
its leases up; waiting for them to expire would show here as ``owner_unreachable``."""

from __future__ import annotations

import random

import pytest

from dominohall.hall import HallError, ManualClock, Options
from dominohall.hall.table import Phase
from dominohall.hall.wiring import OpenHall, open_hall
from dominohall.rules import DRAW

from .helpers import ANN, BOB, Person, first_move, view, whose_turn
from .test_owners import LEASE, settings

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]

HALLS = 3
GAMES = 3
MOVES_BETWEEN_STOPS = 12


class Roll:
    """The halls up, the moves acknowledged, and a random hall to go through."""

    def __init__(self, url: str, prefix: str) -> None:
        self.url = url
        self.prefix = prefix
        self.clock = ManualClock()
        self.rng = random.Random(23)
        self.halls: list[OpenHall] = []
        self.acked: list[tuple[str, int, int]] = []  # (table, version, seat)
        # Each person's socket at each table, and the hall it is open on.
        self.sockets: dict[tuple[str, Person], OpenHall] = {}
        self.starts = 0

    async def start(self, index: int) -> None:
        self.starts += 1
        name = f"hall-{index}-{self.starts}"  # a new name each start (ownership.new_process_id)
        opened = await open_hall(settings(self.url, self.prefix, self.clock, name))
        self.halls.insert(index, opened)

    async def connect(self, table_id: str, person: Person) -> None:
        """A person's socket opened at a random hall (again, after its hall stopped): the
        next hand is dealt once the people connected are ready."""
        through = self.any_hall()
        await through.hall.connect(table_id, person)
        self.sockets[(table_id, person)] = through

    async def stop(self, index: int) -> OpenHall:
        """Hall ``index`` stopped cleanly (its sockets open again elsewhere: ``reconnect``)."""
        stopping = self.halls.pop(index)
        await stopping.close()
        return stopping

    async def reconnect(self, stopped: OpenHall) -> None:
        for key, through in list(self.sockets.items()):
            if through is stopped:
                await self.connect(*key)

    def any_hall(self) -> OpenHall:
        return self.rng.choice(self.halls)

    def holder(self, table_id: str) -> OpenHall:
        """The hall holding the table (else any): the move is chosen from its copy, as a
        client chooses from the state it was sent, rather than from the log replayed."""
        for opened in self.halls:
            if opened.hall.ownership is not None and opened.hall.ownership.holds(table_id):
                return opened
        return self.any_hall()

    async def step(self, table_id: str) -> bool:
        """One move (or the seats' Next hand) at the table through a random hall; False once
        the game is over."""
        through, knows = self.any_hall(), self.holder(table_id)
        state = await knows.hall.owner.table(table_id)
        if state.phase is Phase.FINISHED:
            return False
        if state.phase is not Phase.PLAYING:
            for person in (ANN, BOB):  # (nobody connected: the deal does not wait for them)
                try:
                    await through.hall.next_hand(person, table_id)
                except HallError as error:
                    assert error.code in {"not_between_hands", "already_ready"}, error
            return True
        person = await whose_turn(knows.hall, table_id, [ANN, BOB])
        move = first_move(await view(knows.hall, table_id, person))
        version = await through.hall.play(person, table_id, move, until_fits=move == DRAW)
        seat = state.seat_of(person.id)
        assert seat is not None
        self.acked.append((table_id, version, seat))
        return True


async def test_a_rolling_restart_loses_no_game_and_hands_every_table_over_at_once(
    postgres_database: str, redis_prefix: str
) -> None:
    roll = Roll(postgres_database, redis_prefix)
    began = roll.clock.now()
    for index in range(HALLS):
        await roll.start(index)
    try:
        tables = []
        for _ in range(GAMES):
            hall = roll.any_hall().hall
            state = await hall.create_table(ANN, Options.choose(seats=2, timer="relaxed"))
            await hall.join(BOB, state.id, None)
            await hall.start_game(ANN, state.id)
            tables.append(state.id)
            for person in (ANN, BOB):
                await roll.connect(state.id, person)
        for index in range(HALLS):
            for _ in range(MOVES_BETWEEN_STOPS):
                await roll.step(roll.rng.choice(tables))
            stopping = roll.halls[index]
            assert stopping.hall.ownership is not None
            held = set(stopping.hall.ownership.held)
            await roll.stop(index)
            # Given up, not left to expire: nobody holds them now, and each goes on at once
            # through the halls still up (taken over on its first command).
            for table_id in held:
                assert await roll.halls[0].store.table_leases.holder(table_id) is None
            await roll.reconnect(stopping)
            for table_id in tables:
                await roll.step(table_id)
            await roll.start(index)
        # Every live table is owned again, by a hall that is up, within its lease.
        up = {h.hall.ownership.process_id for h in roll.halls if h.hall.ownership is not None}
        for hall in roll.halls:
            assert hall.hall.ownership is not None
            await hall.hall.ownership.tick()
        for table_id in tables:
            if (await roll.halls[0].hall.owner.table(table_id)).phase is Phase.FINISHED:
                continue
            holder = await roll.halls[0].store.table_leases.holder(table_id)
            assert holder is not None and holder.owner in up
            assert roll.clock.now() < holder.expires_at
        # Every game played to its end, through random halls.
        for table_id in tables:
            for _ in range(2000):
                if not await roll.step(table_id):
                    break
        assert (
            roll.clock.now() - began < LEASE
        )  # (no lease ever expired: every handover was a release)
        store = roll.halls[0].store
        for table_id in tables:
            state = await roll.halls[0].hall.owner.table(table_id)
            assert state.phase is Phase.FINISHED
            assert state.game_over is not None and state.game_over.reason == "rules"
            # One owner at a time: by version, the fencing tokens never go down; and the
            # table changed hands at least once.
            marks = [token or 0 for _, token in await store.table_leases.tokens(table_id)]
            assert marks == sorted(marks)
        owners = [{t for _, t in await store.table_leases.tokens(t_id)} for t_id in tables]
        assert any(len(tokens) > 1 for tokens in owners)
        # No acknowledged move lost: each ack's version holds that seat's move.
        bodies = {
            table_id: {v: body for v, _, body in await store.events(table_id)}
            for table_id in tables
        }
        for table_id, version, seat in roll.acked:
            body = bodies[table_id][version]
            assert body["kind"] == "move" and body["seat"] == seat and body["by"] == "player"
    finally:
        for hall in roll.halls:
            await hall.close()
