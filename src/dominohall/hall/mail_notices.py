"""Email notices: "your turn" and reminders, from the players' own channels, to the players who
opted in and confirmed their address; and a challenge to a turn-based game (one email each: the
challenges' own rate limit bounds them).

Rules (README, docs/protocol.md 9): a turn is emailed at most once per table (a reminder too,
across restarts: the store keeps the last turn emailed, and a restart hears the waiting turns
and the reminders given in them again), a player gets at most one notice email per
``MailSettings.every``: what comes in the meantime waits and goes in one email at the end of
the wait, if it still holds then (still their turn, not at the table now). A turn with little
time left is not emailed (a real-time turn never is). Sending is the ``Outbox``'s, in the
background: nothing here ever holds up a move.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass
from email.message import EmailMessage
from email.policy import EmailPolicy
from email.utils import formatdate, make_msgid
from typing import TYPE_CHECKING

from ..i18n import SOURCE, Translator, translator
from ..i18n.formats import number
from ..rules import PRESETS
from ..store.emails import Emails
from .clock import Timer
from .mail import MailSettings, Outbox
from .mail_links import MailLinks
from .notices import Challenged, PlayerNotice, Reminder, YourTurn
from .options import TURN_BASED
from .rooms import Room

if TYPE_CHECKING:
    from .hall import Hall
    from .table import TableState

log = logging.getLogger("dominohall.mail")


class _LinkPolicy(EmailPolicy):
    """The default policy, but the unsubscribe headers go out as one plain line: folded (or
    written as RFC 2047 encoded-words, as a long URL otherwise is), a mail program finds no
    ``<https://...>`` in them (RFC 2369, 8058) and shows no unsubscribe button. A URL is ASCII
    and well under the 998 characters a line may hold."""

    def fold(self, name: str, value: str) -> str:
        if name.lower() in UNFOLDED:
            return f"{name}: {value}{self.linesep}"
        return str(super().fold(name, value))

    def fold_binary(self, name: str, value: str) -> bytes:
        if name.lower() in UNFOLDED:
            return f"{name}: {value}{self.linesep}".encode("ascii")
        return super().fold_binary(name, value)


UNFOLDED = frozenset({"list-unsubscribe", "list-unsubscribe-post"})
LINK_POLICY = _LinkPolicy()  # otherwise email.policy.default

KINDS = ("your_turn", "reminder")  # the notices that go by email


@dataclass(frozen=True)
class Item:
    """One table in a notice email."""

    table: str
    kind: str  # "reminder" when its clock runs low, else "your_turn"
    kinds: tuple[str, ...]  # the notices it stands for (a reminder says it is their turn too)
    turn: str  # which turn it is about (the store keeps it: once per turn)
    what: str  # "Draw to 50 with Bob", in the player's language
    left: float
    name: str  # the player's name at that table


class EmailNotices:
    def __init__(
        self, hall: Hall, emails: Emails, outbox: Outbox, links: MailLinks, settings: MailSettings
    ) -> None:
        self.hall = hall
        self.emails = emails
        self.outbox = outbox
        self.links = links
        self.settings = settings
        self._following: dict[str, Callable[[], None]] = {}
        # What each player is to be told, as (table, kind): the table's state then says the rest.
        self._pending: dict[str, set[tuple[str, str]]] = {}
        self._due: dict[str, Timer] = {}  # players whose email waits for the end of the limit
        self._busy: set[str] = set()  # players whose pending notices are being looked at
        self._tasks: set[asyncio.Task[None]] = set()
        # Following the channels: on one process at a time (``once_only.py``: another would
        # hear the same notices through Redis, and email them again).
        self.active = False

    async def start(self) -> None:
        self.active = True
        for player in await self.emails.active_players():
            self._follow(player)
        # The hall told the turns of the tables it resumed before this listened (a restart), and
        # what waited for the end of a player's limit is gone with the old process: every turn
        # now waiting for a player who gets notices is heard again. One emailed before the
        # restart is not emailed twice (the store keeps the turns emailed). So is a reminder
        # given this turn: the table keeps that it was given, and does not give it again.
        # Tables asleep (``dormancy.py``) wait for a person's move too: those of a player who
        # gets notices are loaded to be heard (the others stay asleep).
        for player in list(self._following):
            for table_id in self.hall.rooms.asleep_of(player):
                await self.hall.rooms.load(table_id)
        for room in list(self.hall.rooms):
            state = room.state
            turn = state.turn
            if turn is None or not state.seats[turn].is_person:
                continue
            mover = state.seats[turn].player
            if mover is None or mover not in self._following:
                continue
            self._hold(mover, room.id, "your_turn")
            if state.reminded_this_turn:
                self._hold(mover, room.id, "reminder")

    def stop(self) -> None:
        self.active = False
        for stop_listening in self._following.values():
            stop_listening()
        self._following.clear()
        for timer in self._due.values():
            timer.cancel()
        for task in self._tasks:
            task.cancel()

    async def settled(self) -> None:
        """Wait until the notices heard so far are emailed or set aside, and the email sent."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        await self.outbox.drained()

    async def refresh(self, player: str) -> None:
        """Follow the player's channel or not, as their address now says (on the process that
        sends the notices; the others' changes it learns by ``catch_up``)."""
        if not self.active:
            return
        address = await self.emails.of(player)
        if address is not None and address.active:
            self._follow(player)
        else:
            stop_listening = self._following.pop(player, None)
            if stop_listening is not None:
                stop_listening()
            self._pending.pop(player, None)

    def follows(self, player: str) -> bool:
        """Whether the player's notices are being emailed from this process."""
        return player in self._following

    async def catch_up(self) -> None:
        """Follow exactly the players whose addresses say so now: a change made through another
        process reaches this one (asked now and then while it sends the notices)."""
        active = set(await self.emails.active_players())
        if not self.active:
            return
        for player in active - self._following.keys():
            self._follow(player)
        for player in self._following.keys() - active:
            self._following.pop(player)()
            self._pending.pop(player, None)

    def _follow(self, player: str) -> None:
        if player not in self._following:
            self._following[player] = self.hall.broker.listen(
                player, lambda notice: self._heard(player, notice)
            )

    def _heard(self, player: str, notice: PlayerNotice) -> None:
        if isinstance(notice, YourTurn | Reminder):
            self._hold(player, notice.table, notice.kind)
        elif isinstance(notice, Challenged) and notice.options.get("timer") in TURN_BASED:
            task = asyncio.create_task(self._email_challenge(player, notice))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _email_challenge(self, player: str, notice: Challenged) -> None:
        try:
            address = await self.emails.of(player)
            if address is None or not address.active:
                return
            tag = await self._language(player)
            words = translator(tag)
            options = notice.options
            game = self._game(words, tag, options["preset"], int(options["target"]))
            if options.get("ranked"):
                game = words.gettext("{game}, ranked").format(game=game)
            days = max(1, round((notice.expires_at - self.hall.clock.now()) / 86400))
            sender = f"{notice.sender_name} (@{notice.sender})"
            lines = [
                words.gettext("Hello,"),
                "",
                words.gettext("{sender} challenges you to a turn-based game: {game}.").format(
                    sender=sender, game=game
                ),
                "",
                words.ngettext(
                    "Accept or decline it within {n} day on Domino Hall: {link}",
                    "Accept or decline it within {n} days on Domino Hall: {link}",
                    days,
                ).format(n=number(days, tag), link=self.links.my_games()),
            ]
            subject = words.gettext("{name} challenges you · Domino Hall").format(
                name=notice.sender_name
            )
            self.outbox.send(self._message(address.address, subject, lines, player, words))
        except Exception:
            log.exception("the challenge email to %s failed", player)

    def _hold(self, player: str, table: str, kind: str) -> None:
        self._pending.setdefault(player, set()).add((table, kind))
        self._kick(player)

    def _kick(self, player: str) -> None:
        """Look at the player's pending notices soon, unless that is under way or waits already."""
        if player in self._due or player in self._busy:
            return
        self._busy.add(player)
        task = asyncio.create_task(self._flush(player))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _flush(self, player: str) -> None:
        """Email what waits for the player now, or at the end of the rate limit's wait."""
        self._busy.add(player)
        self._due.pop(player, None)
        try:
            address = await self.emails.of(player)
            if address is None or not address.active:
                self._pending.pop(player, None)
                return
            now = self.hall.clock.now()
            if (
                address.last_sent_at is not None
                and now < address.last_sent_at + self.settings.every
            ):
                when = address.last_sent_at + self.settings.every
                self._due[player] = self.hall.clock.call_at(when, lambda: self._flush(player))
                return
            pending = self._pending.pop(player, set())
            tag = await self._language(player)
            emailed = await self.emails.turns_emailed(player)
            rooms = await self._rooms_of(pending)
            items = self._still_worth_it(player, pending, rooms, emailed, tag)
            if items:
                self.outbox.send(self._email(player, address.address, items, tag))
                turns = {(i.table, kind): i.turn for i in items for kind in i.kinds}
                await self.emails.sent(player, now, turns)
        except Exception:
            log.exception("email notices of %s failed", player)
        finally:
            self._busy.discard(player)
            if self._pending.get(player):
                self._kick(player)  # notices that came in meanwhile

    async def _rooms_of(self, pending: set[tuple[str, str]]) -> dict[str, Room]:
        """The tables of the pending notices held here, a table asleep loaded to be looked at."""
        rooms = {}
        for table in {table for table, _ in pending}:
            if self.hall.rooms.is_asleep(table):
                rooms[table] = await self.hall.rooms.load(table)
            else:
                room = self.hall.rooms.get(table)
                if room is not None:
                    rooms[table] = room
        return rooms

    def _still_worth_it(
        self,
        player: str,
        pending: set[tuple[str, str]],
        rooms: dict[str, Room],
        emailed: dict[tuple[str, str], str],
        tag: str,
    ) -> list[Item]:
        items = []
        words = translator(tag)
        now = self.hall.clock.now()
        for table in {table for table, _ in pending}:
            room = rooms.get(table)
            seat = room.state.seat_of(player) if room is not None else None
            if room is None or seat is None:
                continue  # the game is over, or they left
            state = room.state
            deadline = state.waits_until(seat)
            if deadline is None or seat in room.connected():
                continue  # they moved already, or they are at the table now
            if deadline - now < self.settings.worth:
                continue
            turn = turn_of(state)
            # Once per table per turn, and one line per table.
            kinds = tuple(
                k for k in KINDS if (table, k) in pending and emailed.get((table, k)) != turn
            )
            if not kinds:
                continue
            kind = "reminder" if "reminder" in kinds else "your_turn"
            what = self._game(words, tag, state.options.preset, state.options.target)
            others = [s.name for s in state.seats if s.is_person and s.seat != seat and s.name]
            if others:
                what = words.gettext("{game} with {players}").format(
                    game=what, players=", ".join(others)
                )
            name = state.seats[seat].name or ""
            items.append(Item(table, kind, kinds, turn, what, deadline - now, name))
        items.sort(key=lambda i: (i.left, i.table))  # the most urgent first
        return items

    async def _language(self, player: str) -> str:
        """The language the player's emails go in: the account's setting, else English."""
        stored = await self.hall.store.player(player)
        return (stored.language if stored is not None else None) or SOURCE

    @staticmethod
    def _game(words: Translator, tag: str, preset: str, target: int) -> str:
        """ "Draw to 50": the preset named from its id, in the player's words."""
        name = words.gettext(PRESETS[preset].name) if preset in PRESETS else preset
        return words.gettext("{game} to {target}").format(game=name, target=number(target, tag))

    def _email(self, player: str, address: str, items: list[Item], tag: str) -> EmailMessage:
        words = translator(tag)
        reminders = [i for i in items if i.kind == "reminder"]
        n = len(items)
        if n == 1:
            item = items[0]
            if item.kind == "reminder":
                subject = words.gettext("Your clock is running low: {game}").format(game=item.what)
            else:
                subject = words.gettext("Your turn: {game}").format(game=item.what)
        elif reminders:
            subject = words.ngettext(
                "{n} games wait for you, {low} running low on time",
                "{n} games wait for you, {low} running low on time",
                n,
            ).format(n=number(n, tag), low=number(len(reminders), tag))
        else:
            subject = words.ngettext("Your turn in {n} game", "Your turn in {n} games", n).format(
                n=number(n, tag)
            )
        hello = words.gettext("Hello {name},").format(name=items[0].name)
        lines = [hello if items[0].name else words.gettext("Hello,"), ""]
        lines.append(
            words.ngettext("It is your turn at this table:", "It is your turn at these tables:", n)
        )
        for item in items:
            left = time_left(item.left, tag)
            if item.kind == "reminder":
                line = words.gettext("{game}: {time} left (running low)")
            else:
                line = words.gettext("{game}: {time} left")
            lines += [
                "",
                "  " + line.format(game=item.what, time=left),
                f"  {self.links.table(item.table)}",
            ]
        lines += ["", words.gettext("All your games: {link}").format(link=self.links.my_games())]
        subject = words.gettext("{subject} · Domino Hall").format(subject=subject)
        return self._message(address, subject, lines, player, words)

    def _message(
        self,
        address: str,
        subject: str,
        lines: list[str],
        player: str | None,
        words: Translator,
    ) -> EmailMessage:
        message = EmailMessage(policy=LINK_POLICY)
        message["From"] = self.settings.sender
        message["To"] = address
        message["Subject"] = subject
        message["Date"] = formatdate(localtime=False)
        message["Message-ID"] = make_msgid(domain="dominohall")
        message["Auto-Submitted"] = "auto-generated"
        if player is not None:
            stop = self.links.unsubscribe(player, address)
            message["List-Unsubscribe"] = f"<{stop}>"
            # A mail program may unsubscribe with one click by posting to it (RFC 8058).
            message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
            lines = [
                *lines,
                "",
                "--",
                words.gettext(
                    "You get this email because you asked Domino Hall for notices at this address."
                ),
                words.gettext("Stop them: {link}").format(link=stop),
            ]
        message.set_content("\n".join(lines) + "\n")
        return message

    async def confirmation(self, player: str, name: str, address: str) -> None:
        """Send the link that confirms ``address`` for the player (in the account's language)."""
        tag = await self._language(player)
        words = translator(tag)
        days = 7  # how long the link works (``MailLinks``)
        lines = [
            words.gettext("Hello {name},").format(name=name),
            "",
            words.gettext(
                "Someone (we hope you) asked Domino Hall to send game notices to this address."
            ),
            words.ngettext(
                "Open this link to confirm it (it works for {n} day):",
                "Open this link to confirm it (it works for {n} days):",
                days,
            ).format(n=number(days, tag)),
            "",
            f"  {self.links.confirm(player, address)}",
            "",
            words.gettext(
                "If it was not you, do nothing: no notice goes to an address that is not confirmed."
            ),
        ]
        subject = words.gettext("Confirm your address · Domino Hall")
        self.outbox.send(self._message(address, subject, lines, None, words))


