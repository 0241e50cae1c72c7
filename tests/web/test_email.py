"""Email notices against a real SMTP server (aiosmtpd, on loopback, started here): the address
confirmed by a link first, "your turn" with the table's link and a one-click unsubscribe link,
once per table per turn, at most one email per player per period, retried after a failure."""

from __future__ import annotations

import html
import random
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from email.message import EmailMessage
from urllib.parse import urlencode

import pytest
from starlette.applications import Starlette
from starlette.testclient import TestClient

from dominohall.hall import ManualClock, Person
from dominohall.hall.mail import MailSettings
from dominohall.hall.notices import Reminder, YourTurn
from dominohall.web import create_app
from hall.helpers import play_first

from .conftest import Guest, Hall
from .smtp import Inbox, smtp_server
from .test_chat_socket import account

pytestmark = pytest.mark.timeout(60)

EVERY = 10.0  # seconds between two notice emails to one player (the hall's default is an hour)
LINK = re.compile(r"http://hall\.test/[^\s]+")


class MailHall(Hall):
    def settle(self) -> None:
        """Wait until the notices heard so far are emailed (or set aside) and sent."""
        self.idle()
        self.client.portal.call(self.client.app.state.email.settled)  # type: ignore[union-attr]

    def person(self, guest: Guest) -> Person:
        me = guest.get("/api/me").json()["player"]
        return Person(me["id"], me["name"])

    def play(self, table: str, guest: Guest) -> None:
        hall = self.client.app.state.hall  # type: ignore[union-attr]
        self.client.portal.call(play_first, hall, table, self.person(guest))  # type: ignore[union-attr]

    def waits_for(self, table: str, guest: Guest) -> bool:
        mine = {t["id"]: t for t in guest.get("/api/me/tables").json()["tables"]}
        return bool(mine[table]["your_turn"])


@pytest.fixture
def inbox() -> Iterator[Inbox]:
    with smtp_server() as received:
        yield received


@pytest.fixture
def hall(tmp_path, inbox: Inbox) -> Iterator[MailHall]:
    with running(tmp_path, ManualClock(), inbox) as hall:
        yield hall


@contextmanager
def running(tmp_path, clock: ManualClock, inbox: Inbox) -> Iterator[MailHall]:
    """The hall on ``tmp_path`` (again, for a restart), sending its email to ``inbox``."""
    with TestClient(mail_app(tmp_path, clock, inbox)) as client:
        yield MailHall(client, clock)


def mail_app(tmp_path, clock: ManualClock, inbox: Inbox) -> Starlette:
    mail = MailSettings(
        host="127.0.0.1",
        port=inbox.port,
        security="none",
        sender="Domino Hall <hall@hall.test>",
        public_url="http://hall.test",
        every=EVERY,
        retries=(0.2,),
    )
    return create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=clock,
        bot_delay=0,
        rng=random.Random(5),
        heartbeat=False,
        mail=mail,
    )


def links_in(message: EmailMessage) -> list[str]:
    body = message.get_body(("plain",))
    assert body is not None
    return LINK.findall(body.get_content())


def path_of(link: str) -> str:
    return link.removeprefix("http://hall.test")


def confirmed(hall: MailHall, inbox: Inbox, guest: Guest, address: str) -> None:
    answer = guest.post("/api/me/email", {"address": address})
    assert answer.status_code == 200, answer.text
    assert answer.json()["email"] == {
        "available": True,
        "address": address,
        "confirmed": False,
        "notify": True,
        "every_minutes": EVERY / 60,
    }
    hall.settle()
    [confirmation] = inbox.to(address)
    assert "Confirm" in confirmation["Subject"]
    [link] = [u for u in links_in(confirmation) if "/email/confirm?" in u]
    opened = hall.client.get(path_of(link), follow_redirects=False)  # no sign-in needed
    assert opened.status_code == 303 and opened.headers["location"] == "/my-games?email=confirmed"
    assert guest.get("/api/me/email").json()["email"]["confirmed"] is True


