"""``dominohall backup`` while a live hall plays: the copy is consistent, replays, and restores."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from dominohall.cli.backup import backup
from dominohall.hall.table import TableState
from web.live import LiveServer, Player

pytestmark = pytest.mark.timeout(180)
CLI = Path(sys.executable).with_name("dominohall")


def events_by_table(db: Path) -> dict[str, list[tuple[int, float, str]]]:
    found: dict[str, list[tuple[int, float, str]]] = {}
    with sqlite3.connect(db) as conn:
        for table_id, *event in conn.execute(
            "SELECT table_id, version, at, body FROM events ORDER BY table_id, version"
        ):
            found.setdefault(table_id, []).append(tuple(event))
    return found


async def play_all(players: list[Player]) -> None:
    await asyncio.gather(*(p.play() for p in players))


def test_a_backup_taken_while_the_hall_plays_is_a_snapshot_whose_tables_replay(tmp_path):
    hall_data = tmp_path / "hall"
    hall_data.mkdir()
    server = LiveServer(hall_data)
    server.start()
    copies: list[Path] = []
    try:
        cookie = server.guest("Ann")
        tables = [
            server.post(cookie, "/api/play-with-bots", {"preset": "draw"})["table"]["id"]
            for _ in range(4)
        ]
        players = [Player(server.ws_url(t), cookie) for t in tables]
        games = threading.Thread(target=lambda: asyncio.run(play_all(players)))
        games.start()
        while games.is_alive() or len(copies) < 2:
            copy = tmp_path / f"copy-{len(copies)}.db"
            done = CliRunner().invoke(backup, ["--data", str(hall_data), "--to", str(copy)])
            assert done.exit_code == 0, done.output
            copies.append(copy)
            time.sleep(0.1)
        games.join()
        # The command itself, as an operator runs it.
        done = subprocess.run(
            [str(CLI), "backup", "--data", str(hall_data), "--to", str(tmp_path / "last.db")],
            capture_output=True,
            text=True,
        )
        assert done.returncode == 0, done.stderr
        assert "Copied" in done.stdout and "events" in done.stdout
        copies.append(tmp_path / "last.db")
    finally:
        server.stop()
    assert all(p.views[-1]["game"] for p in players)  # every game played out
    final = events_by_table(hall_data / "dominohall.db")
    total = sum(map(len, final.values()))
    sizes = [sum(map(len, events_by_table(c).values())) for c in copies]
    assert min(sizes) < total, "no copy was taken while the games were played"
    for copy in copies:
        with sqlite3.connect(copy) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
        assert not Path(f"{copy}-wal").exists()
        for table_id, events in events_by_table(copy).items():
            assert events == final[table_id][: len(events)]  # each table's log, up to a moment
            state = TableState.replay(
                table_id, [(v, at, json.loads(body)) for v, at, body in events]
            )
            assert state.version == len(events)

    # Restore the copy taken while the games were played, as the README says, and start.
    restored = tmp_path / "restored"
    restored.mkdir()
    shutil.copy(hall_data / "secret", restored / "secret")
    mid_game = copies[sizes.index(min(sizes))]
    shutil.copy(mid_game, restored / "dominohall.db")
    again = LiveServer(restored)
    again.start()  # waits for /healthz: every table replayed from the copy
    try:
        for table_id in tables:
            answer = httpx.get(f"{again.base}/api/tables/{table_id}")
            assert answer.status_code == 200, answer.text
            assert answer.json()["table"]["phase"] in ("playing", "between_hands", "finished")
    finally:
        again.stop()


def test_backup_takes_a_database_url_and_refuses_what_it_cannot_copy(tmp_path):
    runner = CliRunner()
    with sqlite3.connect(tmp_path / "other.db") as conn:
        conn.execute("CREATE TABLE events (x)")
        conn.execute("INSERT INTO events VALUES (1)")
    url = f"sqlite+aiosqlite:///{tmp_path / 'other.db'}"
    result = runner.invoke(backup, ["--database", url, "--to", str(tmp_path / "copy.db")])
    assert result.exit_code == 0 and "1 events" in result.output, result.output
    with sqlite3.connect(tmp_path / "copy.db") as conn:
        assert conn.execute("SELECT x FROM events").fetchall() == [(1,)]
    (tmp_path / "taken.db").write_text("")
    result = runner.invoke(backup, ["--data", str(tmp_path), "--to", str(tmp_path / "taken.db")])
    assert result.exit_code == 1 and "exists" in result.output
    result = runner.invoke(backup, ["--data", str(tmp_path), "--to", str(tmp_path / "new.db")])
    assert result.exit_code == 1 and "no database" in result.output
    url = "postgresql+asyncpg://hall@127.0.0.1/hall"
    result = runner.invoke(backup, ["--database-url", url, "--to", str(tmp_path / "new.db")])
    assert result.exit_code == 1 and "pg_dump" in result.output
    assert not (tmp_path / "new.db").exists()
