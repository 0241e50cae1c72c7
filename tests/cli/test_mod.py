"""``dominohall mod`` on SQLite and PostgreSQL: operators set from the command line only, the
reports with the chat around a reported line, time-outs, bans (sessions ended with them),
unbans, name resets (a guest's by its id), closing reports, the log; clear errors that change
nothing."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest
from click.testing import CliRunner, Result

from dominohall.cli.main import main
from dominohall.store import Store
from dominohall.store.chat import Room
from dominohall.store.store import StoredPlayer

T = TypeVar("T")


def _on(url: str, work: Callable[[Store], Awaitable[T]]) -> T:
    async def run() -> T:
        store = await Store.open(url)
        try:
            return await work(store)
        finally:
            await store.close()

    return asyncio.run(run())


def mod(url: str, *args: str) -> Result:
    return CliRunner().invoke(main, ["mod", *args, "--database-url", url])


@pytest.fixture
def hall(database_url: str) -> str:
    async def seed(store: Store) -> None:
        await store.add_player(StoredPlayer("p-op", "Olga", "olga", "hash"))
        await store.add_player(StoredPlayer("p-ann", "Ann", "ann", "hash"))
        await store.add_player(StoredPlayer("p-rude", "Rude Name", None, None))  # a guest
        now = time.time()
        await store.add_session("s-rude", "p-rude", now, now + 3600)
        await store.chat.add("t1", Room.PLAYERS, "p-ann", now, text="hello")
        line = await store.chat.add("t1", Room.PLAYERS, "p-rude", now, text="something vile")
        await store.chat.add("t1", Room.PLAYERS, "p-ann", now, text="please stop")
        await store.moderation.report("p-ann", "p-rude", "insults", now, line_id=line.id)

    _on(database_url, seed)
    return database_url


def test_operators_are_set_by_the_command_line(hall: str) -> None:
    assert mod(hall, "operators", "list").output == "No operators.\n"
    refused = mod(hall, "timeout", "p-rude", "--reason", "vile", "--by", "olga")
    assert refused.exit_code == 1 and "'olga' is not an operator" in refused.output
    added = mod(hall, "operators", "add", "olga")
    assert added.exit_code == 0, added.output
    assert mod(hall, "operators", "list").output == "Olga (@olga)\n"
    guest = mod(hall, "operators", "add", "p-rude")
    assert guest.exit_code == 1 and "a guest cannot be an operator" in guest.output
    unknown = mod(hall, "operators", "add", "nobody")
    assert unknown.exit_code == 1 and "no player has the username or id 'nobody'" in unknown.output
    assert mod(hall, "operators", "remove", "olga").exit_code == 0
    assert mod(hall, "operators", "list").output == "No operators.\n"


def test_reports_context_time_out_ban_rename_close_and_the_log(hall: str) -> None:
    assert mod(hall, "operators", "add", "olga").exit_code == 0
    listed = mod(hall, "reports")
    assert listed.exit_code == 0, listed.output
    assert "Ann (@ann) reported Rude Name (p-rude)" in listed.output and "insults" in listed.output
    report_id = listed.output.split()[0].lstrip("#")

    around = mod(hall, "context", report_id)
    lines = around.output.splitlines()
    assert [line[0] for line in lines[1:]] == [" ", ">", " "]
    assert "Rude Name: something vile" in lines[2] and "Ann: please stop" in lines[3]

    timed = mod(hall, "timeout", "p-rude", "--minutes", "30", "--reason", "vile", "--by", "olga")
    assert timed.exit_code == 0 and "out of every chat until" in timed.output

    banned = mod(
        hall, "ban", "p-rude", "--address", "203.0.113.7", "--reason", "again", "--by", "olga"
    )
    assert banned.exit_code == 0, banned.output
    assert "203.0.113.7 banned" in banned.output
    again = mod(hall, "ban", "p-rude", "--reason", "again", "--by", "olga")
    assert again.exit_code == 1 and "banned already" in again.output

    async def after_ban(store: Store) -> tuple[object, object, object]:
        return (
            await store.session("s-rude", time.time()),  # the ban ended its sessions
            await store.moderation.banned("p-rude"),
            await store.moderation.banned_address("203.0.113.7"),
        )

    session, ban, address = _on(hall, after_ban)
    assert session is None and ban is not None and address is not None

    renamed = mod(hall, "rename", "p-rude", "Player 7", "--reason", "offensive", "--by", "olga")
    assert renamed.exit_code == 0 and "is now named 'Player 7'" in renamed.output
    bad_name = mod(hall, "rename", "p-rude", "", "--reason", "offensive", "--by", "olga")
    assert bad_name.exit_code == 1 and "a name has" in bad_name.output

    assert mod(hall, "unban", "p-rude", "--reason", "served", "--by", "olga").exit_code == 0
    not_banned = mod(hall, "unban", "p-rude", "--reason", "served", "--by", "olga")
    assert not_banned.exit_code == 1 and "is not banned" in not_banned.output
    assert _on(hall, lambda s: s.moderation.banned_address("203.0.113.7")) is None

    closed = mod(hall, "close-report", report_id, "--reason", "dealt with", "--by", "olga")
    assert closed.exit_code == 0
    twice = mod(hall, "close-report", report_id, "--reason", "dealt with", "--by", "olga")
    assert twice.exit_code == 1 and f"no open report has the id {report_id}" in twice.output
    assert mod(hall, "reports").output == "No open reports.\n"

    logged = mod(hall, "log").output.splitlines()
    actions = [line.split(" UTC ")[1].split()[2] for line in logged]
    assert actions == ["close_report", "unban", "rename", "ban", "time_out", "add_operator"]
    assert "Olga (@olga) ban Player 7 (p-rude)" in logged[3] and logged[3].endswith(": again")


def test_bad_input_changes_nothing(hall: str) -> None:
    assert mod(hall, "operators", "add", "olga").exit_code == 0
    nobody = mod(hall, "ban", "nobody", "--reason", "x", "--by", "olga")
    assert nobody.exit_code == 1 and "no player has the username or id 'nobody'" in nobody.output
    no_reason = mod(hall, "timeout", "ann", "--reason", "  ", "--by", "olga")
    assert no_reason.exit_code == 1 and "say why in 1 to 500 characters" in no_reason.output
    missing = mod(hall, "timeout", "ann", "--reason", "x")
    assert missing.exit_code == 2 and "--by" in missing.output
    assert len(mod(hall, "log").output.splitlines()) == 1  # the operator added, nothing else


def test_a_ban_with_the_addresses_the_account_signed_in_from(hall: str) -> None:
    assert mod(hall, "operators", "add", "olga").exit_code == 0

    async def seen(store: Store) -> None:
        now = time.time()
        await store.addresses.saw("p-ann", "198.51.100.7", now - 60, forget_before=0.0)
        await store.addresses.saw("p-ann", "192.0.2.1", now - 40 * 86400, forget_before=0.0)

    _on(hall, seen)
    banned = mod(hall, "ban", "ann", "--with-addresses", "--reason", "spam", "--by", "olga")
    assert banned.exit_code == 0, banned.output
    assert "Ann (@ann) and 198.51.100.7 banned" in banned.output  # not the one 40 days old