def a_table_waiting_for(
    hall: MailHall, host: Guest, other: Guest, whom: Guest, timer: str = "day"
) -> str:
    """A started two-seat table (turn-based unless told) where it is ``whom``'s turn."""
    answer = host.post("/api/tables", {"seats": 2, "timer": timer})
    assert answer.status_code == 200, answer.text
    table = answer.json()["table"]["id"]
    other.post(f"/api/tables/{table}/join")
    host.post(f"/api/tables/{table}/start")
    hall.idle()
    if not hall.waits_for(table, whom):
        hall.play(table, other if whom is host else host)
    assert hall.waits_for(table, whom)
    return table


def test_your_turn_by_email_once_per_turn_and_once_per_period(hall: MailHall, inbox: Inbox):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    confirmed(hall, inbox, ann, "ann@example.org")

    first = a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    [notice] = inbox.to("ann@example.org")[1:]
    assert notice["Subject"].startswith("Your turn: Draw to 50 with Bob")
    assert notice["From"] == "Domino Hall <hall@hall.test>"
    links = links_in(notice)
    assert f"http://hall.test/t/{first}" in links
    [stop] = [u for u in links if "/email/unsubscribe?" in u]
    assert notice["List-Unsubscribe"] == f"<{stop}>"
    # As sent, not decoded: one line, the URL in angle brackets (RFC 2369), no encoded-words,
    # or mail programs find no URL there and show no unsubscribe button.
    raw = dict(notice.raw_items())
    assert raw["List-Unsubscribe"] == f"<{stop}>"
    assert raw["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # Within the period: a turn at another table waits; the same turn told again is not news.
    second = a_table_waiting_for(hall, ann, bob, ann)
    hall_obj = hall.client.app.state.hall
    version = hall_obj.rooms.get(first).state.version
    again = YourTurn(first, 0, version, 0.0)
    hall.client.portal.call(hall_obj.broker.tell, hall.person(ann).id, again)
    hall.settle()
    assert len(inbox.to("ann@example.org")) == 2, "a second email within the period"
    hall.client.portal.call(hall.clock.advance, EVERY)
    hall.settle()
    [digest] = inbox.to("ann@example.org")[2:]
    links = links_in(digest)
    assert f"http://hall.test/t/{second}" in links
    assert f"http://hall.test/t/{first}" not in links, "the same turn emailed twice"

    # The link asks first (a mail filter opening every link must not unsubscribe anyone); its
    # button, with no sign-in, stops the notices.
    opened = hall.client.get(path_of(stop), follow_redirects=False)
    assert opened.status_code == 200 and "ann@example.org" in opened.text
    for sheet in re.findall(r'<link rel="stylesheet" href="([^"]+)"', opened.text):
        assert "immutable" in hall.client.get(sheet).headers["cache-control"], sheet  # release's
    assert ann.get("/api/me/email").json()["email"]["notify"] is True
    [action] = re.findall(r'<form method="post" action="([^"]+)"', opened.text)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]+)"', opened.text))
    assert html.unescape(action) == path_of(stop)
    pressed = hall.client.post(
        html.unescape(action),
        content=urlencode(fields),
        headers={
            "content-type": "application/x-www-form-urlencoded",
            "sec-fetch-site": "same-origin",
        },
        follow_redirects=False,
    )
    assert pressed.status_code == 303, pressed.text
    assert pressed.headers["location"] == "/my-games?email=unsubscribed"
    assert ann.get("/api/me/email").json()["email"]["notify"] is False
    hall.client.portal.call(hall.clock.advance, EVERY)
    a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    assert len(inbox.to("ann@example.org")) == 3
    assert {m["To"] for m in inbox.messages} == {"ann@example.org"}, "Bob asked for nothing"