def turn_of(state: TableState) -> str:
    """Which turn of the game the table is at: its hand, and the moves made in it. Not the
    table's version, which a restart moves on (it writes an event of its own)."""
    game = state.game
    if game is None or game.hand is None:
        return ""
    return f"{len(game.hands)}.{len(game.hand.history)}"


def time_left(seconds: float, tag: str = SOURCE) -> str:
    """'2 days 3 h', '4 h 12 min', '12 min', '25 s', in the words of language ``tag``.

    >>> time_left(2 * 86400 + 3 * 3600), time_left(86400, "es"), time_left(90061, "pt-BR")
    ('2 days 3 h', '1 día', '1 dia 1 h')
    """
    words = translator(tag)
    s = max(0, int(seconds + 0.999))
    days, hours, minutes = s // 86400, s % 86400 // 3600, s % 3600 // 60
    if days:
        if hours:
            text = words.ngettext("{n} day {h} h", "{n} days {h} h", days)
        else:
            text = words.ngettext("{n} day", "{n} days", days)
        return text.format(n=number(days, tag), h=number(hours, tag))
    if hours:
        text = words.gettext("{h} h {min} min") if minutes else words.gettext("{h} h")
        return text.format(h=number(hours, tag), min=number(minutes, tag))
    if minutes:
        return words.gettext("{min} min").format(min=number(minutes, tag))
    return words.gettext("{s} s").format(s=number(s, tag))
