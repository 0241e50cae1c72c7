"""Chat and moderation on two processes (PostgreSQL + Redis; docs/moderation.md): a line said
through process A reaches a reader whose socket is on process B; a mute made through A holds
back the muted player's lines from the muter's socket on B at once (no new hello); the chat's
rate limit per player is one for both processes; an operator's time-out given through A reaches
the player's socket on B (as B's follower of the moderation log reads it: made to, for the
order) and refuses their lines on both."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from dominohall.hall import ManualClock
from dominohall.web import create_app
from dominohall.web.ratelimit import Limit, Limits
from redis_service import REDIS_URL

from .conftest import Guest, Hall
from .test_chat_socket import account, opened, settled
from .test_moderation import follow, operator, player_id
from .test_ratelimit import redis_prefix

__all__ = ["redis_prefix"]  # (a fixture: the test's own keys, for a test run outside anyio)

pytestmark = [pytest.mark.postgresql, pytest.mark.timeout(60)]


@pytest.fixture
def two(tmp_path: Path, postgres_database: str, redis_prefix: str) -> Iterator[tuple[Hall, Hall]]:
    def process(name: str) -> Hall:
        clock = ManualClock()
        app = create_app(
            database_url=postgres_database,
            data=tmp_path / name,
            clock=clock,
            bot_delay=0,
            heartbeat=False,
            limits=Limits(chat_per_player=Limit(3, 60)),
            redis_url=REDIS_URL,
            redis_prefix=redis_prefix,
        )
        return Hall(TestClient(app), clock)

    a, b = process("a"), process("b")
    with a.client, b.client:
        yield a, b


def on(hall: Hall, guest: Guest) -> Guest:
    """The same player (their cookie) through another process."""
    return Guest(hall.client, guest.cookie)


def until(check: Callable[[], bool], what: str) -> None:
    """Another process's part, done in the background: waited for, a bounded while."""
    for _ in range(500):
        if check():
            return
        time.sleep(0.01)
    raise AssertionError(f"not seen: {what}")


def said(ws: Any) -> str:
    """The next chat line's text (or refusal's code) the socket gets: a line said through the
    other process comes over Redis, after the socket's own answers, so it is waited for."""
    while (message := ws.receive_json())["type"] not in ("chat", "error"):
        pass
    return str(message.get("text") or message.get("code"))


def test_chat_mute_rate_limit_and_time_out_across_two_processes(two: tuple[Hall, Hall]) -> None:
    a, b = two
    ann, bob = account(a, "ann"), account(a, "bob")
    olga = operator(a, "olga")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/start")
    with (
        ann.socket(tid) as ann_a,
        bob.socket(tid) as bob_a,
        on(b, bob).socket(tid) as bob_b,
        on(b, ann).socket(tid) as ann_b,
    ):
        for ws in (ann_a, bob_a, bob_b, ann_b):
            opened(ws)
        # Said through A, read on B (and by the sayer on A).
        ann_a.send_json({"type": "chat", "room": "players", "text": "hello from A"})
        assert {said(ws) for ws in (ann_a, bob_a, bob_b, ann_b)} == {"hello from A"}

        # Bob mutes Ann through A: his socket on B holds back her lines from now on, with no new
        # hello. (His next line, said through A after hers, comes after it on B's channel.)
        assert bob.post("/api/players/ann/mute").json() == {"username": "ann", "muted": True}
        chat_b: Any = b.client.app.state.chat  # type: ignore[attr-defined]
        ann_id = player_id(ann)
        until(lambda: ann_id in chat_b._readers[player_id(bob)].players, "B reads Bob's mutes")
        ann_a.send_json({"type": "chat", "room": "players", "text": "can you hear me"})
        assert said(ann_a) == "can you hear me"
        bob_a.send_json({"type": "chat", "room": "players", "text": "Bob here"})
        assert said(bob_a) == "Bob here"
        assert said(bob_b) == "Bob here"  # not Ann's line first
        assert said(ann_a) == "Bob here"

        # One rate limit for both processes: Ann's third line (of 3 a minute) through B is her
        # last; read on A.
        ann_b.send_json({"type": "chat", "room": "players", "text": "third", "id": 1})
        assert said(ann_a) == "third"
        ann_b.send_json({"type": "chat", "room": "players", "text": "fourth", "id": 2})
        assert [m["code"] for m in settled(ann_b) if m["type"] == "error"] == ["chat_limited"]

        # A time-out given through A reaches Bob's socket on B, and holds on both processes.
        done = olga.post("/api/mod/time-out", {"player": player_id(bob), "reason": "spam"})
        assert done.status_code == 200, done.text
        follow(b)
        told = [m for m in settled(bob_b) if m["type"] == "chat_timed_out"]
        assert told == [{"type": "chat_timed_out", "until": done.json()["until"], "reason": "spam"}]
        for ws in (bob_b, bob_a):
            ws.send_json({"type": "chat", "room": "players", "text": "still here", "id": 3})
            assert said(ws) == "chat_timed_out"
