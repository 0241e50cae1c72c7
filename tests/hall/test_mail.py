"""Sending email through the operator's SMTP server: queued, sent in the background, a failure
retried after its wait, given up after the last retry; queued mail the hall stopped on is logged."""

from __future__ import annotations

import asyncio
import logging
from email.message import EmailMessage

import pytest

from dominohall.hall.mail import MailSettings, Outbox
from web.smtp import Inbox, smtp_server

pytestmark = pytest.mark.anyio


def settings(inbox: Inbox, retries: tuple[float, ...]) -> MailSettings:
    return MailSettings(
        host="127.0.0.1",
        sender="Domino Hall <hall@example.test>",
        public_url="http://127.0.0.1:8000",
        port=inbox.port,
        security="none",
        retries=retries,
        timeout=10.0,
    )


def message(to: str, subject: str) -> EmailMessage:
    mail = EmailMessage()
    mail["From"] = "Domino Hall <hall@example.test>"
    mail["To"] = to
    mail["Subject"] = subject
    mail.set_content("Your turn.")
    return mail


async def until(condition, step: float = 0.01) -> None:
    """Wait for ``condition`` (an outbox retry is a real timer, however short)."""
    while not condition():
        await asyncio.sleep(step)


async def test_queued_mail_goes_out_in_order():
    with smtp_server() as inbox:
        outbox = Outbox(settings(inbox, retries=()))
        outbox.start()
        try:
            outbox.send(message("ann@example.test", "first"))
            outbox.send(message("bob@example.test", "second"))
            await asyncio.wait_for(outbox.drained(), timeout=30)
        finally:
            await outbox.stop()
    assert [(m["To"], m["Subject"]) for m in inbox.messages] == [
        ("ann@example.test", "first"),
        ("bob@example.test", "second"),
    ]


async def test_a_failure_is_tried_again_after_its_wait(caplog):
    with smtp_server() as inbox, caplog.at_level(logging.INFO, logger="dominohall.mail"):
        inbox.refuse = 2
        outbox = Outbox(settings(inbox, retries=(0.01, 0.02)))
        outbox.start()
        try:
            outbox.send(message("ann@example.test", "your turn"))

            def sent() -> bool:  # logged once the SMTP conversation is over, after the inbox has it
                return any(r.getMessage().startswith("email sent") for r in caplog.records)

            await asyncio.wait_for(until(sent), timeout=30)
        finally:
            await outbox.stop()
    assert [m["Subject"] for m in inbox.messages] == ["your turn"]
    said = [r.getMessage() for r in caplog.records]
    assert [s.split(" (")[0] for s in said[:2]] == ["email to ann@example.test failed"] * 2
    assert "trying again in 0.01 s" in said[0] and "trying again in 0.02 s" in said[1]
    assert said[2] == "email sent to ann@example.test: your turn"


async def test_after_the_last_retry_a_message_is_given_up_and_logged(caplog):
    with smtp_server() as inbox, caplog.at_level(logging.ERROR, logger="dominohall.mail"):
        inbox.refuse = 2
        outbox = Outbox(settings(inbox, retries=(0.01,)))
        outbox.start()
        try:
            outbox.send(message("ann@example.test", "your turn"))
            await asyncio.wait_for(until(lambda: caplog.records), timeout=30)
            outbox.send(message("bob@example.test", "after"))
            await asyncio.wait_for(outbox.drained(), timeout=30)
        finally:
            await outbox.stop()
    assert inbox.refuse == 0  # Ann's two tries
    assert [m["To"] for m in inbox.messages] == ["bob@example.test"]
    assert "email to ann@example.test not sent (failed 2 times)" in caplog.records[0].getMessage()


async def test_mail_still_queued_when_the_hall_stops_is_logged(caplog):
    with smtp_server() as inbox, caplog.at_level(logging.WARNING, logger="dominohall.mail"):
        outbox = Outbox(settings(inbox, retries=()))  # never started: nothing is sent
        outbox.send(message("ann@example.test", "one"))
        outbox.send(message("bob@example.test", "two"))
        await outbox.stop()
    assert inbox.messages == []
    assert [r.getMessage() for r in caplog.records] == ["2 emails not sent: the hall stopped"]
