"""Requests between two processes' links over the machine's Redis: answers, refusals, silence."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as redis

from dominohall.hall import HallError
from dominohall.hall.abandonment import HeldBack
from dominohall.hall.errors import store_unavailable
from dominohall.hall.owner_link import OwnerLink
from dominohall.web.language import refusal

from .conftest import REDIS_URL

pytestmark = pytest.mark.anyio


@contextlib.asynccontextmanager
async def started(prefix: str, *names: str, timeout: float = 5.0) -> AsyncIterator[list[OwnerLink]]:
    """A link for each process name, listening."""
    links = [OwnerLink(REDIS_URL, prefix=prefix, process_id=n, timeout=timeout) for n in names]
    try:
        for link in links:
            await link.start()
        yield links
    finally:
        for link in links:
            await link.close()


def unreachable(error: pytest.ExceptionInfo[HallError]) -> str:
    assert error.value.code == "owner_unreachable"
    return error.value.message


async def test_a_request_is_answered_by_the_process_asked(redis_prefix: str) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):
        heard: list[dict[str, Any]] = []

        async def answer(request: dict[str, Any]) -> Any:
            heard.append(request)
            return {"version": 7, "table": request["table"]}

        b.handler = answer
        assert await a.ask("b", {"op": "send", "table": "t1"}) == {"version": 7, "table": "t1"}
        assert heard == [{"op": "send", "table": "t1", "id": 1, "from": "a"}]
        # Each way: b asks a, which answers with nothing.

        async def nothing(request: dict[str, Any]) -> None:
            return None

        a.handler = nothing
        assert await b.ask("a", {"op": "seats", "table": "t1"}) is None


async def test_a_refusal_comes_back_as_the_same_hall_error(redis_prefix: str) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):

        async def refuse(request: dict[str, Any]) -> Any:
            raise HallError("not_your_turn", f"it is not your turn at {request['table']}")

        b.handler = refuse
        with pytest.raises(HallError) as refused:
            await a.ask("b", {"op": "send", "table": "t1"})
        assert (refused.value.code, refused.value.message) == (
            "not_your_turn",
            "it is not your turn at t1",
        )


async def test_a_refusal_from_another_process_is_still_translated_and_keeps_its_fields(
    redis_prefix: str,
) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):

        async def refuse(request: dict[str, Any]) -> Any:
            raise HeldBack(until=1_000_600.0, now=1_000_000.0)

        async def unsaved(request: dict[str, Any]) -> Any:
            raise store_unavailable()

        b.handler = refuse
        with pytest.raises(HallError) as held:
            await a.ask("b", {"op": "send", "table": "t1"})
        assert held.value.to_json()["until"] == 1_000_600.0  # what HeldBack adds
        assert refusal(held.value, "es")["message"].startswith("dejaste partidas en tiempo real")
        b.handler = unsaved
        with pytest.raises(HallError) as refused:
            await a.ask("b", {"op": "send", "table": "t1"})
        assert refusal(refused.value, "pt-BR")["message"] == (
            "o banco de dados está inacessível agora: nada foi feito; tente de novo"
        )


async def test_a_failure_of_the_owner_is_answered_not_left_waiting(redis_prefix: str) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):

        async def broken(request: dict[str, Any]) -> Any:
            raise KeyError("a bug in the owner")

        b.handler = broken
        with pytest.raises(HallError) as failed:
            await a.ask("b", {"op": "send", "table": "t1"})
        assert (failed.value.code, failed.value.message) == (
            "server_error",
            "the hall could not do that; try again",
        )
        b.handler = None  # a process that serves no tables
        with pytest.raises(HallError) as refused:
            await a.ask("b", {"op": "send", "table": "t1"})
        assert (
            unreachable(refused)
            == "the process that holds the table is not serving tables: try again"
        )


async def test_a_process_nobody_hears_fails_at_once(redis_prefix: str) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):
        with pytest.raises(HallError) as never_started:
            await a.ask("c", {"op": "send", "table": "t1"})
        assert (
            unreachable(never_started)
            == "the process that holds the table is not listening: try again"
        )
        await b.close()  # b stops
        with pytest.raises(HallError) as stopped:
            await a.ask("b", {"op": "send", "table": "t1"})
        assert (
            unreachable(stopped) == "the process that holds the table is not listening: try again"
        )


async def test_an_owner_that_does_not_answer_in_time_is_unreachable_and_its_late_answer_ignored(
    redis_prefix: str,
) -> None:
    async with started(redis_prefix, "a", "b", timeout=0.2) as (a, b):
        release = asyncio.Event()

        async def slow(request: dict[str, Any]) -> Any:
            if request["table"] == "stuck":
                await release.wait()
            return request["table"]

        b.handler = slow
        with pytest.raises(HallError) as silent:
            await a.ask("b", {"op": "send", "table": "stuck"})
        assert unreachable(silent) == (
            "the process that holds the table did not answer within 0.2 s: try again"
        )
        release.set()  # the late answer comes back now, to a request nobody waits for
        for _ in range(5):
            assert await a.ask("b", {"op": "send", "table": "t1"}) == "t1"


async def test_answers_out_of_order_each_reach_their_own_request(redis_prefix: str) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):
        gates = {f"t{i}": asyncio.Event() for i in range(4)}
        serving: list[str] = []

        async def in_turn(request: dict[str, Any]) -> Any:
            serving.append(request["table"])
            await gates[request["table"]].wait()
            return request["table"]

        b.handler = in_turn
        asked = {t: asyncio.create_task(a.ask("b", {"table": t})) for t in gates}
        for _ in range(500):  # until b serves all four at once
            if len(serving) == len(gates):
                break
            await asyncio.sleep(0.01)
        for table_id in reversed(gates):  # the last asked answered first
            gates[table_id].set()
            assert await asked[table_id] == table_id
            assert not any(asked[t].done() for t in gates if t < table_id)


async def test_a_message_that_is_not_json_is_skipped(redis_prefix: str) -> None:
    async with started(redis_prefix, "a", "b") as (a, b):

        async def echo(request: dict[str, Any]) -> Any:
            return request["table"]

        b.handler = echo
        client = redis.Redis.from_url(REDIS_URL)
        try:
            assert await client.publish(b.requests_channel("b"), b"{not json") == 1
            assert await client.publish(a.reply_channel("a"), b"\xff") == 1
        finally:
            await client.aclose()
        assert await a.ask("b", {"table": "t1"}) == "t1"


async def test_without_redis_a_request_fails_saying_so() -> None:
    link = OwnerLink("redis://127.0.0.1:1/0", prefix="test:", process_id="a")  # nothing there
    try:
        with pytest.raises(HallError) as cut_off:
            await link.ask("b", {"table": "t1"})
        assert unreachable(cut_off).startswith("the process that holds the table cannot be asked (")
    finally:
        await link.close()


async def test_the_processes_that_play_tables_are_those_listening_as_players(
    redis_prefix: str,
) -> None:
    # A prefix with a pattern's characters in it matches itself only.
    prefix = redis_prefix + "[a*]?"
    async with started(prefix, "a", "b") as (a, b):
        sockets = OwnerLink(REDIS_URL, prefix=prefix, process_id="s", plays=False)
        other_hall = OwnerLink(REDIS_URL, prefix=redis_prefix + "x", process_id="c")
        await sockets.start()
        await other_hall.start()
        try:
            assert await sockets.players() == ["a", "b"]
            await b.close()  # gone: no longer counted, with nothing left to expire
            assert await sockets.players() == ["a"]
            assert await a.players() == ["a"]
        finally:
            await sockets.close()
            await other_hall.close()
