"""docs/deploy.md tells operators to give the hall a Redis user allowed only its own keys and
channels and a list of commands. This runs two hall processes through such a user, made from
the list as the document writes it, on a Redis server of the test's own (a spare port), and
then reads Redis's ACL log: any command or key the hall used beyond the list is there."""

from __future__ import annotations

import asyncio
import dataclasses
import re
from pathlib import Path

import pytest
import redis.asyncio as redis

from dominohall.hall import ManualClock, Options
from dominohall.hall.notices import PlayerNotice, YourTurn
from dominohall.hall.seeking import TICK
from dominohall.hall.wiring import HallSettings, open_hall
from own_servers import OwnRedis

from .helpers import ANN, BOB, CID, DEE
from .test_owners import play_one
from .test_owners import settings as several_processes

pytestmark = [pytest.mark.anyio, pytest.mark.postgresql]

DEPLOY = Path(__file__).resolve().parents[2] / "docs" / "deploy.md"


def documented_commands() -> list[str]:
    """The commands of the paragraph on the hall's Redis user, in the document's words."""
    text = " ".join(DEPLOY.read_text().split())
    start = text.index("better an ACL user allowed only")
    paragraph = text[start : text.index("The URL carries all of it", start)]
    words = re.findall(r"`([A-Z][A-Z ]+)`", paragraph)
    return sorted({command for group in words for command in group.split()})


def test_the_document_names_the_commands_the_hall_is_known_to_need() -> None:
    commands = documented_commands()
    for needed in ("PUBLISH", "SUBSCRIBE", "XADD", "XREAD", "EVALSHA", "HSET"):
        assert needed in commands, commands


async def test_two_processes_play_through_a_redis_user_limited_as_documented(
    postgres_database: str, redis_prefix: str
) -> None:
    allowed = " ".join(f"+{c.lower()}" for c in documented_commands())
    user = f"hall on >secret ~{redis_prefix}* resetchannels &{redis_prefix}* -@all {allowed}"
    server = OwnRedis("--user", *user.split())
    server.start()
    admin = redis.Redis.from_url(server.url)
    try:
        await server.up()
        clock = ManualClock()
        url = f"redis://hall:secret@127.0.0.1:{server.port}/0"

        def settings(process: str) -> HallSettings:
            made = several_processes(postgres_database, redis_prefix, clock, process)
            return dataclasses.replace(made, redis_url=url)

        a, b = await asyncio.gather(open_hall(settings("hall-a")), open_hall(settings("hall-b")))
        try:
            heard: list[PlayerNotice] = []
            stop_hearing = b.hall.broker.listen(ANN.id, heard.append)
            # A table of a's, listed, joined and played through b.
            state = await a.hall.create_table(ANN, Options.choose(seats=2, timer="relaxed"))
            await a.hall.board.written()  # (written a moment after the change)
            assert [t["id"] for t in await b.hall.board.listed()] == [state.id]
            await b.hall.join(BOB, state.id, None)
            await b.hall.start_game(ANN, state.id)
            for n in range(6):
                await play_one(b if n % 2 else a, state.id)
            assert await b.hall.tables_of(ANN.id)
            # Who is online, and which processes play tables.
            a.online.arrived(ANN.id)
            for _ in range(200):
                if await b.online.which([ANN.id, BOB.id]) == {ANN.id}:
                    break
                await asyncio.sleep(0.02)
            assert await b.online.count() == 1
            assert b.link is not None and sorted(await b.link.players()) == ["hall-a", "hall-b"]
            # The queue, paired by the process that holds its claim.
            for hall, person in ((a, CID), (b, DEE)):
                await hall.matchmaker.seek(
                    person, account=True, pool="draw", players=2, speed=None, ranked=True
                )
            await clock.advance(TICK + 0.1)
            assert (await b.matchmaker.status(DEE.id)).table is not None
            for _ in range(200):
                if any(isinstance(n, YourTurn) for n in heard):
                    break
                await asyncio.sleep(0.02)
            assert any(isinstance(n, YourTurn) for n in heard)
            stop_hearing()
        finally:
            await asyncio.gather(a.close(), b.close())
        denied = await admin.execute_command("ACL", "LOG")
        assert denied == [], f"refused by the documented user: {denied}"
    finally:
        await admin.aclose()
        server.stop()