def test_nothing_goes_to_an_address_not_confirmed_and_a_failure_is_retried(
    hall: MailHall, inbox: Inbox
):
    cid, dee = hall.guest("Cid"), hall.guest("Dee")
    assert cid.post("/api/me/email", {"address": "cid@example.org"}).status_code == 200
    hall.settle()
    assert len(inbox.to("cid@example.org")) == 1  # the confirmation, nothing more
    again = cid.post("/api/me/email", {"address": "cid@example.org"})
    assert again.status_code == 429 and again.json()["error"]["code"] == "too_many_emails"
    a_table_waiting_for(hall, cid, dee, cid)
    hall.settle()
    assert len(inbox.to("cid@example.org")) == 1, "a notice to an address not confirmed"

    inbox.refuse = 1  # the server is busy once: the email comes a little later
    confirmed_link = None
    dee.post("/api/me/email", {"address": "dee@example.org"})
    hall.settle()
    assert inbox.to("dee@example.org") == []
    for _ in range(100):  # the retry waits 0.2 s (real time)
        if inbox.to("dee@example.org"):
            confirmed_link = links_in(inbox.to("dee@example.org")[0])
            break
        time.sleep(0.05)
    assert confirmed_link, "not retried"


def test_a_turn_begun_before_the_address_was_confirmed_is_not_emailed(hall: MailHall, inbox: Inbox):
    """docs/protocol.md 9: notices go from the confirmation on; a turn already waiting is not
    one of them, the next turn is."""
    cid, dee = hall.guest("Cid"), hall.guest("Dee")
    assert cid.post("/api/me/email", {"address": "cid@example.org"}).status_code == 200
    hall.settle()
    table = a_table_waiting_for(hall, cid, dee, cid)
    hall.settle()
    [confirmation] = inbox.to("cid@example.org")
    [link] = [u for u in links_in(confirmation) if "/email/confirm?" in u]
    assert hall.client.get(path_of(link), follow_redirects=False).status_code == 303
    assert cid.get("/api/me/email").json()["email"]["confirmed"] is True
    hall.client.portal.call(hall.clock.advance, EVERY)
    hall.settle()
    assert len(inbox.to("cid@example.org")) == 1, "the turn begun before was emailed"

    hall.play(table, cid)  # Cid's turn over, then Dee's: Cid's next turn is news
    hall.play(table, dee)
    assert hall.waits_for(table, cid)
    hall.settle()
    [notice] = inbox.to("cid@example.org")[1:]
    assert notice["Subject"].startswith("Your turn: Draw to 50 with Dee")


def test_the_settings_refuse_what_is_not_an_address_and_stale_links(hall: MailHall, inbox: Inbox):
    ann = hall.guest("Ann")
    assert hall.client.get("/api/me/email").status_code == 401
    for bad in ("ann", "ann@", "ann@example", "a b@example.org", "ann@exa mple.org", "<a@b.org>"):
        answer = ann.post("/api/me/email", {"address": bad})
        assert answer.status_code == 400 and answer.json()["error"]["code"] == "bad_email", bad
    answer = ann.post("/api/me/email", {"notify": True})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "no_email"
    ann.post("/api/me/email", {"address": "ann@Example.ORG"})
    hall.settle()
    [old] = [u for u in links_in(inbox.messages[0]) if "/email/confirm?" in u]
    hall.advance(61)
    ann.post("/api/me/email", {"address": "ann2@example.org"})  # changed her mind
    assert inbox.messages[0]["To"] == "ann@example.org"
    opened = hall.client.get(path_of(old), follow_redirects=False)
    assert opened.headers["location"] == "/my-games?email=stale"
    assert ann.get("/api/me/email").json()["email"]["confirmed"] is False
    forged = hall.client.get("/email/unsubscribe?token=x.y", follow_redirects=False)
    assert forged.headers["location"] == "/my-games?email=bad-link"
    forgotten = ann.post("/api/me/email", {"address": None}).json()["email"]
    assert forgotten["address"] is None and forgotten["notify"] is False


