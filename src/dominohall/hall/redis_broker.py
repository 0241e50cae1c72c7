"""``Broker`` over Redis, so that sockets on one process hear tables owned by another.

Tables: a table's changes and notices (presence, chat lines) go to this process's listeners at
once (in the loop, as ``MemoryBroker`` does: the mover's socket never waits for Redis) and over
Redis pub/sub to the other processes: the changes on ``<prefix>table:<id>``, which only their
owner publishes and so does not subscribe to (its listeners have them already; on hearing
them back it spent a tenth of Redis's cost a move), the notices, which any process may tell, on
``<prefix>table-notes:<id>``. A process drops what it sent itself. Pub/sub keeps no message: one
lost (Redis restarted, a subscription not yet made) shows as a gap in versions at the next change,
and the socket asks for the whole state (resync).

Players: a player's notices are replayable. Each goes to the stream ``<prefix>notices:<player>``
(XADD, the last few hundred kept; its expiry, a week, renewed by each process at most once an
hour) and a wake-up to ``<prefix>wake:<player>``; a listener reads the stream (XREAD after the
last id it was given), so each notice reaches each listener once, in order, with its stream id.
A listener on the telling process whose cursor is the entry just before the new one is given it
from the send's own reply instead (nothing can lie between the two), and that process's own
wake-ups are not read again: most notices go to a socket of the process that told them. A
socket that keeps the id of the last notice it passed on resumes without loss after a reconnect
(Redis's or its own, on any process): ``listen(player, listener, after=that_id)`` gives it
every notice kept after that id, then the new ones (``listen_with_ids`` hands the ids to the
listener). Without ``after`` a listener hears the notices told from about when it listened.

The calls of the ``Broker`` protocol stay synchronous: a value is encoded at once and queued for
a background sender, which writes each batch in one script call (``_SEND``), in order. Redis down: the
tasks reconnect with growing pauses, logging once when it goes and once when it is back;
table changes are dropped meanwhile (their sockets resync), notices wait in a bounded queue
(the oldest dropped beyond it). A batch cut off by a failure is sent again whole, so a notice
may then arrive twice (at least once, never lost while the queue holds it).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import redis.asyncio as redis  # (its replies parsed in C by hiredis, a dependency for that)
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .backoff import Backoff
from .broker import Channels, Listener, PlayerListener
from .notices import Missed, PlayerNotice, TableNotice
from .table_feed import TableChange
from .wire import WireError, decode_notice, decode_table, encode_notice, encode_table, sent_by

log = logging.getLogger("dominohall.redis")

# A player listener that is told each notice's stream id too (to resume from it later).
IdListener = Callable[[str, PlayerNotice], None]
StreamId = tuple[int, int]  # "1718000000000-3" as numbers, to compare

# What says Redis is unreachable (rather than refusing a command).
_DOWN = (RedisConnectionError, RedisTimeoutError, OSError)
NOTICES_KEPT = 500  # per player's stream (MAXLEN ~): far more than a socket misses in a hiccup
NOTICES_TTL = 7 * 24 * 3600  # seconds an idle player's stream is kept
# How long the sender lets values gather before a batch: the other processes hear a change
# this much later (this process's own table sockets are told at once; its player listeners get
# a notice from the batch's reply). Each batch has a cost of its own whatever it carries (the
# script call, its reply): side by side at 500 moves a second, 20 ms rather than 5 spent 5% less
# CPU a move in all (docs/scaling.md), and 20 ms later is still no delay a person sees.
SEND_GATHER_SECONDS = 0.020
# A notice's wake-up is sent only when another process listens to the player's channel (the
# script counts the channel's subscribers less this process's own). Were this process's
# subscription lost unseen meanwhile, its count was wrong: once its receiver is back, it wakes the
# players it told in this many seconds before, and their listeners elsewhere read on.
REWAKE_SECONDS = 10.0
RENEW_TTL_EVERY = 3600.0  # seconds between two renewals of a stream's TTL by one process
RENEWALS_KEPT = 100_000  # streams whose last renewal a process remembers (then it forgets all)
QUEUE_BOUND = 10_000  # notices waiting while Redis is down; table changes queued while it is up
PAGE = 200  # stream entries read per XREAD
DRAIN_AT_ONCE = 500  # messages handled in one pass once a read returns (then others run)
SUBSCRIBE_SECONDS = 2.0  # the most a new socket waits for its table's channel to be subscribed


def parse_id(text: str) -> StreamId:
    """A stream id as Redis writes it ("ms-seq", or "ms" meaning "ms-0")."""
    ms, _, seq = text.partition("-")
    try:
        return int(ms), int(seq or 0)
    except ValueError:
        raise ValueError(f"not a Redis stream id: {text!r}") from None


def _id_text(stream_id: StreamId) -> str:
    return f"{stream_id[0]}-{stream_id[1]}"


@dataclass(frozen=True, slots=True)
class _Told:
    """A notice waiting to be sent: to whom, as Redis carries it, and as it was told."""

    player: str
    payload: bytes
    notice: PlayerNotice


@dataclass(eq=False)
class _Reader:
    """One listener of a player's channel: ``cursor`` is the last entry it was given (None: not
    known yet, "from now", found by the receiver before its first read)."""

    listener: IdListener
    cursor: StreamId | None
    active: bool = True


class RedisBroker:
    """A ``Broker`` whose channels cross processes through Redis at ``url`` (``redis://``, or
    ``rediss://`` for TLS; ``user:password@`` for AUTH/ACL). ``prefix`` starts every key and
    channel name (one Redis may serve several halls, or tests). ``start`` before use (values
    given before are sent once it runs), ``close`` at the end."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "dominohall:",
        notices_kept: int = NOTICES_KEPT,
        queue_bound: int = QUEUE_BOUND,
    ) -> None:
        self.prefix = prefix
        self._where = _where(url)
        # Commands time out (a hung Redis must not stop the sender for good); the subscription's
        # connection waits for messages as long as it takes.
        self._redis = redis.Redis.from_url(url, socket_timeout=5.0, socket_connect_timeout=5.0)
        self._subscriber = redis.Redis.from_url(
            url, socket_timeout=None, socket_connect_timeout=5.0, socket_keepalive=True
        )
        self._origin = secrets.token_hex(8)  # this process's name on table channels
        self._origin_bytes = self._origin.encode()  # (as a wake-up it sent carries it)
        # Whether this process owns a table, and so publishes its changes itself (set by the
        # wiring to ``Ownership.holds``; the socket tier owns none).
        self.owns: Callable[[str], bool] = lambda _table_id: False
        self._send_script = self._redis.register_script(_SEND)
        self._kept = notices_kept
        self._tables = Channels[Listener]()
        self._readers: dict[str, list[_Reader]] = {}
        # (channel, payload, the table whose change it is, to count who heard it: None for a
        # table's notice)
        self._changes: deque[tuple[str, bytes, str | None]] = deque(maxlen=queue_bound)
        # Tables owned here whose last change Redis counted no other process hearing: their
        # changes are made for this process's listeners only (``heard_elsewhere``).
        self._unheard: set[str] = set()
        # Tables another process asked about while a batch was gathered or on its way: its
        # count, maybe made before they listened, says nothing of them.
        self._asked_while_batching: set[str] = set()
        self._notices: deque[_Told] = deque()
        self._bound = queue_bound
        self._to_send = asyncio.Event()
        self._subscriptions_changed = asyncio.Event()
        self._up = asyncio.Event()  # set while Redis answers
        self._up.set()
        self._down = False
        self._pending: set[str] = set()  # players whose streams the receiver reads next
        self._confirmed: set[str] = set()  # channels Redis said this connection listens to
        # Wake channels the batch on its way counts this process among the subscribers of: not
        # unsubscribed until it is answered (Redis would count one fewer than the script says).
        self._claimed: set[str] = set()
        # (when, player) of the notices sent as heard by this process: woken again after its
        # subscription was lost (REWAKE_SECONDS).
        self._claims: deque[tuple[float, str]] = deque()
        self._rewake_due = False
        # The channels this process's listeners want (kept as they come and go: recomputed,
        # thousands of names were made again at every new table's subscription).
        self._wanted: set[str] = set()
        self._sending = False  # a batch is out of the queues, on its way
        self._dropped = 0  # notices dropped from a full queue (logged at the first)
        self._tasks: list[asyncio.Task[None]] = []
        # Told when Redis goes away (False) and comes back (True): the hall stops its clocks
        # meanwhile (``outage.py``).
        self.on_reachable: Callable[[bool], None] | None = None
        # Table channels whose listeners may have missed changes while Redis was away: told
        # ``Missed`` once their channel is subscribed again.
        self._missed: set[str] = set()
        # When this process last renewed each player stream's expiry (the loop's clock): once
        # every RENEW_TTL_EVERY is enough against a week's TTL, and an EXPIRE with every notice
        # was a fifth of the broker's commands.
        self._expiry_renewed: dict[str, float] = {}

    async def start(self) -> None:
        self._tasks = [
            asyncio.create_task(self._send_forever(), name="redis-broker-sender"),
            asyncio.create_task(self._receive_forever(), name="redis-broker-receiver"),
        ]

    async def close(self) -> None:
        """Stop, after giving what is queued a moment to be sent (a clean shutdown loses none)."""
        if self._tasks and not self._down:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.sent(), 2.0)
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        self._tasks = []
        await self._redis.aclose()
        await self._subscriber.aclose()

    async def settled(self) -> None:
        """Wait until every listener added so far is in place in Redis (its channel subscribed,
        a player listener's starting point read): whatever is sent after reaches it. Nothing
        needs this to be correct (a change missed meanwhile is a gap its socket resyncs); tests
        use it to know where "from now" starts."""
        while (
            self._confirmed != self._channels_wanted()
            or any(p in self._readers for p in self._pending)
            or any(r.cursor is None for rs in self._readers.values() for r in rs)
        ):
            await asyncio.sleep(0.01)

    @property
    def down(self) -> bool:
        """Whether Redis is unreachable now, as this broker last found."""
        return self._down

    # The Broker protocol: synchronous, never blocking.

    def publish(self, table_id: str, change: TableChange) -> None:
        self._to_table(table_id, change)

    def notify(self, table_id: str, notice: TableNotice) -> None:
        self._to_table(table_id, notice)

    def subscribe(self, table_id: str, listener: Listener) -> Callable[[], None]:
        first = not self._tables.of(table_id)
        remove = self._tables.add(table_id, listener)
        if first:
            self._want_table(table_id)

        def unsubscribe() -> None:
            remove()
            if not self._tables.of(table_id):
                self._want_table(table_id)

        return unsubscribe

    def heard_elsewhere(self, table_id: str) -> bool:
        return table_id not in self._unheard  # (not yet counted: it may be)

    def asked_from_elsewhere(self, table_id: str) -> None:
        self._unheard.discard(table_id)
        if self._sending or self._changes:
            self._asked_while_batching.add(table_id)

    def owner_changed(self, table_id: str) -> None:
        """This process began or stopped owning the table (``ownership.py``): whether it needs
        the channel of its changes changed with it."""
        self._unheard.discard(table_id)
        if self._tables.of(table_id):
            self._want_table(table_id)

    def _want_table(self, table_id: str) -> None:
        """Keep the table's channels in ``_wanted`` as its listeners and its owner say."""
        listened = bool(self._tables.of(table_id))
        for channel, wanted in (
            (self.notes_channel(table_id), listened),
            (self.table_channel(table_id), listened and not self.owns(table_id)),
        ):
            if wanted:
                self._wanted.add(channel)
            else:
                self._wanted.discard(channel)
        self._subscriptions_changed.set()

    async def subscribed(self, table_id: str, seconds: float = SUBSCRIBE_SECONDS) -> None:
        """Wait until the table's channels are subscribed in Redis (at most ``seconds``: with
        Redis away, a missed change is a gap its socket resyncs once a later one comes)."""
        channels = {self.notes_channel(table_id), self.table_channel(table_id)}
        deadline = asyncio.get_running_loop().time() + seconds
        while not (channels & self._wanted) <= self._confirmed and not self._down:
            if asyncio.get_running_loop().time() >= deadline:
                return
            await asyncio.sleep(0.005)

    def tell(self, player: str, notice: PlayerNotice) -> None:
        if len(self._notices) >= self._bound:
            self._notices.popleft()
            self._dropped += 1
            if self._dropped == 1:
                log.warning("Redis broker: notice queue full, the oldest notices are dropped")
        self._notices.append(_Told(player, encode_notice(notice), notice))
        self._to_send.set()

    def listen(
        self, player: str, listener: PlayerListener, after: str | None = None
    ) -> Callable[[], None]:
        """Listen to a player's notices: those after the stream id ``after`` (as a socket was
        given by ``listen_with_ids``; "0" for all that are kept), else those told from now."""
        return self.listen_with_ids(player, lambda _id, notice: listener(notice), after)

    def listen_with_ids(
        self, player: str, listener: IdListener, after: str | None = None
    ) -> Callable[[], None]:
        """``listen``, with each notice's stream id, the one to resume after."""
        reader = _Reader(listener, parse_id(after) if after is not None else None)
        if player not in self._readers:
            self._wanted.add(self._wake_channel(player))
        self._readers.setdefault(player, []).append(reader)
        # Wakes the receiver: a first listener's subscription, and this one's first read (its
        # catch-up, or the "now" it starts from).
        self._pending.add(player)
        self._subscriptions_changed.set()

        def stop() -> None:
            reader.active = False
            left = self._readers.get(player)
            if left is not None and reader in left:
                left.remove(reader)
                if not left:
                    del self._readers[player]
                    self._wanted.discard(self._wake_channel(player))
                    self._subscriptions_changed.set()

        return stop

    # Names in Redis.

    def table_channel(self, table_id: str) -> str:
        """The channel of the table's changes (published by its owner)."""
        return f"{self.prefix}table:{table_id}"

    def notes_channel(self, table_id: str) -> str:
        """The channel of the table's notices (told by any process)."""
        return f"{self.prefix}table-notes:{table_id}"

    def stream_key(self, player: str) -> str:
        return f"{self.prefix}notices:{player}"

    def _wake_channel(self, player: str) -> str:
        return f"{self.prefix}wake:{player}"

    # Sending.

    def _to_table(self, table_id: str, value: TableChange | TableNotice) -> None:
        for listener in self._tables.of(table_id):
            _call(listener, value)
        if self._down:
            return  # the other processes' sockets find the gap and resync
        with_messages = True
        if isinstance(value, TableChange):
            # Nobody elsewhere heard the last one: the change goes without its messages (a
            # listener that came since asks for the whole state), and the count comes back.
            with_messages = table_id not in self._unheard
            channel, counted = self.table_channel(table_id), table_id
        else:
            channel, counted = self.notes_channel(table_id), None
        payload = encode_table(self._origin, value, with_messages=with_messages)
        self._changes.append((channel, payload, counted))
        self._to_send.set()

    async def sent(self) -> None:
        """Wait until every change and notice told so far has been sent to Redis (the sender
        gathers them for ``SEND_GATHER_SECONDS``; tests use it to know what came before)."""
        while self._changes or self._notices or self._sending:
            await asyncio.sleep(0.01)

    async def _send_forever(self) -> None:
        backoff = Backoff()
        while True:
            await self._to_send.wait()
            # What the next moment's moves tell goes in the same pipeline (one write, one read).
            await asyncio.sleep(SEND_GATHER_SECONDS)
            self._to_send.clear()
            while self._changes or self._notices:
                changes = list(self._changes)
                notices = list(self._notices)
                self._changes.clear()
                self._notices.clear()
                self._sending = True
                try:
                    await self._send(changes, notices)
                except _DOWN as exc:
                    self._went_down(exc)
                    # The notices go back in front, in order, within the bound; the changes go.
                    waiting = (notices + list(self._notices))[-self._bound :]
                    self._notices.clear()
                    self._notices.extend(waiting)
                    self._changes.clear()
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._up.wait(), backoff.next())
                    continue
                except RedisError:  # refused, not down: sending it again would fail again
                    log.exception("Redis refused a batch of the broker's messages; dropped")
                finally:
                    self._sending = False
                backoff.reset()
                self._came_up()

    async def _send(
        self, changes: list[tuple[str, bytes, str | None]], notices: list[_Told]
    ) -> None:
        """One batch in one command (``_SEND``): a script call costs the hall a fraction of the
        three commands a move took in a pipeline (a table's change, a notice and its wake-up)."""
        now = asyncio.get_running_loop().time()
        keys: list[str] = []
        args: list[str | bytes | int] = [self._kept, NOTICES_TTL, self._origin, len(changes)]
        for channel, payload, _ in changes:
            args += [channel, payload]
        claimed: set[str] = set()
        for told in notices:
            key = self.stream_key(told.player)
            renewed = self._expiry_renewed.get(key)
            renew = renewed is None or now - renewed >= RENEW_TTL_EVERY
            if renew:
                self._expiry_renewed[key] = now
            keys.append(key)
            wake = self._wake_channel(told.player)
            # This process among the channel's subscribers for sure (confirmed by Redis, and
            # held until the answer): its own wake-up is not sent back to it for nothing.
            ours = wake in self._confirmed and wake in self._wanted
            if ours:
                claimed.add(wake)
                self._claims.append((now, told.player))
            args += [wake, told.payload, int(renew), int(ours)]
        while self._claims and self._claims[0][0] < now - REWAKE_SECONDS:
            self._claims.popleft()
        self._claimed = claimed
        try:
            added = await self._send_script(keys=keys, args=args)
        except BaseException:
            # Which renewals reached Redis is unknown: each is sent again with its next notice.
            self._expiry_renewed.clear()
            raise
        finally:
            self._claimed = set()
            if claimed - self._wanted:
                self._subscriptions_changed.set()  # (an unsubscription held back for it)
        if len(self._expiry_renewed) > RENEWALS_KEPT:
            self._expiry_renewed.clear()  # (a player's next notice renews again: cheap)
        pairs, heard = added[: 2 * len(notices)], added[2 * len(notices) :]
        for (_, _, table_id), count in zip(changes, heard, strict=True):
            if table_id is None or not self.owns(table_id):
                continue  # (a table's notice; or a change sent as the table left)
            if count:
                self._unheard.discard(table_id)
            elif table_id not in self._asked_while_batching:
                self._unheard.add(table_id)
        self._asked_while_batching.clear()  # (a later batch's count is made after those asks)
        for told, entry_id, before in zip(notices, pairs[::2], pairs[1::2], strict=True):
            self._hand_over(told, entry_id.decode(), before.decode())

    def _hand_over(self, told: _Told, entry_id: str, before: str) -> None:
        """A notice this process just added (``entry_id``, right after ``before``; "" when it
        is the stream's first): given to this process's listeners whose cursor is ``before``,
        the others left to read the stream (the wake-up this process sent is not heard)."""
        readers = self._readers.get(told.player, ())
        previous = parse_id(before) if before else (0, 0)
        for reader in list(readers):
            if reader.active and reader.cursor == previous:
                reader.cursor = parse_id(entry_id)
                _call(reader.listener, entry_id, told.notice)
            elif reader.active:
                self._pending.add(told.player)  # behind, or not started: it reads the stream
                self._subscriptions_changed.set()

    # Receiving.

    def _channels_wanted(self) -> set[str]:
        return set(self._wanted)  # (a copy: the receiver compares it with what it subscribed)

    async def _receive_forever(self) -> None:
        backoff = Backoff()
        while True:
            pubsub = self._subscriber.pubsub()
            try:
                await pubsub.connect()
                backoff.reset()
                self._came_up()
                if self._rewake_due:
                    await self._rewake()
                await self._receive(pubsub)
            except _DOWN as exc:
                self._went_down(exc)
            except Exception:  # a fault of ours: said, and the subscription made again
                log.exception("Redis broker: the receiver failed; subscribing again")
                self._went_down(ConnectionError("the receiver failed"))
            finally:
                self._confirmed = set()  # (counted by Redis no longer: claimed by no batch)
                self._rewake_due = True
                with contextlib.suppress(*_DOWN, RedisError):
                    await pubsub.aclose()
            await asyncio.sleep(backoff.next())

    async def _receive(self, pubsub: Any) -> None:
        """Keep the subscriptions to what this process's listeners want and dispatch what comes,
        until the connection fails. A read of the subscription's connection stays pending while
        (un)subscribe commands are written on it: one task does both, so a failure of either
        ends both."""
        subscribed: set[str] = set()
        self._confirmed = set()
        self._pending.update(self._readers)  # notices told while this connection was not up
        reading: asyncio.Future[Any] | None = None
        changed = True
        try:
            while True:
                if changed:  # (not per message: a process may listen to thousands of tables)
                    wanted = self._channels_wanted()
                    if new := wanted - subscribed:
                        await pubsub.subscribe(*new)
                        subscribed |= new
                    if gone := subscribed - wanted - self._claimed:
                        self._confirmed -= gone  # (no batch counts this process there now)
                        await pubsub.unsubscribe(*gone)
                        subscribed -= gone
                if self._pending:
                    await self._read_streams()
                if reading is None:
                    reading = asyncio.ensure_future(pubsub.get_message(timeout=None))
                waiting = asyncio.ensure_future(self._subscriptions_changed.wait())
                done, _ = await asyncio.wait(
                    {reading, waiting}, return_when=asyncio.FIRST_COMPLETED
                )
                changed = waiting in done
                if changed:
                    self._subscriptions_changed.clear()
                else:
                    waiting.cancel()
                if reading in done:
                    message, reading = reading.result(), None
                    if message is not None:
                        self._handle(message)
                    await self._drain(pubsub)
        finally:
            if reading is not None:
                reading.cancel()
                with contextlib.suppress(BaseException):
                    await reading

    async def _drain(self, pubsub: Any) -> None:
        """Handle the messages already read off the socket, without a wait for each: a busy
        process that fell behind catches up in a few passes, where a future and a wait a
        message kept it behind until Redis closed the subscription for its unread backlog
        (``client-output-buffer-limit pubsub``, 32 MB), which the hall takes for Redis down."""
        for _ in range(DRAIN_AT_ONCE):
            message = await pubsub.get_message(timeout=0)
            if message is None:
                return
            self._handle(message)

    async def _rewake(self) -> None:
        """Wake the players this process told something in the last ``REWAKE_SECONDS``, as
        heard by itself (``_send``): had its subscription been lost before it saw, a listener
        elsewhere was not woken for it, and now reads its stream on."""
        self._rewake_due = False
        players = {player for _, player in self._claims}
        if not players:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for player in players:
                pipe.publish(self._wake_channel(player), self._origin)
            await pipe.execute()

    def _handle(self, message: dict[str, Any]) -> None:
        channel = message["channel"].decode()
        kind = message["type"]
        if kind == "subscribe":
            self._confirmed.add(channel)
            if channel in self._missed:  # (a notes channel: every listened table has one)
                self._missed.discard(channel)
                table_id = channel[len(self.notes_channel("")) :]
                for listener in self._tables.of(table_id):
                    _call(listener, Missed())
        elif kind == "unsubscribe":
            self._confirmed.discard(channel)
        wake = f"{self.prefix}wake:"
        if channel.startswith(wake):
            # A notice was added, or the subscription now stands (what came before it is read
            # from the stream now, so nothing falls between the two).
            # (Not this process's own wake-up: its listeners were given the notice already.)
            theirs = kind == "message" and message["data"] != self._origin_bytes
            if kind == "subscribe" or theirs:
                self._pending.add(channel[len(wake) :])
            return
        if kind != "message":
            return
        notes = self.notes_channel("")
        changes = self.table_channel("")
        # (Either of a table's channels; by its prefix, so that any table id reads back whole.)
        table_id = channel[len(notes if channel.startswith(notes) else changes) :]
        if sent_by(message["data"], self._origin):
            return  # this process told its own listeners when it published
        try:
            _, value = decode_table(message["data"])
        except WireError as exc:
            log.warning("Redis broker: %s on %s, ignored", exc, channel)
            return
        for listener in self._tables.of(table_id):
            _call(listener, value)

    async def _read_streams(self) -> None:
        """Give each listener of the pending players the notices after its cursor."""
        players = [p for p in self._pending if p in self._readers]
        self._pending.clear()
        unknown = [p for p in players if any(r.cursor is None for r in self._readers[p])]
        if unknown:
            async with self._redis.pipeline(transaction=False) as pipe:
                for player in unknown:
                    pipe.xrevrange(self.stream_key(player), count=1)
                lasts = await pipe.execute()
            for player, last in zip(unknown, lasts, strict=True):
                now = parse_id(last[0][0].decode()) if last else (0, 0)
                for reader in self._readers.get(player, ()):
                    if reader.cursor is None:
                        reader.cursor = now
        while players:
            starts: dict[str, StreamId] = {}
            for player in players:
                cursors = [r.cursor for r in self._readers.get(player, ()) if r.cursor]
                if cursors:
                    starts[player] = min(cursors)
            if not starts:
                return
            streams = {self.stream_key(p): _id_text(s) for p, s in starts.items()}
            answer = await self._redis.xread(streams, count=PAGE)
            players = []
            for key, entries in answer or ():
                player = key.decode()[len(self.stream_key("")) :]
                self._deliver(player, entries)
                if len(entries) == PAGE:
                    players.append(player)  # maybe more

    def _deliver(self, player: str, entries: list[tuple[bytes, dict[bytes, bytes]]]) -> None:
        for raw_id, fields in entries:
            text = raw_id.decode()
            entry_id = parse_id(text)
            try:
                notice = decode_notice(fields[b"n"])
            except (WireError, KeyError) as exc:
                log.warning("Redis broker: entry %s of %s ignored (%s)", text, player, exc)
                notice = None
            for reader in list(self._readers.get(player, ())):
                if reader.active and reader.cursor is not None and reader.cursor < entry_id:
                    reader.cursor = entry_id
                    if notice is not None:
                        _call(reader.listener, text, notice)

    # Up and down, logged once each way.

    def _went_down(self, exc: BaseException) -> None:
        self._up.clear()
        self._expiry_renewed.clear()  # a Redis restarted lost them: renewed at the next notice
        self._missed |= {self.notes_channel(t) for t in self._tables.listeners}
        if not self._down:
            self._down = True
            log.warning(
                "Redis at %s unreachable (%s): retrying; meanwhile table changes reach this "
                "process's sockets only and notices wait",
                self._where,
                exc,
            )
            if self.on_reachable is not None:
                self.on_reachable(False)

    def _came_up(self) -> None:
        self._up.set()
        if self._down:
            self._down = False
            log.info("Redis at %s reachable again", self._where)
            self._to_send.set()
            if self.on_reachable is not None:
                self.on_reachable(True)


