"""A real SMTP server for the tests (aiosmtpd, on loopback), keeping what it receives."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from .live import free_port


class Inbox:
    """What the SMTP server received; it answers "try again later" to the next ``refuse`` ones."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.refuse = 0
        self.port = free_port()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        if self.refuse:
            self.refuse -= 1
            return "451 4.3.0 busy: try again later"
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if m["To"] == address]


@contextlib.contextmanager
def smtp_server() -> Iterator[Inbox]:
    """An SMTP server on a free loopback port while the block runs; what it received."""
    handler = Inbox()
    server = Controller(handler, hostname="127.0.0.1", port=handler.port)
    server.start()
    try:
        yield handler
    finally:
        server.stop()