def test_a_mail_program_unsubscribes_with_one_click(hall: MailHall, inbox: Inbox):
    """RFC 8058: the provider's server posts ``List-Unsubscribe=One-Click`` as a form, with no
    cookie and no Origin. Any other form post, or a forged token, changes nothing."""
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    confirmed(hall, inbox, ann, "ann@example.org")
    a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    [stop] = [u for u in links_in(inbox.to("ann@example.org")[-1]) if "/email/unsubscribe?" in u]
    form = {"content-type": "application/x-www-form-urlencoded"}
    body = "List-Unsubscribe=One-Click"
    hall.client.cookies.clear()

    forged = hall.client.post("/email/unsubscribe?token=x.y", content=body, headers=form)
    assert forged.status_code == 404
    elsewhere = hall.client.post("/api/me/email", content=body, headers=form)
    assert elsewhere.status_code == 415 and elsewhere.json()["error"]["code"] == "bad_content_type"
    from_a_page = hall.client.post(
        path_of(stop), content=body, headers={**form, "sec-fetch-site": "cross-site"}
    )
    assert from_a_page.status_code == 403
    assert ann.get("/api/me/email").json()["email"]["notify"] is True

    done = hall.client.post(path_of(stop), content=body, headers=form)
    assert done.status_code == 200, done.text
    assert ann.get("/api/me/email").json()["email"]["notify"] is False


def test_a_real_time_turn_is_never_emailed(hall: MailHall, inbox: Inbox):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    confirmed(hall, inbox, ann, "ann@example.org")
    a_table_waiting_for(hall, ann, bob, ann, timer="relaxed")  # 50 s: gone before anyone reads it
    hall.settle()
    turn_based = a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    [_, notice] = inbox.to("ann@example.org")
    assert [u for u in links_in(notice) if "/t/" in u] == [f"http://hall.test/t/{turn_based}"]


def test_a_reminder_is_emailed_once_per_turn_too(hall: MailHall, inbox: Inbox):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    confirmed(hall, inbox, ann, "ann@example.org")
    table = a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    hall_obj = hall.client.app.state.hall
    state = hall_obj.rooms.get(table).state
    reminder = Reminder(table, 0, state.version, 0.0, 0.0)
    for _ in range(2):  # told twice (a restart): emailed once
        hall.client.portal.call(hall.clock.advance, EVERY)
        hall.client.portal.call(hall_obj.broker.tell, hall.person(ann).id, reminder)
        hall.settle()
    [_, _, low] = inbox.to("ann@example.org")
    assert low["Subject"].startswith("Your clock is running low: Draw to 50 with Bob")
    assert f"http://hall.test/t/{table}" in links_in(low)


def test_a_turn_and_its_reminder_waiting_together_make_one_line(hall: MailHall, inbox: Inbox):
    """With a long wait between emails, a table's "your turn" and its reminder can wait for the
    same email: the table is named once, as running low, and neither is emailed again."""
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    confirmed(hall, inbox, ann, "ann@example.org")
    a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    table = a_table_waiting_for(hall, ann, bob, ann)  # within the limit: it waits
    hall_obj = hall.client.app.state.hall
    version = hall_obj.rooms.get(table).state.version
    reminder = Reminder(table, 0, version, 0.0, 0.0)
    hall.client.portal.call(hall_obj.broker.tell, hall.person(ann).id, reminder)
    hall.settle()
    assert len(inbox.to("ann@example.org")) == 2
    hall.client.portal.call(hall.clock.advance, EVERY)
    hall.settle()
    [both] = inbox.to("ann@example.org")[2:]
    assert both["Subject"].startswith("Your clock is running low: Draw to 50 with Bob")
    assert [u for u in links_in(both) if "/t/" in u] == [f"http://hall.test/t/{table}"]
    your_turn = YourTurn(table, 0, version, 0.0)
    for notice in (your_turn, reminder):  # told again (a restart): emailed already
        hall.client.portal.call(hall.clock.advance, EVERY)
        hall.client.portal.call(hall_obj.broker.tell, hall.person(ann).id, notice)
        hall.settle()
    assert len(inbox.to("ann@example.org")) == 3


