"""The operators' moderation (issue 24): their actions, written to the store with their entry in
the moderation log (``dominohall mod`` and the ``/mod`` page alike), and what follows on this
process's live people, read back from that log.

Every hall process follows the moderation log (``Follower``: the entries after the last id it
saw, every ``FOLLOW_EVERY`` seconds), so an action taken anywhere reaches every process's
sockets the same way: the command line on a machine with no hall running, a ``/mod`` page
served by another process, on SQLite or on PostgreSQL, with Redis or without. What follows a
ban here: the account's tables handed over as when a player leaves (each process tries; the
tables' owners take the first), and each listener told (the web closes the account's sockets).
A ban's sessions end in its own transaction (``store/moderation.py``), so its cookies stop at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from ..store import Store
from ..store.addresses import SeenAddress
from ..store.chat import ChatLine
from ..store.moderation import Action, Ban, Report, TimeOut
from . import messages
from .accounts import StoredPlayer
from .clock import Clock
from .errors import HallError
from .hall import Hall
from .seating import Person

__all__ = [
    "DEFAULT_TIME_OUT_MINUTES",
    "FOLLOW_EVERY",
    "Action",
    "Ban",
    "Follower",
    "Moderating",
    "Report",
    "SeenAddress",
    "TimeOut",
]

log = logging.getLogger("dominohall.moderation")

DEFAULT_TIME_OUT_MINUTES = 15.0
LONGEST_TIME_OUT_MINUTES = 366 * 24 * 60.0  # a year: longer is a ban
FOLLOW_EVERY = 1.0  # seconds between two reads of the moderation log
MAX_REASON = 500  # characters of an operator's reason
# The addresses an account signed in from are kept this long after their last sign-in there
# (long enough for a ban to cover them; not a history of where a person has been).
ADDRESS_DAYS = 30.0
DAY = 86400.0


@dataclass(frozen=True)
class ReportSeen:
    """A report as an operator reads it: who reported whom (names read now), and the chat
    around the reported line with its sayers' names."""

    report: Report
    reporter: StoredPlayer | None
    reported: StoredPlayer | None
    names: dict[str, str]  # player id -> name, for the lines of ``report.context``


