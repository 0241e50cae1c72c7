"""Table chat (issue 24): who may say what in which room of a table, the line stored, then told
on the table's channel as a ``ChatSaid`` notice (chat is no table event: it has no version and
is not in the record); what a socket reads on opening; players' mutes, blocks and reports.

Rooms: the people seated write and read the players' room; spectators, and people taken out of
a seat, write and read the spectators' room. Players never read the spectators' room live:
spectators see the whole layout and could pass on what they make of it. In partnership the
players' room takes quick phrases only while a hand is being played, or partners could tell
each other their tiles. Guests send quick phrases only, unless the operator lets them type
(``guests_may_type``, ``dominohall serve --guest-chat``): a guest costs nothing to make again.

The rate limit is per player, a token bucket given by the caller: in this process's memory,
or with several processes in Redis, shared by them all (``web/redis_buckets.py``).

A reader's mutes and blocks hide the lines of those players from them: a socket reads them
once, when it says hello (``reader``), and a mute, block or report made through this service
changes them in place for every socket of that reader in this process, and is told on the
reader's own channel (``MutesChanged``), so that every other process holding sockets of theirs
reads them again too.
"""

from __future__ import annotations

import asyncio
import logging
import math
import weakref
from dataclasses import dataclass
from typing import Literal, Protocol

from ..i18n import N_
from ..rules import get_preset
from ..store import Store
from ..store.chat import ChatLine
from ..store.chat import Room as ChatRoom
from ..store.deletion import ANONYMOUS
from .chat_text import ChatLineTooLong, ChatTextError, EmptyChatLine, clean, quick_phrase
from .errors import HallError
from .hall import Hall
from .messages import Refusal
from .notices import ChatSaid, MutesChanged, PlayerNotice
from .table import Phase, TableState

log = logging.getLogger("dominohall.chat")

__all__ = ["RECENT_LINES", "ChatLimited", "Hidden", "RateLimit", "ChatRoom", "Speaker", "TableChat"]

RECENT_LINES = 50  # the lines of its room a socket is sent when it opens
REPLAY_LINES = 500  # the most lines shown beside a finished game's replay (its last ones)
MAX_REASON = 500  # characters of a report's reason


@dataclass(frozen=True)
class Speaker:
    """Who writes: a signed-in player as the socket knows them (``username`` None: a guest)."""

    id: str
    name: str
    username: str | None

    @property
    def guest(self) -> bool:
        return self.username is None


class RateLimit(Protocol):
    """Token buckets by key (``web/ratelimit.Buckets``): one token taken (0.0), or the seconds
    to wait for one (nothing taken)."""

    async def take(self, key: str) -> float: ...


class ChatLimited(HallError):
    """``chat_limited``: the sender writes too fast; ``retry_after`` says when they may again."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = max(1, math.ceil(retry_after))
        super().__init__(
            "chat_limited",
            f"you are writing too fast: you may send again in {self.retry_after} s",
        )

    def to_json(self) -> Refusal:
        return {**super().to_json(), "retry_after": self.retry_after}


class Hidden:
    """The players whose lines one reader does not see (muted or blocked): one object shared by
    that reader's sockets in this process, so a mute reaches them all at once."""

    __slots__ = ("__weakref__", "players")

    def __init__(self, players: set[str] | None = None) -> None:
        self.players = players or set()

    def __contains__(self, player: str | None) -> bool:
        return player is not None and player in self.players


def room_name(room: ChatRoom) -> Literal["players", "spectators"]:
    return "players" if room is ChatRoom.PLAYERS else "spectators"


