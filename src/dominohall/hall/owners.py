"""``TableOwner`` for a hall on several processes: a command runs where its table is held.

Each table is held by one process at a time (its lease: ``ownership.py``). Asked here:

- held here: the command runs on this process's ``CommandPath``, as on one process;
- held, and alive, elsewhere: the command goes to that process over Redis (``owner_link.py``),
  which runs it on its own path and answers once it is committed (so an ``on_commit`` here is
  still called only after the commit); its refusal comes back as the same ``HallError``;
- held by nobody alive (its process died, and no other has taken it over yet): it is taken over
  here at once, resumed, and the command runs here.

The table after a command, and ``table``, are read off the owner from the shared event log:
every commit an answer reports is in it (a non-owner keeps no copy of a table that could go
stale). ``view`` is the owner's, since it knows who is connected there; and a seat's first
socket or last on any process is told to the owner (``seats_changed``), who reads the seat
board again (``presence.py``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from ..store import Store
from .clock import Clock
from .command_path import CommandPath, OnCommit
from .command_wire import decode_command, decode_seen, encode_command, encode_seen
from .commands import Command, Open
from .errors import HallError
from .owner_link import OwnerLink, unreachable
from .ownership import Ownership
from .table import TableState
from .table_feed import Seen

ROUTES = 3  # tries to find a table's owner (it may move, or be taken, while we look)


class Owners:
    """The tables' owners across processes, seen from this one."""

    def __init__(
        self,
        path: CommandPath,
        ownership: Ownership,
        link: OwnerLink,
        *,
        store: Store,
        clock: Clock,
    ) -> None:
        self.path = path
        self.ownership = ownership
        self.link = link
        self.store = store
        self.clock = clock
        # The owner's look at the seats with a socket (``Presence.recount``, set by the hall).
        self.recount: Callable[[str], Awaitable[None]] | None = None
        link.handler = self._answer

    async def open(self, table_id: str, command: Open) -> TableState:
        return await self.path.open(table_id, command)  # leased here, by the path

    async def send(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> TableState:
        for attempt in range(ROUTES):
            owner = await self.owner_of(table_id)
            try:
                if owner is None:
                    return await self.path.send(table_id, command, on_commit, settle=settle)
                request = {
                    "op": "send",
                    "table": table_id,
                    "command": encode_command(command),
                    "settle": settle,
                }
                version = await self.link.ask(owner, request)
            except HallError as error:
                # The table moved between the look and the command (nothing was written):
                # look again.
                if error.code != "not_owner" or attempt == ROUTES - 1:
                    raise
                continue
            if on_commit is not None:
                on_commit(int(version))
            return await self.replayed(table_id)
        raise unreachable("kept moving")  # (not reached: the last attempt raises)

    async def table(self, table_id: str) -> TableState:
        if self.ownership.holds(table_id):
            return await self.path.table(table_id)
        return await self.replayed(table_id)

    async def view(self, table_id: str, player: str | None, since: int | None) -> Seen:
        owner = await self.owner_of(table_id)
        if owner is None:
            return await self.path.view(table_id, player, since)
        request = {"op": "view", "table": table_id, "player": player, "since": since}
        return decode_seen(await self.link.ask(owner, request))

    async def seats_changed(self, table_id: str) -> None:
        """A seat of the table has its first socket on this process, or lost its last: its
        owner looks at the seat board again."""
        for attempt in range(ROUTES):
            owner = await self.owner_of(table_id)
            if owner is None:
                if self.recount is not None:
                    await self.recount(table_id)
                return
            try:
                await self.link.ask(owner, {"op": "seats", "table": table_id})
                return
            except HallError as error:
                if error.code != "not_owner" or attempt == ROUTES - 1:
                    raise  # (not_owner: the table moved while we looked; look again)

    async def owner_of(self, table_id: str) -> str | None:
        """The process that holds the table (None: this one, taking it over if nobody alive
        holds it); HallError ``no_table`` when there is no such table."""
        for _ in range(ROUTES):
            if self.ownership.holds(table_id):
                return None
            holder = await self.ownership.leases.holder(table_id)
            mine = self.ownership.process_id
            if holder is not None and holder.owner != mine and self.clock.now() < holder.expires_at:
                return holder.owner
            await self.replayed(table_id)  # no_table before a lease is made for a wrong id
            if await self.ownership.take_over(table_id):
                return None
        raise unreachable("could not be found")

    async def replayed(self, table_id: str) -> TableState:
        """The table as its log has it now."""
        events = await self.store.events(table_id) if len(table_id) <= 32 else []
        if not events:
            raise HallError("no_table", f"there is no table {table_id!r}")
        return TableState.replay(table_id, events)

    async def _answer(self, request: dict[str, Any]) -> Any:
        """A request from another process for a table held here."""
        table_id = request["table"]
        if not self.ownership.holds(table_id):
            raise HallError("not_owner", f"table {table_id} is not held by this process")
        if request["op"] == "send":
            command = decode_command(request["command"])
            # The version the command was committed at, as an ack names it; not the table's
            # after what followed (a deal after the last Next hand), which has versions of its own.
            committed: list[int] = []
            state = await self.path.send(
                table_id, command, committed.append, settle=bool(request["settle"])
            )
            return committed[0] if committed else state.version
        if request["op"] == "view":
            seen = await self.path.view(table_id, request["player"], request["since"])
            return encode_seen(seen)
        if request["op"] == "seats":
            if self.recount is not None:
                await self.recount(table_id)
            return None
        raise HallError("bad_request", f"no such request: {request['op']!r}")