class Moderating:
    """The operators' actions and questions, over the store. ``by`` is the acting operator's
    player id (checked by the caller: ``operator``)."""

    def __init__(self, store: Store, clock: Clock) -> None:
        self.store = store
        self.clock = clock

    # Who ----------------------------------------------------------------------------------
    async def player(self, who: str) -> StoredPlayer:
        """The player named by a username or a player id (guests have only an id)."""
        found = await self.store.player_by_username(who.strip().lower())
        if found is None:
            found = await self.store.player(who.strip())
        if found is None:
            raise HallError("no_player", "no player has the username or id {who!r}", who=who)
        return found

    async def operator(self, who: str) -> StoredPlayer:
        """The operator named by ``who`` (a username or id), refused if not one."""
        player = await self.player(who)
        if not await self.store.moderation.is_operator(player.id):
            raise HallError(
                "not_operator", "{who!r} is not an operator (dominohall mod operators add)", who=who
            )
        return player

    async def is_operator(self, player_id: str) -> bool:
        return await self.store.moderation.is_operator(player_id)

    async def banned(self, player_id: str) -> Ban | None:
        return await self.store.moderation.banned(player_id)

    async def banned_address(self, address: str) -> Ban | None:
        return await self.store.moderation.banned_address(address)

    async def timed_out(self, player_id: str) -> TimeOut | None:
        return await self.store.moderation.timed_out(player_id, self.clock.now())

    # Addresses ----------------------------------------------------------------------------
    async def saw_address(self, player_id: str, address: str) -> None:
        """A player signed in (a new guest, a new account, a sign-in) from ``address``: kept
        for ``ADDRESS_DAYS`` after, for a ban to cover (older ones, anyone's, forgotten now)."""
        now = self.clock.now()
        await self.store.addresses.saw(player_id, address, now, now - ADDRESS_DAYS * DAY)

    async def addresses_of(self, player_id: str) -> list[SeenAddress]:
        """The addresses the player signed in from in the last ``ADDRESS_DAYS``, latest first."""
        since = self.clock.now() - ADDRESS_DAYS * DAY
        return await self.store.addresses.of(player_id, since)

    # Actions ------------------------------------------------------------------------------
    async def time_out(self, player_id: str, minutes: float, by: str, reason: str) -> TimeOut:
        """Out of every chat for ``minutes`` (0 lifts a time-out under way)."""
        if not (math.isfinite(minutes) and 0 <= minutes <= LONGEST_TIME_OUT_MINUTES):
            raise HallError(
                "bad_request",
                "a time-out lasts 0 to {longest_time_out_minutes:g} minutes, not {minutes:g}",
                longest_time_out_minutes=LONGEST_TIME_OUT_MINUTES,
                minutes=minutes,
            )
        player = await self._subject(player_id)
        now = self.clock.now()
        return await self.store.moderation.time_out(
            player.id, now + minutes * 60, by, _reason(reason), now
        )

    async def ban(
        self,
        player_id: str,
        by: str,
        reason: str,
        addresses: Iterable[str] = (),
        *,
        with_addresses: bool = False,
    ) -> Ban:
        """Ban an account, and the ``addresses`` given; ``with_addresses``: the addresses it
        signed in from lately too (``addresses_of``), none to type."""
        player = await self._subject(player_id)
        covered = [a.strip() for a in addresses]
        if with_addresses:
            seen = [a.address for a in await self.addresses_of(player.id)]
            covered += [a for a in seen if a not in covered]
        for address in covered:
            if not address or len(address) > 64 or any(c.isspace() for c in address):
                raise HallError("bad_request", "{address!r} is not an address", address=address)
        if await self.store.moderation.banned(player.id) is not None and not covered:
            raise HallError("already_banned", "{player} is banned already", player=_named(player))
        return await self.store.moderation.ban(
            player.id, by, _reason(reason), self.clock.now(), covered
        )

    async def unban(self, player_id: str, by: str, reason: str) -> int:
        player = await self._subject(player_id)
        if await self.store.moderation.banned(player.id) is None:
            raise HallError("not_banned", "{player} is not banned", player=_named(player))
        return await self.store.moderation.unban(player.id, by, _reason(reason), self.clock.now())

    async def rename(self, player_id: str, name: str, by: str, reason: str) -> StoredPlayer:
        """Reset a player's name (``name`` checked by the caller: ``web/accounts.check_name``)."""
        player = await self._subject(player_id)
        why = _reason(reason)
        renamed = dataclasses.replace(player, name=name)
        await self.store.update_player(renamed)
        detail = {"from": player.name, "to": name}
        await self.store.moderation.log(by, "rename", player.id, why, self.clock.now(), detail)
        return renamed

    async def close_report(self, report_id: int, by: str, reason: str) -> None:
        if not await self.store.moderation.close_report(
            report_id, by, _reason(reason), self.clock.now()
        ):
            raise HallError(
                "no_report", "no open report has the id {report_id}", report_id=report_id
            )

    async def add_operator(self, player_id: str) -> StoredPlayer:
        player = await self.player(player_id)
        if player.username is None:
            raise HallError("account_needed", "a guest cannot be an operator: it has no password")
        await self.store.moderation.add_operator(player.id, self.clock.now())
        return player

    async def remove_operator(self, player_id: str) -> StoredPlayer:
        player = await self.player(player_id)
        if not await self.store.moderation.is_operator(player.id):
            raise HallError("not_operator", "{player} is not an operator", player=_named(player))
        await self.store.moderation.remove_operator(player.id, self.clock.now())
        return player

    async def operators(self) -> list[StoredPlayer]:
        found = [await self.store.player(i) for i in await self.store.moderation.operators()]
        return [p for p in found if p is not None]

    # Reading ------------------------------------------------------------------------------
    async def reports(self) -> list[ReportSeen]:
        """The open reports, newest first, each with the chat around its line."""
        reports = await self.store.moderation.open_reports()
        return [await self._seen(report) for report in reversed(reports)]

    async def report(self, report_id: int) -> ReportSeen:
        report = await self.store.moderation.report_by_id(report_id)
        if report is None:
            raise HallError("no_report", "no report has the id {report_id}", report_id=report_id)
        return await self._seen(report)

    async def log(self, before: int | None = None, limit: int = 50) -> list[Action]:
        """The moderation log, newest first."""
        return await self.store.moderation.log_before(before, limit)

    async def name_of(self, player_id: str | None) -> str:
        if player_id is None:
            return "(command line)"
        player = await self.store.player(player_id)
        return _named(player) if player is not None else player_id

    async def _seen(self, report: Report) -> ReportSeen:
        names: dict[str, str] = {}
        for line in report.context:
            if line.player_id is not None and line.player_id not in names:
                sayer = await self.store.player(line.player_id)
                names[line.player_id] = sayer.name if sayer is not None else "Deleted player"
        return ReportSeen(
            report,
            await self.store.player(report.reporter_id),
            await self.store.player(report.reported_id),
            names,
        )

    async def _subject(self, player_id: str) -> StoredPlayer:
        player = await self.store.player(player_id)
        if player is None:
            raise HallError("no_player", "no player has the id {player_id!r}", player_id=player_id)
        return player


