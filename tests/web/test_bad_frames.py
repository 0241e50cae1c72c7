"""Frames a client should not send, under the real server (uvicorn, as ``dominohall serve`` runs it)."""

from __future__ import annotations

import logging
import threading
import time

import httpx
import pytest
import uvicorn
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from dominohall.cli.serve import UVICORN_OPTIONS
from dominohall.web import create_app

from .live import free_port

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def served(tmp_path):
    """The hall on uvicorn in this process (so that its log reaches caplog)."""
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", data=tmp_path, heartbeat=False
    )
    port = free_port()
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_config=None, **UVICORN_OPTIONS)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run)
    thread.start()
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        time.sleep(0.02)
    try:
        yield f"127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join()


def table_of(served: str) -> tuple[str, str]:
    """A new table's socket URL, and the cookie of its host."""
    answer = httpx.post(f"http://{served}/api/guest", json={"name": "Ann"})
    cookie = f"dominohall={answer.cookies['dominohall']}"
    table = httpx.post(f"http://{served}/api/tables", json={}, headers={"Cookie": cookie})
    return f"ws://{served}/ws/tables/{table.json()['table']['id']}", cookie


def test_a_message_over_64_kib_closes_the_socket_with_1009(served):
    url, cookie = table_of(served)
    with connect(url, additional_headers={"Cookie": cookie}, max_size=None) as ws:
        ws.send('{"type": "ping", "id": "x"}')
        assert '"pong"' in ws.recv(timeout=10)
        ws.send('{"type": "ping", "pad": "' + "x" * (64 * 1024) + '"}')
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


def test_a_text_frame_that_is_not_utf8_is_closed_with_1007_and_logged_in_one_line(served, caplog):
    url, cookie = table_of(served)
    caplog.set_level(logging.INFO)
    for _ in range(3):
        with connect(url, additional_headers={"Cookie": cookie}) as ws:
            ws.send(b'{"type": "ping", "id": "\xff"}', text=True)
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1007
    said = [r for r in caplog.records if "UTF-8" in r.getMessage()]
    assert len(said) == 3, [r.getMessage() for r in caplog.records]
    for record in said:
        assert record.exc_info is None and record.exc_text is None
        assert record.levelno == logging.WARNING and "\n" not in record.getMessage()
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_refused_cross_site_upgrade_is_a_403_and_no_error_in_the_log(served, caplog):
    url, cookie = table_of(served)
    caplog.set_level(logging.INFO)
    for _ in range(2):
        headers = {"Cookie": cookie, "Origin": "http://elsewhere.example"}
        with pytest.raises(InvalidStatus) as refused, connect(url, additional_headers=headers):
            pass
        assert refused.value.response.status_code == 403
        assert b'"cross_site"' in refused.value.response.body
    with connect(url, additional_headers={"Cookie": cookie}) as ws:  # and a socket still opens
        ws.send('{"type": "ping", "id": "x"}')
        assert '"pong"' in ws.recv(timeout=10)
    assert sum('" 403' in r.getMessage() for r in caplog.records) == 2  # the access lines
    assert not [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