# A batch of the sender's: ARGV is the streams' MAXLEN, their TTL, the sender's origin, the
# number of table changes, then each change (channel, payload), then each notice (its wake-up
# channel, payload, 1 to renew the TTL, 1 when the sender is among the wake-up channel's
# subscribers) for the stream KEYS[i]. Answers each notice's entry id
# and the id of the entry before it ("" when none), which tell the sender whether its own
# listeners may be given the notice at once (``_hand_over``); then for each change how many
# subscribers heard it (``heard_elsewhere``).
_SEND = """
local kept, ttl, origin = ARGV[1], ARGV[2], ARGV[3]
local at = 5
local heard = {}
for _ = 1, tonumber(ARGV[4]) do
  heard[#heard + 1] = redis.call('PUBLISH', ARGV[at], ARGV[at + 1])
  at = at + 2
end
local added = {}
for i, key in ipairs(KEYS) do
  local id = redis.call('XADD', key, 'MAXLEN', '~', kept, '*', 'n', ARGV[at + 1])
  if ARGV[at + 2] == '1' then
    redis.call('EXPIRE', key, ttl)
  end
  local last = redis.call('XREVRANGE', key, id, '-', 'COUNT', 2)
  added[#added + 1] = id
  added[#added + 1] = last[2] and last[2][1] or ''
  -- The wake-up, when a process other than this one listens (ARGV[at + 3]: 1 when this one
  -- is among the channel's subscribers): it already gave the notice to its own listeners.
  if redis.call('PUBSUB', 'NUMSUB', ARGV[at])[2] > tonumber(ARGV[at + 3]) then
    redis.call('PUBLISH', ARGV[at], origin)
  end
  at = at + 4
end
for _, count in ipairs(heard) do
  added[#added + 1] = count
end
return added
"""


def _call(listener: Callable[..., None], *args: Any) -> None:
    # One listener's failure (a socket's bug) must not stop the others or the broker's tasks.
    try:
        listener(*args)
    except Exception:
        log.exception("a broker listener failed")


def _where(url: str) -> str:
    """The server's address for the log, without the password."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.hostname}:{parts.port or 6379}"