def test_a_restart_loses_no_notice_and_repeats_none(tmp_path, inbox: Inbox):
    """A turn emailed before a restart is not emailed again after it; a turn whose email waited
    for the end of the player's limit when the hall stopped is emailed after it."""
    clock = ManualClock()
    with running(tmp_path, clock, inbox) as hall:
        ann, bob = hall.guest("Ann"), hall.guest("Bob")
        confirmed(hall, inbox, ann, "ann@example.org")
        emailed = a_table_waiting_for(hall, ann, bob, ann)
        hall.settle()
        [first] = inbox.to("ann@example.org")[1:]
        assert f"http://hall.test/t/{emailed}" in links_in(first)
        waiting = a_table_waiting_for(hall, ann, bob, ann)  # within the limit: it waits
        hall.settle()
        assert len(inbox.to("ann@example.org")) == 2

    # Down for a few seconds: the restart gives the clocks back, an event in each table's log.
    clock = ManualClock(start=clock.now() + 3)
    with running(tmp_path, clock, inbox) as hall:
        hall.settle()
        assert len(inbox.to("ann@example.org")) == 2, "the limit holds across the restart"
        hall.client.portal.call(clock.advance, EVERY)
        hall.settle()
        [after] = inbox.to("ann@example.org")[2:]
        links = links_in(after)
        assert f"http://hall.test/t/{waiting}" in links
        assert f"http://hall.test/t/{emailed}" not in links, "a turn emailed twice"
        hall.client.portal.call(clock.advance, 3 * EVERY)
        hall.settle()
        assert len(inbox.to("ann@example.org")) == 3


def test_a_reminder_that_waited_for_the_limit_is_emailed_after_a_restart(tmp_path, inbox: Inbox):
    """The table gives a reminder once a turn and keeps that it gave it; one that waited for the
    end of the player's limit when the hall stopped is emailed after the restart, once."""
    clock = ManualClock()
    with running(tmp_path, clock, inbox) as hall:
        ann, bob = hall.guest("Ann"), hall.guest("Bob")
        confirmed(hall, inbox, ann, "ann@example.org")
        low = a_table_waiting_for(hall, ann, bob, ann)
        hall.settle()
        state = hall.client.app.state.hall.rooms.get(low).state  # type: ignore[attr-defined]
        reminder_at = state.reminder_at
        assert reminder_at is not None
        hall.client.portal.call(clock.advance, reminder_at - 2 - clock.now())
        # Ann's turn at a second table, emailed: the reminder just after it waits for the limit.
        a_table_waiting_for(hall, ann, bob, ann)
        hall.settle()
        assert len(inbox.to("ann@example.org")) == 3
        hall.client.portal.call(clock.advance, 3)
        hall.settle()
        assert state.reminded_turn == state.turns, "the table gave its reminder"
        assert len(inbox.to("ann@example.org")) == 3, "the reminder waits for the limit"

    clock = ManualClock(start=clock.now() + 3)
    with running(tmp_path, clock, inbox) as hall:
        hall.client.portal.call(clock.advance, EVERY)
        hall.settle()
        [after] = inbox.to("ann@example.org")[3:]
        assert after["Subject"].startswith("Your clock is running low: Draw to 50 with Bob")
        assert [u for u in links_in(after) if "/t/" in u] == [f"http://hall.test/t/{low}"]
        hall.client.portal.call(clock.advance, 3 * EVERY)
        hall.settle()
        assert len(inbox.to("ann@example.org")) == 4, "a reminder emailed twice"