class TableChat:
    def __init__(
        self,
        store: Store,
        hall: Hall,
        limit: RateLimit,
        *,
        guests_may_type: bool = False,
        recent: int = RECENT_LINES,
    ) -> None:
        self.store = store
        self.hall = hall
        self.limit = limit
        self.guests_may_type = guests_may_type
        self.recent_lines = recent
        # Each reader's Hidden while one of their sockets holds it (weakly: gone with them),
        # listening to the reader's channel meanwhile for a change made on another process.
        self._readers: weakref.WeakValueDictionary[str, Hidden] = weakref.WeakValueDictionary()
        self._rereads: set[asyncio.Task[None]] = set()

    # Saying ---------------------------------------------------------------------------------
    async def say(
        self,
        speaker: Speaker,
        table_id: str,
        room: ChatRoom,
        *,
        text: str | None = None,
        phrase: str | None = None,
    ) -> ChatSaid:
        """A line said in ``room`` of the table: checked, stored, then told on the table's
        channel (its sockets pass it to that room's readers). A refusal is a ``HallError``."""
        if (text is None) == (phrase is None):
            raise HallError("bad_message", "a chat line has a text or a phrase, exactly one")
        state = (await self.hall.room(table_id)).state
        seat = state.seat_of(speaker.id)
        _check_room(room, seat)
        if phrase is not None:
            try:
                quick_phrase(phrase)
            except ChatTextError as exc:
                raise HallError("chat_phrase_unknown", str(exc)) from None
        else:
            assert text is not None
            self._check_typing(speaker, room, state)
            text = _cleaned(text)
        now = self.hall.clock.now()
        await self._check_allowed(speaker.id, now)
        wait = await self.limit.take(speaker.id)
        if wait > 0:
            raise ChatLimited(wait)
        # Stored before it is told: a reader who opens a socket next finds it in the room.
        line = await self.store.chat.add(table_id, room, speaker.id, now, text=text, phrase=phrase)
        said = ChatSaid(
            line.id,
            room_name(room),
            speaker.id,
            seat,
            speaker.name,
            speaker.username,
            line.text,
            line.phrase,
            line.at,
        )
        self.hall.broker.notify(table_id, said)
        return said

    def _check_typing(self, speaker: Speaker, room: ChatRoom, state: TableState) -> None:
        if speaker.guest and not self.guests_may_type:
            raise HallError(
                "chat_not_allowed",
                "guests send quick phrases only at this hall: make an account to type",
            )
        teams = get_preset(state.options.preset).teams
        if room is ChatRoom.PLAYERS and teams and state.phase is Phase.PLAYING:
            raise HallError(
                "chat_not_allowed",
                "in partnership the players' chat is quick phrases only while a hand is played",
            )

    async def _check_allowed(self, player: str, now: float) -> None:
        moderation = self.store.moderation
        if await moderation.banned(player) is not None:
            raise HallError("chat_not_allowed", "this account is banned: it may not chat")
        timed_out = await moderation.timed_out(player, now)
        if timed_out is not None:
            minutes = math.ceil((timed_out.until - now) / 60)
            if timed_out.reason:
                raise HallError(
                    "chat_timed_out",
                    "an operator took you out of the chat for {minutes} more minute(s): {reason}",
                    minutes=minutes,
                    reason=timed_out.reason,
                )
            raise HallError(
                "chat_timed_out",
                "an operator took you out of the chat for {minutes} more minute(s)",
                minutes=minutes,
            )

    # Reading --------------------------------------------------------------------------------
    async def recent(self, table_id: str, room: ChatRoom, hidden: Hidden) -> list[ChatSaid]:
        """The last lines of a room of the table, oldest first, less those ``hidden``."""
        lines = await self.store.chat.of_table(table_id, frozenset({room}), last=self.recent_lines)
        lines = [line for line in lines if line.player_id not in hidden]
        state = (await self.hall.room(table_id)).state
        names = await self._names({line.player_id for line in lines})
        return [_said(line, state, names) for line in lines]

    async def of_game(self, table_id: str, reader: str | None) -> list[ChatSaid]:
        """A finished game's chat beside its replay, both rooms, oldest first, less the lines
        of those ``reader`` muted or blocked. The game is over, so nothing is left to pass on:
        whoever may see the game (``web/games.py``: anyone for a public table, its players for a
        private one) reads both rooms."""
        lines = await self.store.chat.of_table(table_id, last=REPLAY_LINES)
        if reader is not None:
            hidden = await self.store.moderation.muted_by(reader)
            lines = [line for line in lines if line.player_id not in hidden]
        if not lines:
            return []
        state = (await self.hall.room(table_id)).state
        names = await self._names({line.player_id for line in lines})
        return [_said(line, state, names) for line in lines]

    async def _names(self, players: set[str | None]) -> dict[str, tuple[str, str | None]]:
        # A room's last lines come from a handful of people: one look-up each.
        names: dict[str, tuple[str, str | None]] = {}
        for player_id in players:
            if player_id is not None:
                player = await self.store.player(player_id)
                if player is not None:
                    names[player_id] = (player.name, player.username)
        return names

    async def reader(self, player: str) -> Hidden:
        """The players whose lines ``player`` does not see, read afresh (a socket's hello), in
        the object that player's other sockets in this process share."""
        players = await self.store.moderation.muted_by(player)
        hidden = self._readers.get(player)
        if hidden is None:
            hidden = self._readers[player] = Hidden(players)
            stop = self.hall.broker.listen(player, lambda notice: self._heard(player, notice))
            # (Not at the interpreter's exit: the broker's loop is closed by then.)
            weakref.finalize(hidden, stop).atexit = False
        else:
            hidden.players = players
        return hidden

    def _heard(self, player: str, notice: PlayerNotice) -> None:
        if not isinstance(notice, MutesChanged) or player not in self._readers:
            return

        async def reread() -> None:
            try:
                await self.reader(player)
            except Exception:  # noqa: BLE001 - read again at the socket's next hello
                log.exception("mutes of %s not read again", player)

        task = asyncio.create_task(reread())
        self._rereads.add(task)
        task.add_done_callback(self._rereads.discard)

    # A player's choices about others ------------------------------------------------------
    async def mute(self, player: str, other: str) -> None:
        _not_oneself(player, other, N_("you cannot mute yourself"))
        await self.store.moderation.mute(player, other, self.hall.clock.now())
        await self._reread(player)

    async def unmute(self, player: str, other: str) -> None:
        await self.store.moderation.unmute(player, other)
        await self._reread(player)

    async def block(self, player: str, other: str) -> None:
        _not_oneself(player, other, N_("you cannot block yourself"))
        await self.store.moderation.block(player, other, self.hall.clock.now())
        await self._reread(player)

    async def unblock(self, player: str, other: str) -> None:
        await self.store.moderation.unblock(player, other)
        await self._reread(player)

    async def report(self, player: str, other: str, reason: str, line_id: int | None) -> int:
        """Report ``other`` (one of their lines, if given) to the operators; it mutes them for
        ``player`` too. The report's id."""
        _not_oneself(player, other, N_("you cannot report yourself"))
        reason = reason.strip()
        if not reason or len(reason) > MAX_REASON:
            raise HallError(
                "bad_request", "say why in 1 to {max_reason} characters", max_reason=MAX_REASON
            )
        if line_id is not None:
            line = await self.store.chat.line(line_id)
            if line is None or line.player_id != other:
                raise HallError(
                    "no_line", "no chat line {line_id} of that player is kept", line_id=line_id
                )
        report = await self.store.moderation.report(
            player, other, reason, self.hall.clock.now(), line_id
        )
        await self._reread(player)
        return report.id

    async def _reread(self, player: str) -> None:
        if player in self._readers:
            await self.reader(player)
        self.hall.broker.tell(player, MutesChanged())  # (the other processes' sockets)


