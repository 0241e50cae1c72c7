"""Requests to the process that owns a table, and their answers, over Redis pub/sub.

Each process listens on two channels of its own, ``<prefix>owner:<process id>`` (requests) and
``<prefix>reply:<process id>`` (answers to its requests). A request is a JSON object with an id
and the asker's process id; the answer, published to the asker's reply channel, carries the same
id and either ``ok`` (the result) or ``error`` (a ``HallError`` as ``HallError.carried`` writes
it, raised again on the asking side, so a refusal reads the same on any process, in any language).

A process of the game tier (one that plays tables) listens also on ``<prefix>plays:<process
id>``, where nothing is ever sent: its subscription is the sign that it is alive and plays, read
by the socket tier (``players``: Redis's PUBSUB CHANNELS), which asks one of them to open a new
table or to take over one nobody holds. A process that dies loses its subscriptions with its
connection, so nothing is left to expire.

Pub/sub keeps nothing, which suits a request that waits for its answer: PUBLISH says how many
listeners got it, so a request to a process that is gone (none) fails at once, and one that got
no answer within ``timeout`` fails too; both as ``HallError("owner_unreachable")``, never
retried here (a move carries the version it was made at, so the client may simply try again:
done twice it is refused as stale).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
import redis.asyncio as redis
from redis.exceptions import RedisError

from ..i18n import English
from .errors import HallError

log = logging.getLogger("dominohall.redis")

ANSWER_SECONDS = 5.0  # a request not answered within this: the owner is taken as unreachable
Handler = Callable[[dict[str, Any]], Awaitable[Any]]  # a request -> its result (JSON)


def unreachable(why: str) -> HallError:
    return HallError(
        "owner_unreachable", "the process that holds the table {why}: try again", why=English(why)
    )


class OwnerLink:
    """This process's end of the requests between processes: it asks (``ask``) and it answers
    the requests made to it (``handler``)."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str,
        process_id: str,
        handler: Handler | None = None,
        timeout: float = ANSWER_SECONDS,
        plays: bool = True,
    ) -> None:
        """``plays``: this process plays tables (the game tier), and says so (``players``)."""
        self.process_id = process_id
        self.plays = plays
        self.prefix = prefix
        self.handler = handler
        self.timeout = timeout
        self._client = redis.Redis.from_url(url)
        self._ids = itertools.count(1)
        self._waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._serving: set[asyncio.Task[None]] = set()
        self._task: asyncio.Task[None] | None = None
        self._listening = asyncio.Event()

    def requests_channel(self, process_id: str) -> str:
        return f"{self.prefix}owner:{process_id}"

    def reply_channel(self, process_id: str) -> str:
        return f"{self.prefix}reply:{process_id}"

    def plays_channel(self, process_id: str) -> str:
        return f"{self.prefix}plays:{process_id}"

    async def players(self) -> list[str]:
        """The processes that play tables, alive now (``owner_unreachable`` if Redis is away)."""
        start = self.plays_channel("")
        try:
            channels = await self._client.pubsub_channels(_glob_escaped(start) + "*")
        except (RedisError, OSError) as exc:
            raise unreachable(f"cannot be looked for ({exc})") from None
        return sorted(c.decode()[len(start) :] for c in channels)

    async def start(self) -> None:
        self._task = asyncio.create_task(self._receive_forever())
        await self._listening.wait()  # from now on a request to this process is heard

    async def close(self) -> None:
        """Stop answering (requests made to this process fail at once from now on)."""
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        for task in list(self._serving):
            task.cancel()
        await asyncio.gather(*self._serving, return_exceptions=True)
        for waiting in self._waiting.values():
            waiting.cancel()
        await self._client.aclose()

    async def ask(self, owner: str, request: dict[str, Any]) -> Any:
        """Send ``request`` to process ``owner`` and wait for its result (its HallError raised
        here; ``owner_unreachable`` when nobody answers)."""
        request_id = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = answer
        body = {**request, "id": request_id, "from": self.process_id}
        try:
            try:
                heard = await self._client.publish(self.requests_channel(owner), orjson.dumps(body))
            except (RedisError, OSError) as exc:
                raise unreachable(f"cannot be asked ({exc})") from None
            if heard == 0:
                raise unreachable("is not listening")
            try:
                reply = await asyncio.wait_for(answer, self.timeout)
            except TimeoutError:
                raise unreachable(f"did not answer within {self.timeout:g} s") from None
        finally:
            self._waiting.pop(request_id, None)
        if "error" in reply:
            refused = reply["error"]
            if isinstance(refused, list):  # [code, message]: a process of an older hall
                raise HallError(*refused)
            raise HallError.raised_again(refused)
        return reply.get("ok")

    # Receiving ------------------------------------------------------------------------------
    async def _receive_forever(self) -> None:
        pause = 0.1
        while True:
            try:
                await self._receive()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - Redis away: listen again after a pause
                log.warning("owner link: %s; listening again in %.1f s", exc, pause)
                self._listening.clear()
                await asyncio.sleep(pause)
                pause = min(pause * 2, 5.0)

    async def _receive(self) -> None:
        pubsub = self._client.pubsub()
        try:
            requests = self.requests_channel(self.process_id)
            replies = self.reply_channel(self.process_id)
            channels = [requests, replies]
            if self.plays:
                channels.append(self.plays_channel(self.process_id))
            await pubsub.subscribe(*channels)
            confirmed = 0
            while True:
                message = await pubsub.get_message(timeout=None)
                if message is None:
                    continue
                if message["type"] == "subscribe":
                    confirmed += 1
                    if confirmed == len(channels):
                        self._listening.set()
                    continue
                if message["type"] != "message":
                    continue
                channel = message["channel"].decode()
                try:
                    body = orjson.loads(message["data"])
                except orjson.JSONDecodeError:
                    log.warning("owner link: a message that is not JSON on %s", channel)
                    continue
                if channel == requests:
                    task = asyncio.create_task(self._serve(body))
                    self._serving.add(task)
                    task.add_done_callback(self._serving.discard)
                else:
                    waiting = self._waiting.get(body.get("id"))
                    if waiting is not None and not waiting.done():
                        waiting.set_result(body)
        finally:
            await pubsub.aclose()

    async def _serve(self, request: dict[str, Any]) -> None:
        reply: dict[str, Any] = {"id": request.get("id")}
        try:
            if self.handler is None:
                raise unreachable("is not serving tables")
            reply["ok"] = await self.handler(request)
        except HallError as error:
            reply["error"] = error.carried()
        except Exception:  # noqa: BLE001 - answered, so the asker does not wait in vain
            log.exception("serving a request for table %s", request.get("table"))
            failed = HallError("server_error", "the hall could not do that; try again")
            reply["error"] = failed.carried()
        try:
            await self._client.publish(self.reply_channel(request["from"]), orjson.dumps(reply))
        except (RedisError, OSError, KeyError):
            log.warning("owner link: an answer could not be sent", exc_info=True)


def _glob_escaped(text: str) -> str:
    """``text`` matched literally in a Redis pattern (a prefix may hold ``*``, ``?`` or ``[``)."""
    return "".join("\\" + ch if ch in "*?[]\\" else ch for ch in text)
