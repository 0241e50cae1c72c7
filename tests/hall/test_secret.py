"""Where the hall's secret comes from: a secret file, the database (PostgreSQL), the data folder."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from dominohall.hall.secret import (
    database_secret,
    kept_in_database,
    load_secret,
    read_secret_file,
    secret_at_hand,
)
from dominohall.store import Store

POSTGRES = "postgresql+asyncpg://postgres@127.0.0.1:5432/hall"
SQLITE = "sqlite+aiosqlite:///hall.db"


def test_the_data_folder_makes_its_secret_once_and_keeps_it(tmp_path: Path) -> None:
    folder = tmp_path / "not" / "made" / "yet"
    secret = load_secret(folder)
    assert len(secret) >= 32 and load_secret(folder) == secret
    path = folder / "secret"
    assert path.read_text() == secret
    assert stat.S_IMODE(path.stat().st_mode) & 0o077 == 0  # for its owner's eyes only
    assert load_secret(tmp_path / "elsewhere") != secret


def test_a_secret_written_by_hand_is_read_without_its_spaces(tmp_path: Path) -> None:
    (tmp_path / "secret").write_text("  an operator's secret \n")
    assert load_secret(tmp_path) == "an operator's secret"


def test_an_empty_secret_file_left_by_a_start_cut_short_is_made_again(tmp_path: Path) -> None:
    # The file is made, then written: a start stopped in between leaves it empty, and an empty
    # secret would sign cookies and email links that anyone can make.
    (tmp_path / "secret").write_text("\n")
    secret = load_secret(tmp_path)
    assert len(secret) >= 32 and load_secret(tmp_path) == secret


def test_a_secret_file_is_refused_with_what_is_wrong_with_it(tmp_path: Path) -> None:
    short, missing, good = tmp_path / "short", tmp_path / "missing", tmp_path / "good"
    short.write_text("hunter2\n")
    good.write_text("s" * 32 + "\n")
    with pytest.raises(ValueError) as refused:
        read_secret_file(short)
    assert str(refused.value) == (
        f"the secret file {short} holds 7 characters: a secret is at least 32 (make one with: "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(48))')"
    )
    with pytest.raises(ValueError, match="cannot be read: No such file or directory$"):
        read_secret_file(missing)
    with pytest.raises(ValueError, match="cannot be read: Is a directory$"):
        read_secret_file(tmp_path)
    assert read_secret_file(good) == "s" * 32


def test_only_postgresql_keeps_the_secret() -> None:
    assert kept_in_database(POSTGRES)
    assert kept_in_database("postgresql://postgres@db/hall")
    assert not kept_in_database(SQLITE)
    assert not kept_in_database("sqlite+aiosqlite://")


def test_a_secret_file_comes_first_then_the_database_then_the_data_folder(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.write_text("f" * 40)
    data = tmp_path / "data"
    assert secret_at_hand(POSTGRES, data, shared) == "f" * 40
    assert secret_at_hand(SQLITE, data, shared) == "f" * 40
    assert secret_at_hand(POSTGRES, data, None) is None  # the database's, once it is open
    assert not data.exists()  # nothing made in the folder so far
    assert secret_at_hand(SQLITE, data, None) == (data / "secret").read_text()


@pytest.mark.anyio
async def test_the_first_to_ask_the_database_makes_the_secret_for_all(
    database_url: str, tmp_path: Path
) -> None:
    old, other = tmp_path / "old", tmp_path / "other"
    old.mkdir()
    other.mkdir()
    (old / "secret").write_text("an older hall's secret, kept in its data folder\n")
    (other / "secret").write_text("another data folder's secret, asked later")
    store, again = await Store.open(database_url), await Store.open(database_url)
    try:
        # A data folder's older secret is taken (its cookies and links still good) ...
        first = await database_secret(store, old)
        assert first == "an older hall's secret, kept in its data folder"
        # ... only by the first to ask: every later one, wherever, reads the one stored.
        assert await database_secret(again, other) == first
        assert await database_secret(again, None) == first
        assert await store.meta("secret") == first
    finally:
        await store.close()
        await again.close()


@pytest.mark.anyio
async def test_with_no_older_secret_the_database_makes_a_new_one(database_url: str) -> None:
    store = await Store.open(database_url)
    try:
        made = await database_secret(store, None)
        assert len(made) >= 32 and await database_secret(store, None) == made
    finally:
        await store.close()
