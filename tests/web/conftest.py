"""A hall app under Starlette's test client, on a hand-driven clock, with players as cookies."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient

from dominohall.hall import ManualClock
from dominohall.web import create_app
from hall.helpers import idle


class Guest:
    """A signed-in player: every request carries its own cookie."""

    def __init__(self, client: TestClient, cookie: str) -> None:
        self.client = client
        self.cookie = cookie

    @property
    def headers(self) -> dict[str, str]:
        return {"Cookie": f"dominohall={self.cookie}"}

    def post(self, path: str, body: Any = None) -> Any:
        answer = self.client.post(path, json=body if body is not None else {}, headers=self.headers)
        self.client.cookies.clear()
        return answer

    def get(self, path: str) -> Any:
        answer = self.client.get(path, headers=self.headers)
        self.client.cookies.clear()
        return answer

    def socket(self, table_id: str) -> Any:
        return self.client.websocket_connect(f"/ws/tables/{table_id}", headers=self.headers)


class Hall:
    def __init__(self, client: TestClient, clock: ManualClock) -> None:
        self.client = client
        self.clock = clock

    def guest(self, name: str) -> Guest:
        answer = self.client.post("/api/guest", json={"name": name})
        assert answer.status_code == 200, answer.text
        cookie = answer.cookies["dominohall"]
        self.client.cookies.clear()
        return Guest(self.client, cookie)

    def advance(self, seconds: float) -> None:
        self.client.portal.call(self.clock.advance, seconds)  # type: ignore[union-attr]

    def idle(self) -> None:
        self.client.portal.call(idle, self.client.app.state.hall)  # type: ignore[union-attr]


def hall_with(tmp_path: Any, **options: Any) -> Iterator[Hall]:
    """A hall on SQLite in ``tmp_path`` and a hand-driven clock, with ``options`` of
    ``create_app`` beside the tests' usual ones (limits, the lobby's pace, ...)."""
    clock = ManualClock()
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=clock,
        bot_delay=0,
        rng=random.Random(3),
        heartbeat=False,
        **options,
    )
    with TestClient(app) as client:
        yield Hall(client, clock)


@pytest.fixture
def hall(tmp_path) -> Iterator[Hall]:
    yield from hall_with(tmp_path)
