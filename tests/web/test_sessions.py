"""Sessions kept by the hall: sign-out ends them, a new one at every sign-in, a lifetime, old cookies."""

from __future__ import annotations

import asyncio
import hashlib
import json

import pytest
from alembic import command
from alembic.config import Config
from itsdangerous import URLSafeTimedSerializer
from sqlalchemy import create_engine, insert, select, text, update

from dominohall.store import Store, schema
from dominohall.store.store import MIGRATIONS
from dominohall.web.sessions import clean_up

from .conftest import Guest

DAY = 24 * 3600.0


def me(hall, cookie: str):
    answer = hall.client.get("/api/me", headers={"Cookie": f"dominohall={cookie}"})
    hall.client.cookies.clear()
    return answer.json()["player"]


def account(hall, username: str, password: str = "correct horse") -> Guest:
    answer = hall.client.post("/api/accounts", json={"username": username, "password": password})
    assert answer.status_code == 200, answer.text
    hall.client.cookies.clear()
    return Guest(hall.client, answer.cookies["dominohall"])


def sign_in(hall, username: str, password: str = "correct horse", cookie: str | None = None):
    headers = {"Cookie": f"dominohall={cookie}"} if cookie else {}
    answer = hall.client.post(
        "/api/sign-in", json={"username": username, "password": password}, headers=headers
    )
    hall.client.cookies.clear()
    return answer


def store_of(hall) -> Store:
    return hall.client.app.state.hall.store


def run(hall, query):
    """Run a statement on the hall's database; rows for a select."""

    async def go():
        async with store_of(hall).engine.begin() as conn:
            result = await conn.execute(query)
            return result.all() if result.returns_rows else None

    return hall.client.portal.call(go)


def test_signing_out_ends_the_session_and_a_copy_of_the_cookie_with_it(hall):
    ann = hall.guest("Ann")
    copy = ann.cookie
    assert me(hall, copy)["name"] == "Ann"
    out = ann.post("/api/sign-out")
    assert out.json() == {"player": None}
    assert me(hall, copy) is None
    assert ann.post("/api/tables", {"seats": 2}).status_code == 401


def test_sign_out_everywhere_ends_every_session_of_the_player(hall):
    laptop = account(hall, "ann")
    phone = sign_in(hall, "ann").cookies["dominohall"]
    bob = hall.guest("Bob")
    assert me(hall, phone)["username"] == "ann"
    answer = laptop.post("/api/sign-out-everywhere")
    assert answer.status_code == 200 and answer.json() == {"player": None}
    assert 'dominohall=""' in answer.headers["set-cookie"]
    assert me(hall, laptop.cookie) is None and me(hall, phone) is None
    assert me(hall, bob.cookie)["name"] == "Bob"  # nobody else's
    assert hall.client.post("/api/sign-out-everywhere").status_code == 401


def test_signing_in_and_claiming_an_account_start_a_new_session(hall):
    ann = hall.guest("Ann")
    claimed = ann.post("/api/accounts", {"username": "ann", "password": "correct horse"})
    new = claimed.cookies["dominohall"]
    assert new != ann.cookie and me(hall, ann.cookie) is None
    assert me(hall, new)["username"] == "ann"
    # A session someone planted in the browser before the sign-in is not the one signed in.
    planted = hall.guest("Eve").cookie
    signed = sign_in(hall, "ann", cookie=planted).cookies["dominohall"]
    assert signed not in (planted, new)
    assert me(hall, planted) is None and me(hall, signed)["username"] == "ann"


