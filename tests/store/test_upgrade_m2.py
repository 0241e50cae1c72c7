"""A database written by milestone 2 (``fixtures/m2.sqlite``) loads and every table resumes.

``fixtures/make_m2.py`` says how the file was made (through milestone 2's app and hall) and
``fixtures/m2.json`` what that code said of it: a ranked real-time game and a turn-based game
mid-play (the turn-based one's player to move on vacation), a finished game with a rematch offer
half accepted, accounts and a guest signed in, a confirmed email address. Today's code opens it
(the migrations run from milestone 2's schema, 0007, to the head: 0008 adds the leases and
each event's fencing token, which its events have none of; the other later changes live in
the events and rows read back), every live table replays to the same hand, play goes on,
the offer stands and its last yes opens the new table, the vacation and the addresses are read
back, and the old sessions' cookies still sign their players in. SQLite only: the file is one.
"""

from __future__ import annotations

import hashlib
import json
import random
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from alembic.script import ScriptDirectory
from sqlalchemy import text
from starlette.testclient import TestClient

from dominohall.hall import ManualClock, Person
from dominohall.hall.table import Phase
from dominohall.hall.table.rematch import rematch_people
from dominohall.hall.views import rematch_json
from dominohall.store.store import MIGRATIONS
from dominohall.web import create_app
from hall.helpers import idle, play_first, running_hall, view, whose_turn

FIXTURES = Path(__file__).parent / "fixtures"
EXPECTED: dict[str, Any] = json.loads((FIXTURES / "m2.json").read_text())
DOWNTIME = 1000.0
LIVE = ("ranked", "turn_based")


def facts(state: Any, now: float) -> dict[str, Any]:
    """A table as ``make_m2.facts`` read it with milestone 2's code."""
    hand, game = state.hand, state.game
    turn_based = state.options.turn_based is not None
    return {
        "id": state.id,
        "phase": state.phase.value,
        "options": {
            "preset": state.options.preset,
            "target": state.options.target,
            "seats": state.options.seats,
            "timer": state.options.timer,
            "ranked": state.options.ranked,
        },
        "seats": [[s.kind, s.player, s.name, s.bot, s.out] for s in state.seats],
        "hands": len(game.hands) if game else 0,
        "moves": len(hand.history) if hand else 0,
        "holdings": list(hand.holdings) if hand else None,
        "drawn": hand.drawn if hand else None,
        "turn": state.turn,
        "scores": list(game.scores) if game else None,
        "timeouts": [s.timeouts for s in state.seats],
        "clock_left": (
            [state.clock_left(s, now) for s in range(len(state.seats))] if turn_based else None
        ),
        "vacations": {str(k): list(v) for k, v in sorted(state.vacations.items())},
        "result": state.result,
        "rematch": rematch_json(state),
        "rematch_people": rematch_people(state) if state.phase is Phase.FINISHED else None,
    }


@pytest.fixture
def old_hall(tmp_path: Path) -> Path:
    shutil.copy(FIXTURES / "m2.sqlite", tmp_path / "hall.db")
    return tmp_path


def _clock() -> ManualClock:
    """The hall comes back DOWNTIME seconds after milestone 2's hall stopped."""
    return ManualClock(EXPECTED["alive_at"] + DOWNTIME)


def _table(name: str) -> str:
    return str(EXPECTED["tables"][name]["id"])


def _person(name: str) -> Person:
    player = EXPECTED["players"][name]
    return Person(player["id"], player["name"])


def _people(table: str) -> list[Person]:
    return [
        _person(n)
        for n, p in EXPECTED["players"].items()
        if any(s[1] == p["id"] for s in EXPECTED["tables"][table]["seats"])
    ]


@pytest.mark.anyio
async def test_the_schema_is_at_the_head_and_every_table_loads_as_it_was(old_hall: Path) -> None:
    clock = _clock()
    async with running_hall(old_hall, clock) as hall:
        async with hall.store.engine.connect() as conn:
            version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).one()
        scripts = ScriptDirectory(str(MIGRATIONS))
        assert version[0] == scripts.get_current_head()
        for name, expected in EXPECTED["tables"].items():
            room = await hall.room(expected["id"])
            assert facts(room.state, clock.now()) == expected, name
        ann = EXPECTED["players"]["ann"]["id"]
        assert {s.id for s, _ in await hall.tables_of(ann)} == {_table(n) for n in LIVE}
        assert await hall.store.record(_table("finished")) is not None


@pytest.mark.anyio
async def test_play_goes_on_at_every_live_table(old_hall: Path) -> None:
    async with running_hall(old_hall, _clock()) as hall:
        for name in LIVE:
            table, expected = _table(name), EXPECTED["tables"][name]
            mover = await whose_turn(hall, table, _people(name))
            assert (await hall.room(table)).state.seat_of(mover.id) == expected["turn"]
            await play_first(hall, table, mover)  # (the turn-based one's mover is on vacation)
            state = (await hall.room(table)).state
            assert len(state.hand.history) > expected["moves"], name


