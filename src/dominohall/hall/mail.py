"""Sending email through the operator's SMTP server, off the event loop: a queue, one sender task,
each message handed to a worker thread; a failure is logged and retried later, a refusal that
will not change (a 5xx answer) is logged and dropped. Nothing that queues a message waits for it.
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
import ssl
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Literal

log = logging.getLogger("dominohall.mail")

Security = Literal["starttls", "tls", "none"]


@dataclass(frozen=True)
class MailSettings:
    """The operator's email settings (``dominohall serve --smtp-host ...``; README)."""

    host: str
    sender: str  # the From: address, e.g. "Domino Hall <hall@example.org>"
    public_url: str  # the hall's address as players reach it, for the links in emails
    port: int = 587
    security: Security = "starttls"  # STARTTLS on a plain connection, TLS from the start, or none
    username: str | None = None
    password: str | None = None
    every: float = 3600.0  # at most one notice email per player per this many seconds
    # A turn with less time left than this is not emailed (a real-time turn never is): the email
    # would come too late to act on.
    worth: float = 600.0
    retries: tuple[float, ...] = (30.0, 300.0, 1800.0)  # the waits before each new try
    timeout: float = 30.0  # seconds for each exchange with the server


class Outbox:
    """Email waiting to go out, and the task that sends it."""

    def __init__(self, settings: MailSettings) -> None:
        self.settings = settings
        self._queue: asyncio.Queue[tuple[EmailMessage, int]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._later: set[asyncio.TimerHandle] = set()

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name="mail-outbox")

    async def stop(self) -> None:
        for handle in self._later:
            handle.cancel()
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)
        if not self._queue.empty():
            log.warning("%d emails not sent: the hall stopped", self._queue.qsize())

    def send(self, message: EmailMessage) -> None:
        """Queue a message; it goes out in the background."""
        self._queue.put_nowait((message, 0))

    async def _run(self) -> None:
        while True:
            message, tries = await self._queue.get()
            try:
                await asyncio.to_thread(self._deliver, message)
                log.info("email sent to %s: %s", message["To"], message["Subject"])
            except Exception as exc:  # noqa: BLE001 - a failure is the message's, not the sender's
                self._failed(message, tries, exc)
            finally:
                self._queue.task_done()

    async def drained(self) -> None:
        """Wait until every message queued so far was sent or failed (retries come later)."""
        await self._queue.join()

    def _failed(self, message: EmailMessage, tries: int, exc: Exception) -> None:
        retries = self.settings.retries
        refused_for_good = isinstance(exc, smtplib.SMTPRecipientsRefused) or (
            isinstance(exc, smtplib.SMTPResponseException) and 500 <= exc.smtp_code < 600
        )
        if refused_for_good or tries >= len(retries):
            why = "refused" if refused_for_good else f"failed {tries + 1} times"
            log.error("email to %s not sent (%s): %s", message["To"], why, exc)
            return
        wait = retries[tries]
        log.warning("email to %s failed (%s); trying again in %g s", message["To"], exc, wait)
        loop = asyncio.get_running_loop()

        def again() -> None:
            self._later.discard(handle)
            self._queue.put_nowait((message, tries + 1))

        handle = loop.call_later(wait, again)
        self._later.add(handle)

    def _deliver(self, message: EmailMessage) -> None:
        """Send one message (in a worker thread: smtplib blocks)."""
        s = self.settings
        smtp: smtplib.SMTP
        if s.security == "tls":
            smtp = smtplib.SMTP_SSL(
                s.host, s.port, timeout=s.timeout, context=ssl.create_default_context()
            )
        else:
            smtp = smtplib.SMTP(s.host, s.port, timeout=s.timeout)
        with smtp:
            if s.security == "starttls":
                smtp.starttls(context=ssl.create_default_context())
            if s.username:
                smtp.login(s.username, s.password or "")
            smtp.send_message(message)