def test_the_cookie_is_a_random_token_and_the_store_keeps_only_its_hash(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    assert ann.cookie != bob.cookie and len(ann.cookie) >= 43  # 256 random bits
    ids = {row[0] for row in run(hall, select(schema.sessions.c.id))}
    assert hashlib.sha256(ann.cookie.encode()).hexdigest() in ids
    assert ann.cookie not in ids
    assert me(hall, ann.cookie[:-1] + ("A" if ann.cookie[-1] != "A" else "B")) is None


def test_a_session_lasts_thirty_days_after_the_last_visit(hall):
    answer = hall.client.post("/api/guest", json={"name": "Ann"})
    hall.client.cookies.clear()
    assert "Max-Age=2592000" in answer.headers["set-cookie"]
    assert "HttpOnly" in answer.headers["set-cookie"]
    assert "samesite=lax" in answer.headers["set-cookie"].lower()
    cookie = answer.cookies["dominohall"]
    hall.advance(20 * DAY)
    visit = hall.client.get("/api/me", headers={"Cookie": f"dominohall={cookie}"})
    hall.client.cookies.clear()
    assert visit.json()["player"]["name"] == "Ann"
    assert f"dominohall={cookie}" in visit.headers["set-cookie"]  # the browser keeps it longer
    hall.advance(29 * DAY)  # 49 days after the start, 29 after the last visit
    assert me(hall, cookie)["name"] == "Ann"
    hall.advance(30 * DAY + 1)
    assert me(hall, cookie) is None


def test_the_cookie_is_secure_when_the_hall_is_reached_over_https(tmp_path):
    from starlette.testclient import TestClient

    from dominohall.web import create_app

    def cookie_of(headers: dict[str, str], **settings) -> str:
        app = create_app(
            database_url=f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", data=tmp_path, **settings
        )
        with TestClient(app, client=("10.0.0.2", 5000)) as client:
            answer = client.post("/api/guest", json={"name": "Ann"}, headers=headers)
            assert answer.status_code == 200, answer.text
            return answer.headers["set-cookie"].lower()

    https = {"X-Forwarded-Proto": "https"}
    assert "secure" not in cookie_of({})
    assert "secure" in cookie_of({}, secure_cookies=True)
    assert "secure" in cookie_of(https, trusted_proxies=["10.0.0.0/24"])
    assert "secure" not in cookie_of(https)  # from anyone, the header means nothing


def test_a_cookie_from_before_sessions_is_exchanged_once_and_the_guest_keeps_their_seat(
    hall, tmp_path
):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    ann_id = ann.get("/api/me").json()["player"]["id"]
    # Ann as she was before the upgrade: a signed player id, and no session.
    players = schema.players
    run(hall, update(players).where(players.c.id == ann_id).values(legacy_cookie=True))
    run(hall, schema.sessions.delete())
    secret = (tmp_path / "secret").read_text().strip()
    old = URLSafeTimedSerializer(secret, salt="dominohall-player").dumps(ann_id)
    old_ann = Guest(hall.client, old)
    # A socket cannot set a cookie: it honours the old one until a page request swaps it.
    with old_ann.socket(tid) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["you"]["seat"] == 0
    first = old_ann.get("/api/me")
    assert first.json()["player"]["id"] == ann_id
    new = first.cookies["dominohall"]
    assert "." not in new and new != old
    ann = Guest(hall.client, new)
    assert ann.post(f"/api/tables/{tid}/start").status_code == 200  # still the host at seat 0
    with ann.socket(tid) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["you"] == {"seat": 0, "player": ann_id, "name": "Ann"}
    # Exchanged once: a copy of the old cookie (taken before a sign-out, say) is worth nothing.
    assert me(hall, old) is None
    with old_ann.socket(tid) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["you"]["seat"] is None
    forged = URLSafeTimedSerializer("not the secret", salt="dominohall-player").dumps(ann_id)
    assert me(hall, forged) is None


def test_the_upgrade_keeps_old_players_able_to_exchange_their_cookie_and_notes_their_seats(
    tmp_path,
):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as conn:
        config = Config()
        config.set_main_option("script_location", str(MIGRATIONS))
        config.attributes["connection"] = conn
        command.upgrade(config, "0001")
        conn.execute(
            text(
                "INSERT INTO players (id, name, username, password_hash, created_at) "
                "VALUES ('p_ann', 'Ann', NULL, NULL, 1.0), ('p_bob', 'Bob', NULL, NULL, 1.0)"
            )
        )
        created = {
            "kind": "created",
            "options": {},
            "seats": [
                {"kind": "human", "player": "p_ann", "name": "Ann", "bot": None},
                {"kind": "empty", "player": None, "name": None, "bot": None},
            ],
        }
        joined = {"kind": "joined", "seat": 1, "player": "p_bob", "name": "Bob"}
        conn.execute(text("INSERT INTO tables (id, created_at) VALUES ('t1', 1.0)"))
        conn.execute(
            insert(schema.events),
            [
                {"table_id": "t1", "version": 1, "at": 1.0, "body": json.dumps(created)},
                {"table_id": "t1", "version": 2, "at": 2.0, "body": json.dumps(joined)},
            ],
        )
    engine.dispose()

    async def upgraded():
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'old.db'}")
        try:
            async with store.engine.connect() as conn:
                seats = (await conn.execute(select(schema.seats))).all()
                players = (
                    await conn.execute(select(schema.players.c.id, schema.players.c.seen_at))
                ).all()
            return seats, players, await store.legacy_cookie("p_ann")
        finally:
            await store.close()

    seats, players, legacy = asyncio.run(upgraded())
    assert sorted(seats) == [("p_ann", "t1"), ("p_bob", "t1")]
    assert legacy and all(seen > 1.0 for _, seen in players)  # counted from the upgrade