def _said(line: ChatLine, state: TableState, names: dict[str, tuple[str, str | None]]) -> ChatSaid:
    """A kept line as it was told (a name read now: a deleted account's is "Deleted player")."""
    pid = line.player_id
    name, username = names.get(pid, (ANONYMOUS, None)) if pid is not None else (ANONYMOUS, None)
    seat = state.was_seated(pid) if pid is not None and line.room is ChatRoom.PLAYERS else None
    return ChatSaid(
        line.id, room_name(line.room), pid, seat, name, username, line.text, line.phrase, line.at
    )


def _check_room(room: ChatRoom, seat: int | None) -> None:
    if room is ChatRoom.SPECTATORS and seat is not None:
        raise HallError(
            "chat_not_allowed",
            "you play at this table: write in the players' room, not to spectators",
        )
    if room is ChatRoom.PLAYERS and seat is None:
        raise HallError(
            "chat_not_allowed", "you have no seat at this table: write in the spectators' room"
        )


def _cleaned(text: str) -> str:
    try:
        return clean(text)
    except EmptyChatLine as exc:
        raise HallError("chat_empty", str(exc)) from None
    except ChatLineTooLong as exc:
        raise HallError("chat_too_long", str(exc)) from None


def _not_oneself(player: str, other: str, message: str) -> None:
    """``message`` is a whole sentence (marked ``N_``): the verb is no piece of it to fill in."""
    if player == other:
        raise HallError("bad_request", message)