def _reason(reason: str) -> str:
    reason = reason.strip()
    if not reason or len(reason) > MAX_REASON:
        raise HallError(
            "bad_request", "say why in 1 to {max_reason} characters", max_reason=MAX_REASON
        )
    return reason


def _named(player: StoredPlayer) -> str:
    return (
        f"{player.name} (@{player.username})" if player.username else f"{player.name} ({player.id})"
    )


def line_json(line: ChatLine, names: dict[str, str]) -> messages.ModeratedLine:
    """A chat line as the operators' page reads it."""
    return {
        "id": line.id,
        "table": line.table_id,
        "room": line.room.value,
        "player": line.player_id,
        "name": names.get(line.player_id or "", "Deleted player"),
        "text": line.text,
        "phrase": line.phrase,
        "at": line.at,
    }


Listener = Callable[[Action], Awaitable[None]]


class Follower:
    """Follows the moderation log from where it stood when this process started, and applies each
    new entry here: a ban hands its account's tables over, then every listener hears each entry
    (the web's live sockets: ``web/live_sockets.py``). How long after its entry was written each
    was applied is logged; ``applied`` is notified after each round that applied some."""

    def __init__(self, hall: Hall, every: float = FOLLOW_EVERY) -> None:
        self.hall = hall
        self.store = hall.store
        self.every = every
        self.last_id = 0
        self.listeners: list[Listener] = []
        self.applied = asyncio.Condition()
        self._reading = asyncio.Lock()  # (the loop and a test's call never apply one entry twice)
        self._task: asyncio.Task[None] | None = None

    def listen(self, listener: Listener) -> None:
        self.listeners.append(listener)

    async def start(self) -> None:
        self.last_id = await self.store.moderation.last_log_id()
        self._task = asyncio.create_task(self._follow())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _follow(self) -> None:
        while True:
            try:
                await self.catch_up()
            except Exception:  # noqa: BLE001 - read again next round
                log.exception("following the moderation log failed")
            await asyncio.sleep(self.every)

    async def catch_up(self) -> int:
        """Apply every entry written since the last one applied; how many there were."""
        async with self._reading:
            return await self._catch_up()

    async def _catch_up(self) -> int:
        actions = await self.store.moderation.log_after(self.last_id)
        for action in actions:
            try:
                await self._apply(action)
            except Exception:  # noqa: BLE001 - one entry's failure stops no other
                log.exception("applying moderation entry %d failed", action.id)
            self.last_id = action.id
            log.info(
                "moderation %s of %s applied here %.2f s after it was written",
                action.action,
                action.subject_id,
                max(0.0, self.hall.clock.now() - action.at),
            )
        if actions:
            async with self.applied:
                self.applied.notify_all()
        return len(actions)

    async def _apply(self, action: Action) -> None:
        if action.action == "ban" and action.subject_id is not None:
            await self._hand_over(action.subject_id)
        if action.action == "rename" and action.subject_id is not None:
            # Each process asks; a table already showing the new name is left as it is.
            await self.hall.rename_seated(action.subject_id, str(action.detail.get("to", "")))
        for listener in self.listeners:
            await listener(action)

    async def _hand_over(self, player_id: str) -> None:
        """The banned account leaves each of its live tables, as a player who leaves does (a
        computer player takes its seat in a game; a seat still filling is emptied)."""
        person = Person(player_id, "")  # (a leave reads the player's id only)
        for table_id in await self.store.live_tables_of(player_id):
            try:
                await self.hall.leave(person, table_id)
            except HallError as error:  # another process's follower was first, or it is over
                log.debug("banned %s not taken out of %s: %s", player_id, table_id, error)