def test_a_player_changes_their_password_and_every_other_session_ends(hall):
    laptop = account(hall, "ann", "correct horse")
    phone = sign_in(hall, "ann").cookies["dominohall"]
    wrong = laptop.post("/api/password", {"password": "wrong horse", "new_password": "x" * 8})
    assert wrong.status_code == 401 and wrong.json()["error"]["code"] == "wrong_password"
    short = laptop.post("/api/password", {"password": "correct horse", "new_password": "short"})
    assert short.json()["error"]["code"] == "bad_password"
    assert me(hall, phone)["username"] == "ann"  # nothing changed by the refusals
    changed = laptop.post(
        "/api/password", {"password": "correct horse", "new_password": "battery staple"}
    )
    assert changed.status_code == 200 and changed.json()["player"]["username"] == "ann"
    assert me(hall, phone) is None and me(hall, laptop.cookie) is None
    assert me(hall, changed.cookies["dominohall"])["username"] == "ann"
    assert sign_in(hall, "ann", "correct horse").status_code == 401
    assert sign_in(hall, "ann", "battery staple").status_code == 200
    guest = hall.guest("Bob")
    answer = guest.post("/api/password", {"password": "whatever1", "new_password": "x" * 8})
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "no_account"
    assert hall.client.post("/api/password", json={}).status_code == 401


def test_idle_guests_with_no_game_are_forgotten(hall):
    idle = hall.guest("Idle")  # never sat anywhere
    left = hall.guest("Left")  # made a table and left it before the start: no game
    tid = left.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    left.post(f"/api/tables/{tid}/leave")
    waiting = hall.guest("Waiting")  # sits at a table still seating
    seating = waiting.post("/api/tables", {"seats": 3}).json()["table"]["id"]
    joined = hall.guest("Joined")  # joined that table
    joined.post(f"/api/tables/{seating}/join")
    played = hall.guest("Played")  # a finished game against a computer player
    game = played.post("/api/play-with-bots", {"bot": "easy"}).json()["table"]["id"]
    played.post(f"/api/tables/{game}/leave")  # a forfeit: the game is over, with a record
    hall.idle()
    assert hall.client.get(f"/games/{game}/record").status_code == 200
    user = account(hall, "ann")
    everyone = (idle, left, waiting, joined, played, user)
    ids = {g: me(hall, g.cookie)["id"] for g in everyone}
    for guest in everyone:
        guest.post("/api/sign-out")

    def forget(at: float) -> int:
        return hall.client.portal.call(clean_up, hall.client.app.state.accounts, at)

    now = hall.clock.now()
    assert forget(now + 29 * DAY) == 0  # not long enough
    assert forget(now + 31 * DAY) == 2
    left_ids = {row[0] for row in run(hall, select(schema.players.c.id))}
    assert left_ids == {ids[waiting], ids[joined], ids[played], ids[user]}
    assert not run(hall, select(schema.seats).where(schema.seats.c.player_id == ids[left]))


def test_a_guest_still_signed_in_is_not_forgotten(hall):
    ann = hall.guest("Ann")
    hall.advance(29 * DAY)
    assert me(hall, ann.cookie)["name"] == "Ann"  # a visit moves the session's end on
    at = hall.clock.now() + 2 * DAY
    assert hall.client.portal.call(clean_up, hall.client.app.state.accounts, at) == 0
    assert me(hall, ann.cookie)["name"] == "Ann"


@pytest.mark.parametrize("cookie", ["", "x", "a.b.c", "not.a.cookie" * 10])
def test_a_cookie_that_names_no_session_is_nobody(hall, cookie):
    assert me(hall, cookie) is None


def test_a_socket_does_not_move_the_sessions_end_where_the_cookie_cannot_follow(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    ann_id = me(hall, ann.cookie)["id"]
    tid = bob.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    hall.advance(2 * 3600)
    with ann.socket(tid) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["you"]["player"] == ann_id  # signed in on the socket
    ann_session = schema.sessions.c.player_id == ann_id
    seen = run(hall, select(schema.sessions.c.seen_at).where(ann_session))
    assert seen == [(hall.clock.now() - 2 * 3600,)]
    visit = hall.client.get("/api/me", headers=ann.headers)
    hall.client.cookies.clear()
    assert "Max-Age=2592000" in visit.headers["set-cookie"]
    seen = run(hall, select(schema.sessions.c.seen_at).where(ann_session))
    assert seen == [(hall.clock.now(),)]