def test_a_challenge_to_a_turn_based_game_is_emailed_a_real_time_one_not(
    hall: MailHall, inbox: Inbox
):
    ann, bob = account(hall, "ann"), account(hall, "bob")
    confirmed(hall, inbox, bob, "bob@example.org")
    assert ann.post("/api/challenges", {"username": "bob"}).status_code == 200  # real-time
    hall.settle()
    assert len(inbox.to("bob@example.org")) == 1  # the confirmation only
    [open_one] = bob.get("/api/me/challenges").json()["challenges"]
    ann.post(f"/api/challenges/{open_one['id']}/cancel")
    assert ann.post("/api/challenges", {"username": "bob", "timer": "day"}).status_code == 200
    hall.settle()
    [_, challenge] = inbox.to("bob@example.org")
    assert challenge["Subject"] == "ann challenges you · Domino Hall"
    body = challenge.get_body(("plain",))
    assert body is not None and "turn-based game: Draw to" in body.get_content()
    assert "http://hall.test/my-games" in links_in(challenge)


# The words each language's emails use (the catalogs' own, so a changed translation shows here).
IN_LANGUAGE = {
    "es": {
        "confirm": "Confirma tu dirección · Domino Hall",
        "days": "(vale durante 7 días)",
        "turn": "Te toca: Con robo a 50 con Bob",
        "left": "Con robo a 50 con Bob: 1 día para jugar",
        "two": "Te toca en 2 partidas · Domino Hall",
        "tables": "Te toca jugar en estas mesas:",
        "page": "¿Dejar de recibir los correos de la sala?",
    },
    "pt-BR": {
        "confirm": "Confirme seu endereço · Domino Hall",
        "days": "(ele vale por 7 dias)",
        "turn": "Sua vez: Com compra até 50 com Bob",
        "left": "Com compra até 50 com Bob: 1 dia para jogar",
        "two": "Sua vez em 2 partidas · Domino Hall",
        "tables": "É a sua vez nestas mesas:",
        "page": "Parar os e-mails do salão?",
    },
}


@pytest.mark.parametrize("tag", sorted(IN_LANGUAGE))
def test_emails_go_in_the_accounts_language(hall: MailHall, inbox: Inbox, tag: str):
    """Issue 26: the account's language, not the request's, chooses the emails' words; counts
    take their plural forms ("7 días", "2 partidas"), and the unsubscribe page follows too."""
    words = IN_LANGUAGE[tag]
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    assert ann.post("/api/me/language", {"language": tag}).status_code == 200
    answer = ann.post("/api/me/email", {"address": "ann@example.org"})
    assert answer.status_code == 200, answer.text
    hall.settle()
    [confirmation] = inbox.to("ann@example.org")
    assert confirmation["Subject"] == words["confirm"]
    body = confirmation.get_body(("plain",))
    assert body is not None and words["days"] in body.get_content()
    [link] = [u for u in links_in(confirmation) if "/email/confirm?" in u]
    hall.client.get(path_of(link), follow_redirects=False)

    a_table_waiting_for(hall, ann, bob, ann)
    hall.settle()
    [notice] = inbox.to("ann@example.org")[1:]
    assert notice["Subject"] == f"{words['turn']} · Domino Hall"
    text = notice.get_body(("plain",)).get_content()  # type: ignore[union-attr]
    assert words["left"] in text, text
    assert "Your turn" not in text and "Hello" not in text

    # Two turns waiting at the end of the period go in one email, its subject a plural.
    a_table_waiting_for(hall, ann, bob, ann)
    a_table_waiting_for(hall, ann, bob, ann)
    hall.client.portal.call(hall.clock.advance, EVERY)
    hall.settle()
    [digest] = inbox.to("ann@example.org")[2:]
    assert digest["Subject"] == words["two"]
    assert words["tables"] in digest.get_body(("plain",)).get_content()  # type: ignore[union-attr]

    # The unsubscribe page is in the account's language, whatever the browser that opens it says.
    [stop] = [u for u in links_in(digest) if "/email/unsubscribe?" in u]
    opened = hall.client.get(path_of(stop), headers={"Accept-Language": "en"})
    assert words["page"] in opened.text and f'<html lang="{tag}">' in opened.text
