"""The links in the hall's emails: plain links under the public address, and signed tokens that
act on one player's one address (a confirmation for a week, an unsubscribe for good)."""

from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest
from itsdangerous import TimestampSigner

from dominohall.hall.mail_links import CONFIRM_SECONDS, LinkExpired, MailLinks

ADDRESS = "ann@example.test"


def token_of(link: str) -> str:
    return parse_qs(urlsplit(link).query)["token"][0]


@pytest.fixture
def links() -> MailLinks:
    return MailLinks("the hall's secret", "http://127.0.0.1:8000/")


def test_plain_links_are_under_the_public_address(links):
    assert links.table("t 1/x") == "http://127.0.0.1:8000/t/t%201/x"
    assert links.my_games() == "http://127.0.0.1:8000/my-games"
    assert links.confirm("p1", ADDRESS).startswith("http://127.0.0.1:8000/email/confirm?token=")
    assert links.unsubscribe("p1", ADDRESS).startswith(
        "http://127.0.0.1:8000/email/unsubscribe?token="
    )


def test_a_token_reads_back_as_its_player_and_address(links):
    assert links.read_confirm(token_of(links.confirm("p1", ADDRESS))) == ("p1", ADDRESS)
    assert links.read_unsubscribe(token_of(links.unsubscribe("p1", ADDRESS))) == ("p1", ADDRESS)


def test_a_token_is_for_its_own_purpose_and_its_own_hall(links):
    confirm = token_of(links.confirm("p1", ADDRESS))
    unsubscribe = token_of(links.unsubscribe("p1", ADDRESS))
    assert links.read_unsubscribe(confirm) is None
    assert links.read_confirm(unsubscribe) is None
    other_hall = MailLinks("another secret", "http://127.0.0.1:8000")
    assert other_hall.read_confirm(confirm) is None
    assert other_hall.read_unsubscribe(unsubscribe) is None
    assert links.read_confirm("not-a-token") is None
    assert links.read_unsubscribe(unsubscribe[:-2]) is None


def test_a_confirmation_works_for_a_week_and_an_unsubscribe_for_good(links, monkeypatch):
    now = 1_800_000_000

    monkeypatch.setattr(TimestampSigner, "get_timestamp", lambda self: now)
    confirm = token_of(links.confirm("p1", ADDRESS))
    unsubscribe = token_of(links.unsubscribe("p1", ADDRESS))

    now += CONFIRM_SECONDS
    assert links.read_confirm(confirm) == ("p1", ADDRESS)
    now += 1
    with pytest.raises(LinkExpired):
        links.read_confirm(confirm)
    now += 365 * 24 * 3600
    assert links.read_unsubscribe(unsubscribe) == ("p1", ADDRESS)
