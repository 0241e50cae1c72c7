"""A whole game through nginx in front of the hall, configured as docs/deploy.md tells an
operator: the page, the API and both sockets (the table's and the player's own) through the
proxy, and the hall told the client's address by it."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from loadbalancer import LoadBalancer, nginx_available

from .conftest import DESKTOP, Hall
from .players import Person, start_table
from .test_games import check_game_over


@pytest.fixture
def behind_nginx(tmp_path: Path) -> Iterator[LoadBalancer]:
    if not nginx_available():
        pytest.skip("no nginx (Debian's package; `make test` installs it)")
    (tmp_path / "hall").mkdir()
    (tmp_path / "nginx").mkdir()
    hall = Hall(tmp_path / "hall", extra=("--trusted-proxy", "127.0.0.1"))
    hall.start()
    balancer = LoadBalancer(tmp_path / "nginx", [hall.port])
    try:
        balancer.start()
        yield balancer
    finally:
        balancer.stop()
        hall.stop()


def test_a_whole_game_through_nginx(behind_nginx: LoadBalancer, browser: Any) -> None:
    context = browser.new_context(viewport=DESKTOP)
    sockets: list[str] = []
    person = Person.open(context, behind_nginx.url)
    person.page.on("websocket", lambda ws: sockets.append(ws.url))  # (the sign-in opens them)
    person.sign_in("Ann")
    start_table(person, "block", 50)
    person.play_game()
    check_game_over(person)
    assert person.errors == []
    proxied = f"ws://127.0.0.1:{behind_nginx.port}/"
    assert any("/ws/me" in url for url in sockets), sockets  # the player's own socket
    assert sockets and all(url.startswith(proxied) for url in sockets)
    answer = person.page.request.get(behind_nginx.url + "/api/me/tables")
    assert answer.ok and json.loads(answer.text())["tables"] == []  # the game is over
    context.close()
    assert "[error]" not in behind_nginx.errors()
