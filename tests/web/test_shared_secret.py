"""The hall's secret: one for every process on a PostgreSQL database, the data folder's on SQLite,
or a file named by ``--secret-file``."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import select, update
from starlette.testclient import TestClient

from dominohall.cli.serve import serve
from dominohall.hall import ManualClock
from dominohall.store import Store, schema
from dominohall.web import create_app

from .conftest import Guest


@pytest.fixture
def postgres(postgres_database: str) -> str:
    return postgres_database


def hall_on(url: str, data: Path, **options: object) -> TestClient:
    app = create_app(
        database_url=url,
        data=data,
        clock=ManualClock(),
        bot_delay=0,
        rng=random.Random(1),
        heartbeat=False,
        **options,  # type: ignore[arg-type]
    )
    return TestClient(app)


def stored(client: TestClient, query: object) -> list[tuple[object, ...]]:
    async def go() -> list[tuple[object, ...]]:
        async with client.app.state.hall.store.engine.begin() as conn:  # type: ignore[attr-defined]
            result = await conn.execute(query)
            return list(result.all()) if result.returns_rows else []

    return client.portal.call(go)  # type: ignore[union-attr]


@pytest.mark.postgresql
def test_two_halls_on_one_postgresql_database_read_each_others_links_and_old_cookies(
    postgres: str, tmp_path: Path
) -> None:
    # Two processes on two machines: each its own data folder, one database.
    with hall_on(postgres, tmp_path / "a") as a, hall_on(postgres, tmp_path / "b") as b:
        link = a.app.state.mail_links.confirm("p_ann", "ann@example.org")  # type: ignore[attr-defined]
        token = link.split("token=", 1)[1]
        mail_links = b.app.state.mail_links  # type: ignore[attr-defined]
        assert mail_links.read_confirm(token) == ("p_ann", "ann@example.org")
        unsubscribe = a.app.state.mail_links.unsubscribe("p_ann", "a@b.c")  # type: ignore[attr-defined]
        assert mail_links.read_unsubscribe(unsubscribe.split("token=", 1)[1]) == ("p_ann", "a@b.c")

        # A cookie of the kind given before sessions, signed with the shared secret: either hall
        # exchanges it (here the other one).
        guest = a.post("/api/guest", json={"name": "Ann"})
        ann = guest.json()["player"]["id"]
        players = schema.players
        stored(a, update(players).where(players.c.id == ann).values(legacy_cookie=True))
        [(secret,)] = stored(a, select(schema.meta.c.value).where(schema.meta.c.key == "secret"))
        old = URLSafeTimedSerializer(str(secret), salt="dominohall-player").dumps(ann)
        b.cookies.clear()
        assert Guest(b, old).get("/api/me").json()["player"]["id"] == ann
    assert not (tmp_path / "a" / "secret").exists()  # nothing kept in a data folder


@pytest.mark.postgresql
@pytest.mark.anyio
async def test_halls_starting_at_once_make_one_secret(postgres: str, tmp_path: Path) -> None:
    from dominohall.hall.secret import database_secret

    stores = [await Store.open(postgres) for _ in range(6)]
    try:
        secrets = await asyncio.gather(
            *(database_secret(s, tmp_path / str(i)) for i, s in enumerate(stores))
        )
        assert len(set(secrets)) == 1 and len(secrets[0]) >= 32
        assert await stores[0].meta("secret") == secrets[0]
    finally:
        for store in stores:
            await store.close()


@pytest.mark.postgresql
def test_a_data_folder_s_secret_moves_into_the_database_so_emailed_links_keep_working(
    postgres: str, tmp_path: Path
) -> None:
    from dominohall.hall.mail_links import MailLinks

    data = tmp_path / "data"
    data.mkdir()
    (data / "secret").write_text("an old hall's secret, made in its data folder\n")
    emailed = MailLinks("an old hall's secret, made in its data folder", "").confirm("p", "x@y.z")
    with hall_on(postgres, data) as first, hall_on(postgres, tmp_path / "elsewhere") as second:
        token = emailed.split("token=", 1)[1]
        for hall in (first, second):
            assert hall.app.state.mail_links.read_confirm(token) == ("p", "x@y.z")  # type: ignore[attr-defined]


def test_on_sqlite_the_data_folder_keeps_the_secret_as_before(tmp_path: Path) -> None:
    from dominohall.hall.mail_links import MailLinks

    (tmp_path / "secret").write_text("the data folder's secret, made by an older hall")
    emailed = MailLinks("the data folder's secret, made by an older hall", "").unsubscribe("p", "a")
    with hall_on(f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}", tmp_path) as hall:
        links = hall.app.state.mail_links  # type: ignore[attr-defined]
        assert links.read_unsubscribe(emailed.split("token=", 1)[1]) == ("p", "a")
        assert stored(hall, select(schema.meta).where(schema.meta.c.key == "secret")) == []


@pytest.mark.postgresql
def test_a_secret_file_is_every_process_s_secret_wherever_the_database(
    postgres: str, tmp_path: Path
) -> None:
    from dominohall.hall.mail_links import MailLinks

    shared = tmp_path / "hall-secret"
    shared.write_text("x" * 40 + "\n")
    emailed = MailLinks("x" * 40, "").confirm("p", "x@y.z").split("token=", 1)[1]
    sqlite = f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}"
    for url in (postgres, sqlite):
        with hall_on(url, tmp_path / "data", secret_file=shared) as hall:
            assert hall.app.state.mail_links.read_confirm(emailed) == ("p", "x@y.z")  # type: ignore[attr-defined]
    assert not (tmp_path / "data" / "secret").exists()


def test_serve_refuses_a_secret_file_that_holds_no_secret(tmp_path: Path) -> None:
    short = tmp_path / "short"
    short.write_text("hunter2\n")
    result = CliRunner().invoke(serve, ["--data", str(tmp_path), "--secret-file", str(short)])
    assert result.exit_code == 2
    assert f"the secret file {short} holds 7 characters: a secret is at least 32" in result.output
    missing = tmp_path / "missing"
    env = {"DOMINOHALL_SECRET_FILE": str(missing)}
    result = CliRunner().invoke(serve, ["--data", str(tmp_path)], env=env)
    assert result.exit_code == 2 and f"the secret file {missing} cannot be read" in result.output
