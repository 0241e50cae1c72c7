"""The app as made and run: what stops it being made, what its start and stop open and close."""

from __future__ import annotations

import asyncio
import gc
import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis.asyncio as redis
from starlette.applications import Starlette
from starlette.testclient import TestClient

from dominohall.hall import ManualClock
from dominohall.web import app as app_module
from dominohall.web import create_app
from dominohall.web.redis_buckets import RedisBuckets
from redis_service import REDIS_URL


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def made(tmp_path: Path, **options: Any) -> Starlette:
    """The app on a SQLite database in ``tmp_path``, on a hand-driven clock unless given one."""
    settings: dict[str, Any] = {
        "clock": ManualClock(),
        "bot_delay": 0,
        "rng": random.Random(1),
        "heartbeat": False,
        **options,
    }
    return create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", data=tmp_path, **settings
    )


def test_a_secret_file_that_holds_no_secret_stops_the_app_being_made(tmp_path: Path) -> None:
    short = tmp_path / "short"
    short.write_text("hunter2")
    with pytest.raises(ValueError, match=f"^the secret file {short} holds 7 characters: "):
        made(tmp_path / "data", secret_file=short)
    with pytest.raises(ValueError, match=f"^the secret file {tmp_path / 'none'} cannot be read"):
        made(tmp_path / "data", secret_file=tmp_path / "none")
    assert not (tmp_path / "data").exists()  # no secret made, no database opened


@pytest.mark.anyio
async def test_the_hall_opens_with_the_app_and_all_it_started_stops_with_it(
    tmp_path: Path,
) -> None:
    app = made(tmp_path)
    assert not hasattr(app.state, "hall")  # made, not started: nothing opened yet
    tasks, thresholds = asyncio.all_tasks(), gc.get_threshold()
    async with app.router.lifespan_context(app):
        hall = app.state.hall
        assert hall.ready
        for service in ("accounts", "chat", "matchmaker", "indexer", "mail_links"):
            assert getattr(app.state, service) is not None, service
        assert app.state.email is None  # no mail settings: no email
        assert len(asyncio.all_tasks() - tasks) >= 2  # the clean-up and the collector, at least
    assert not hall.ready
    assert asyncio.all_tasks() == tasks  # nothing it started runs on
    assert gc.get_threshold() == thresholds


def test_health_says_whether_the_hall_is_ready(tmp_path: Path) -> None:
    with TestClient(made(tmp_path)) as client:
        answer = client.get("/healthz")
        assert (answer.status_code, answer.json()) == (200, {"ok": True})
        client.app.state.hall.ready = False  # type: ignore[attr-defined]  # (as while it stops)
        answer = client.get("/healthz")
        assert (answer.status_code, answer.json()) == (503, {"ok": False})


def test_a_body_larger_than_64_kib_is_refused_unread(tmp_path: Path) -> None:
    headers = {"Content-Type": "application/json"}
    body = b'{"name": "Ann", "pad": "' + b"x" * (64 * 1024) + b'"}'
    with TestClient(made(tmp_path)) as client:
        assert client.post("/api/guest", content=body, headers=headers).status_code == 413
        fits = b'{"name": "Ann", "pad": "' + b"x" * (60 * 1024) + b'"}'
        assert client.post("/api/guest", content=fits, headers=headers).status_code == 200


def test_idle_guests_are_forgotten_by_the_app_s_clean_up_round(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(app_module, "CLEAN_UP_EVERY", 0.02)  # real seconds between rounds
    clock = ManualClock()
    app = made(tmp_path, clock=clock, session_lifetime=600, guest_lifetime=600)
    with TestClient(app) as client:
        ann = client.post("/api/guest", json={"name": "Ann"}).json()["player"]["id"]
        client.cookies.clear()
        portal: Any = client.portal

        def known() -> bool:
            return portal.call(app.state.accounts.player, ann) is not None

        time.sleep(0.1)  # rounds come and go: Ann is not idle yet
        assert known()
        portal.call(clock.advance, 601)  # her session ends, and she has been away too long
        for _ in range(500):
            if not known():
                break
            time.sleep(0.01)
        assert not known()


@pytest.mark.anyio
async def test_with_redis_the_rate_limits_are_kept_in_redis(
    tmp_path: Path, redis_prefix: str
) -> None:
    app = made(tmp_path, redis_url=REDIS_URL, redis_prefix=redis_prefix)
    async with app.router.lifespan_context(app):
        assert isinstance(app.state.guard.tables, RedisBuckets)
        assert isinstance(app.state.chat.limit, RedisBuckets)  # the chat's too, per player
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app), base_url="http://testserver"
        ) as client:
            guest = await client.post("/api/guest", json={"name": "Ann"})
            assert guest.status_code == 200, guest.text
            table = await client.post("/api/tables", json={"seats": 2})
            assert table.status_code == 200, table.text
    kept = redis.Redis.from_url(REDIS_URL)
    try:  # the bucket of the address's tables
        assert [key async for key in kept.scan_iter(match=f"{redis_prefix}*tables*")]
    finally:
        await kept.aclose()
