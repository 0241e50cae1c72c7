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

A process of the socket tier (``Ownership.plays`` False) holds no table: where this process would
take a table over or open a new one, it asks a process of the game tier (``OwnerLink.players``,
one at random) to do it, and sends the table's commands to whichever process then holds it.
"""

from __future__ import annotations

import random
from collections.abc import Awaitable, Callable
from typing import Any

from ..store import Store
from ..store.leases import Lease
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
KNOWN_HOLDERS = 4096  # holders known before the expired ones are dropped


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
        rng: random.Random | None = None,
    ) -> None:
        self.path = path
        self.rng = rng or random.Random()  # which game process a new table goes to
        self.ownership = ownership
        # Each table's holder as last read, until its lease's expiry: a move sent through this
        # process need not read the lease from the database (a holder that has let the table
        # go says not_owner, or cannot be reached: then it is read again).
        self._holders: dict[str, Lease] = {}
        self.link = link
        self.store = store
        self.clock = clock
        # The owner's look at the seats with a socket (``Presence.recount``, set by the hall).
        self.recount: Callable[[str], Awaitable[None]] | None = None
        link.handler = self._answer

    async def open(self, table_id: str, command: Open) -> TableState:
        if self.ownership.plays:
            return await self.path.open(table_id, command)  # leased here, by the path
        request = {"op": "open", "table": table_id, "command": encode_command(command)}
        await self._ask_a_player(request)
        return await self.replayed(table_id)

    async def send(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> TableState:
        ran = await self._route(table_id, command, on_commit, settle)
        return ran if isinstance(ran, TableState) else await self.replayed(table_id)

    async def command(
        self,
        table_id: str,
        command: Command,
        on_commit: OnCommit | None = None,
        *,
        settle: bool = False,
    ) -> int:
        # Sent to another process, the version it was committed at: the table is not replayed
        # from its log here (which cost more than the move itself).
        ran = await self._route(table_id, command, on_commit, settle)
        return ran.version if isinstance(ran, TableState) else ran

    async def _route(
        self, table_id: str, command: Command, on_commit: OnCommit | None, settle: bool
    ) -> TableState | int:
        """Run ``command`` where the table is held: here, the table after it; elsewhere, the
        version the owner answered."""
        for attempt in range(ROUTES):
            known = table_id in self._holders
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
                version = int(await self.link.ask(owner, request))
            except HallError as error:
                # The table moved between the look and the command (nothing was written):
                # look again.
                if not self._moved(table_id, error, known) or attempt == ROUTES - 1:
                    raise
                continue
            if on_commit is not None:
                on_commit(version)
            return version
        raise unreachable("kept moving")  # (not reached: the last attempt raises)

    async def table(self, table_id: str) -> TableState:
        if self.ownership.holds(table_id):
            return await self.path.table(table_id)
        return await self.replayed(table_id)

    def asleep(self, table_id: str) -> bool:
        # (a table held elsewhere: not known here, so never taken as unchanged)
        return self.ownership.holds(table_id) and self.path.asleep(table_id)

    async def view(self, table_id: str, player: str | None, since: int | None = None) -> Seen:
        owner = await self.owner_of(table_id)
        if owner is None:
            return await self.path.view(table_id, player, since)
        request = {"op": "view", "table": table_id, "player": player, "since": since}
        try:
            return decode_seen(await self.link.ask(owner, request))
        except HallError:
            self._holders.pop(table_id, None)  # (looked up again next time)
            raise

    async def seats_changed(self, table_id: str) -> None:
        """A seat of the table has its first socket on this process, or lost its last: its
        owner looks at the seat board again."""
        for attempt in range(ROUTES):
            known = table_id in self._holders
            owner = await self.owner_of(table_id)
            if owner is None:
                if self.recount is not None:
                    await self.recount(table_id)
                return
            try:
                await self.link.ask(owner, {"op": "seats", "table": table_id})
                return
            except HallError as error:
                if not self._moved(table_id, error, known) or attempt == ROUTES - 1:
                    raise  # (the table moved while we looked: look again)

    async def owner_of(self, table_id: str) -> str | None:
        """The process that holds the table (None: this one, taking it over if nobody alive
        holds it); HallError ``no_table`` when there is no such table."""
        for _ in range(ROUTES):
            if self.ownership.holds(table_id):
                return None
            holder = await self._holder(table_id)
            mine = self.ownership.process_id
            if holder is not None and holder.owner != mine and self.clock.now() < holder.expires_at:
                return holder.owner
            await self.replayed(table_id)  # no_table before a lease is made for a wrong id
            if not self.ownership.plays:  # a game process takes it over, or names its holder
                owner = str(await self._ask_a_player({"op": "take", "table": table_id}))
                if owner != mine:
                    return owner
            elif await self.ownership.take_over(table_id):
                return None
        raise unreachable("could not be found")

    async def _ask_a_player(self, request: dict[str, Any]) -> Any:
        """Ask a process of the game tier, one at random (another if it does not answer)."""
        players = await self.link.players()
        self.rng.shuffle(players)
        tried = players[:ROUTES]
        for player in tried:
            try:
                return await self.link.ask(player, request)
            except HallError as error:
                if error.code != "owner_unreachable" or player == tried[-1]:
                    raise
        raise HallError(
            "owner_unreachable", "no process of the hall plays tables at the moment: try again"
        )

    async def _holder(self, table_id: str) -> Lease | None:
        now = self.clock.now()
        known = self._holders.get(table_id)
        if known is not None and now < known.expires_at:
            return known
        holder = await self.ownership.leases.holder(table_id)
        if len(self._holders) >= KNOWN_HOLDERS:
            self._holders = {t: h for t, h in self._holders.items() if now < h.expires_at}
        if holder is None:
            self._holders.pop(table_id, None)
        else:
            self._holders[table_id] = holder
        return holder

    def _moved(self, table_id: str, error: HallError, known: bool) -> bool:
        """Whether ``error`` may mean that the table has another holder than the one looked at
        (then it is looked up again): it said so, or it did not answer and was ``known`` from
        an earlier look (it may have let the table go as it stopped since)."""
        self._holders.pop(table_id, None)
        return error.code == "not_owner" or (error.code == "owner_unreachable" and known)

    async def replayed(self, table_id: str) -> TableState:
        """The table as its log has it now."""
        events = await self.store.events(table_id) if len(table_id) <= 32 else []
        if not events:
            raise HallError("no_table", "there is no table {table!r}", table=table_id)
        return TableState.replay(table_id, events)

    async def _answer(self, request: dict[str, Any]) -> Any:
        """A request from another process for a table held here (or, from the socket tier,
        for a table to open here or to take over)."""
        table_id = request["table"]
        if request["op"] == "open":
            command = decode_command(request["command"])
            if not isinstance(command, Open):
                raise HallError("bad_request", "only a new table is opened")
            return (await self.path.open(table_id, command)).version
        if request["op"] == "take":
            return await self.owner_of(table_id) or self.ownership.process_id
        if not self.ownership.holds(table_id):
            raise HallError(
                "not_owner", "table {table_id} is not held by this process", table_id=table_id
            )
        # (a socket there, most likely: the changes it hears from now on are to be whole)
        self.path.broker.asked_from_elsewhere(table_id)
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
        raise HallError("bad_request", "no such request: {op!r}", op=request["op"])