@pytest.mark.anyio
async def test_the_real_time_turn_resumes_with_the_time_it_had_left(old_hall: Path) -> None:
    clock = _clock()
    table, expected = _table("ranked"), EXPECTED["tables"]["ranked"]
    async with running_hall(old_hall, clock) as hall:
        state = (await hall.room(table)).state
        left = state.turn_deadline - clock.now()
        assert 0 < left <= 25  # the Normal timer, the downtime charged to no one
        await clock.advance(left - 1)
        assert len(state.hand.history) == expected["moves"], "the timer fired before its time"
        await clock.advance(2)
        await idle(hall)
        assert len(state.hand.history) > expected["moves"], "the timer never fired"
        assert state.seats[expected["turn"]].timeouts == 1


@pytest.mark.anyio
async def test_the_rematch_offer_stands_and_the_last_yes_opens_the_new_table(
    old_hall: Path,
) -> None:
    async with running_hall(old_hall, _clock()) as hall:
        table, expected = _table("finished"), EXPECTED["tables"]["finished"]
        bob, eve = _person("bob"), _person("eve")
        assert (await view(hall, table, bob))["rematch"] == expected["rematch"]
        assert expected["rematch"]["open"] and expected["rematch"]["accepted"] == [1]
        await hall.rematch(eve, table, True)  # a second yes from Eve changes nothing
        assert (await hall.room(table)).state.rematch_table is None
        state = await hall.rematch(bob, table, True)
        new = state.rematch_table
        assert new is not None and new != table
        await idle(hall)
        opened = (await hall.room(new)).state
        assert opened.phase is Phase.PLAYING and opened.options == state.options
        assert [[s.kind, s.player, s.bot] for s in opened.seats] == [
            [s[0], s[1], s[3]] for s in expected["seats"]
        ]
        assert (await view(hall, table, eve))["rematch"]["table"] == new


@pytest.mark.anyio
async def test_the_vacation_addresses_and_sessions_are_read_back(old_hall: Path) -> None:
    clock = _clock()
    async with running_hall(old_hall, clock) as hall:
        vacation = dict(EXPECTED["vacation"])
        player = EXPECTED["players"][vacation.pop("player")]["id"]
        assert await hall.turn_based.vacation(player) == vacation
        assert await hall.store.vacations.of_player(player, 0.0) == [
            (vacation["start"], vacation["end"])
        ]
        state = (await hall.room(_table("turn_based"))).state
        assert state.on_vacation(state.seat_of(player), clock.now()) == vacation["end"]

        emails = hall.store.emails
        for name, expected in EXPECTED["emails"].items():
            address = await emails.of(EXPECTED["players"][name]["id"])
            assert address is not None, name
            assert (address.address, address.notify, address.confirmed_at) == (
                expected["address"],
                expected["notify"],
                expected["confirmed_at"],
            )
        assert await emails.active_players() == [EXPECTED["players"]["ann"]["id"]]

        for name, expected in EXPECTED["players"].items():
            for cookie in expected["cookies"]:
                session = hashlib.sha256(cookie.encode()).hexdigest()
                found = await hall.store.session(session, clock.now())
                assert found is not None, name
                assert (found[0].id, found[0].name, found[0].username) == (
                    expected["id"],
                    expected["name"],
                    expected["username"],
                )


@pytest.fixture
def client(old_hall: Path) -> Iterator[TestClient]:
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{old_hall / 'hall.db'}",
        data=old_hall,
        clock=_clock(),
        bot_delay=0,
        rng=random.Random(3),
        heartbeat=False,
    )
    with TestClient(app) as client:
        yield client


def _get(client: TestClient, path: str, cookie: str) -> Any:
    answer = client.get(path, headers={"Cookie": f"dominohall={cookie}"})
    client.cookies.clear()
    assert answer.status_code == 200, answer.text
    return answer.json()


def test_the_old_sessions_sign_their_players_in_over_http(client: TestClient) -> None:
    for name, expected in EXPECTED["players"].items():
        for cookie in expected["cookies"]:
            player = _get(client, "/api/me", cookie)["player"]
            # (a milestone-2 database chose no language: migration 0015 adds none)
            want = {k: expected[k] for k in ("id", "name", "username", "guest")} | {
                "language": None
            }
            assert player == want, name
    assert _get(client, "/api/me", "not-a-session")["player"] is None
    ann = EXPECTED["players"]["ann"]["cookies"][1]
    mine = _get(client, "/api/me/tables", ann)["tables"]
    assert {t["id"] for t in mine} == {_table(n) for n in LIVE}
    # The password milestone 2 hashed still opens the account.
    answer = client.post("/api/sign-in", json={"username": "cid", "password": EXPECTED["password"]})
    client.cookies.clear()
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"]["id"] == EXPECTED["players"]["cid"]["id"]
    # Bob's old session answers the rematch offer: the new table opens.
    bob = EXPECTED["players"]["bob"]["cookies"][0]
    answer = client.post(
        f"/api/tables/{_table('finished')}/rematch",
        json={"accept": True},
        headers={"Cookie": f"dominohall={bob}"},
    )
    client.cookies.clear()
    assert answer.status_code == 200, answer.text
    assert answer.json()["rematch"]["table"] is not None
