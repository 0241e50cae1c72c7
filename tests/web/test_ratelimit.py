"""Limits: password guessing slowed per account and per address (never locking the owner out),
accounts and tables per address, a player's unfinished tables."""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import redis
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from dominohall.hall import ManualClock
from dominohall.web import create_app
from dominohall.web.live_sockets import TOO_MANY_SOCKETS
from dominohall.web.proxy import Proxies, address_key
from dominohall.web.ratelimit import Limit, Limits, MemoryBuckets
from hall.conftest import REDIS_URL

# The hall behind a proxy on 127.0.0.1: each test says which client address a request is from.
PROXY = ("127.0.0.1", 5000)


class Hall:
    def __init__(self, client: TestClient, clock: ManualClock) -> None:
        self.client = client
        self.clock = clock

    def post(self, path: str, body=None, *, frm: str, cookie: str | None = None):
        headers = {"X-Forwarded-For": frm}
        if cookie:
            headers["Cookie"] = f"dominohall={cookie}"
        answer = self.client.post(path, json=body or {}, headers=headers)
        self.client.cookies.clear()
        return answer

    def sign_in(self, username: str, password: str, frm: str):
        return self.post("/api/sign-in", {"username": username, "password": password}, frm=frm)

    def advance(self, seconds: float) -> None:
        self.client.portal.call(self.clock.advance, seconds)  # type: ignore[union-attr]


def make_hall(tmp_path, limits: Limits) -> Iterator[Hall]:
    clock = ManualClock()
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=clock,
        bot_delay=0,
        rng=random.Random(3),
        heartbeat=False,
        trusted_proxies=["127.0.0.1"],
        limits=limits,
    )
    with TestClient(app, client=PROXY) as client:
        yield Hall(client, clock)


@pytest.fixture
def hall(tmp_path) -> Iterator[Hall]:
    yield from make_hall(tmp_path, Limits())  # the defaults a hall serves with


def refusal(answer, code: str) -> int:
    """The Retry-After of a 429 with ``code``."""
    assert answer.status_code == 429, answer.text
    assert answer.json()["error"]["code"] == code
    return int(answer.headers["retry-after"])


def test_wrong_passwords_are_slowed_for_the_guesser_and_never_for_the_owner(hall):
    assert (
        hall.post(
            "/api/accounts", {"username": "ann", "password": "correct horse"}, frm="10.0.0.9"
        ).status_code
        == 200
    )
    guesser, owner = "203.0.113.5", "198.51.100.7"
    for i in range(10):  # the default: 10 wrong passwords per 15 minutes, per account+address
        assert hall.sign_in("ann", f"guess {i:03}", guesser).status_code == 401
    wait = refusal(hall.sign_in("ann", "guess 999", guesser), "too_many_attempts")
    assert wait == 90  # one more guess each 1.5 minutes
    # Even the right password is not checked from the guesser's address...
    refusal(hall.sign_in("ann", "correct horse", guesser), "too_many_attempts")
    # ...while the owner, elsewhere, signs in at once.
    assert hall.sign_in("ann", "correct horse", owner).status_code == 200
    hall.advance(wait)
    assert hall.sign_in("ann", "guess 998", guesser).status_code == 401
    refusal(hall.sign_in("ann", "guess 997", guesser), "too_many_attempts")


def test_one_address_guessing_many_accounts_is_slowed_and_others_are_not(hall):
    for i, name in enumerate(("ann", "bob", "cid", "dan")):
        body = {"username": name, "password": "correct horse"}
        assert hall.post("/api/accounts", body, frm=f"10.0.1.{i}").status_code == 200
    guesser = "203.0.113.5"
    for i in range(30):  # the default: 30 wrong passwords per 15 minutes per address
        user = ("ann", "bob", "cid")[i % 3]
        assert hall.sign_in(user, f"guess {i:03}", guesser).status_code == 401
    refusal(hall.sign_in("dan", "guess", guesser), "too_many_attempts")
    assert hall.sign_in("dan", "correct horse", "198.51.100.7").status_code == 200


def test_a_right_password_clears_the_owners_own_count(hall):
    hall.post("/api/accounts", {"username": "ann", "password": "correct horse"}, frm="10.0.0.9")
    home = "198.51.100.7"
    for _ in range(3):
        for i in range(9):
            assert hall.sign_in("ann", f"typo {i}", home).status_code == 401
        assert hall.sign_in("ann", "correct horse", home).status_code == 200


@pytest.fixture
def strict(tmp_path) -> Iterator[Hall]:
    yield from make_hall(tmp_path, Limits(sign_in_per_account=Limit(3, 900)))


def test_guesses_sent_at_once_all_count(strict):
    body = {"username": "ann", "password": "correct horse"}
    assert strict.post("/api/accounts", body, frm="10.0.0.9").status_code == 200

    async def guess_at_once() -> list[int]:
        transport = httpx.ASGITransport(app=strict.client.app, client=PROXY)
        async with httpx.AsyncClient(transport=transport, base_url="http://testserver") as c:
            wrong = {"username": "ann", "password": "wrong horse"}
            headers = {"X-Forwarded-For": "203.0.113.5"}
            answers = await asyncio.gather(
                *(c.post("/api/sign-in", json=wrong, headers=headers) for _ in range(8))
            )
        return sorted(a.status_code for a in answers)

    assert strict.client.portal.call(guess_at_once) == [401] * 3 + [429] * 5


def test_the_forwarded_address_counts_only_from_a_trusted_proxy(tmp_path):
    # No trusted proxy: X-Forwarded-For is anyone's to write, so it does not change the address.
    clock = ManualClock()
    app = create_app(
        database_url=f"sqlite+aiosqlite:///{tmp_path / 'hall.db'}",
        data=tmp_path,
        clock=clock,
        heartbeat=False,
        limits=Limits(sign_in_per_account=Limit(2, 900)),
    )
    with TestClient(app, client=PROXY) as client:
        body = {"username": "ann", "password": "wrong horse"}
        codes = [
            client.post(
                "/api/sign-in", json=body, headers={"X-Forwarded-For": f"10.9.9.{i}"}
            ).status_code
            for i in range(3)
        ]
        assert codes == [401, 401, 429]


def test_accounts_from_one_address_are_limited(hall):
    for i in range(10):  # the default: 10 an hour
        answer = hall.post(
            "/api/accounts", {"username": f"user{i}", "password": "12345678"}, frm="203.0.113.5"
        )
        assert answer.status_code == 200, answer.text
    answer = hall.post(
        "/api/accounts", {"username": "user10", "password": "12345678"}, frm="203.0.113.5"
    )
    assert refusal(answer, "too_many_accounts") == 360
    assert "10 per hour" in answer.json()["error"]["message"]
    assert (
        hall.post(
            "/api/accounts", {"username": "user11", "password": "12345678"}, frm="198.51.100.7"
        ).status_code
        == 200
    )
    hall.advance(360)
    assert (
        hall.post(
            "/api/accounts", {"username": "user12", "password": "12345678"}, frm="203.0.113.5"
        ).status_code
        == 200
    )


def guest(hall: Hall, frm: str) -> str:
    answer = hall.post("/api/guest", {"name": "Ann"}, frm=frm)
    assert answer.status_code == 200, answer.text
    return answer.cookies["dominohall"]


def test_a_player_may_sit_at_ten_unfinished_tables_when_making_another(hall):
    ann = guest(hall, "203.0.113.5")
    tables = []
    for _ in range(10):
        answer = hall.post("/api/tables", {"seats": 2}, frm="203.0.113.5", cookie=ann)
        assert answer.status_code == 200, answer.text
        tables.append(answer.json()["table"]["id"])
    for path, body in (("/api/tables", {"seats": 2}), ("/api/play-with-bots", {})):
        answer = hall.post(path, body, frm="203.0.113.5", cookie=ann)
        assert answer.status_code == 429 and answer.json()["error"]["code"] == "too_many_tables"
        assert "(10)" in answer.json()["error"]["message"]
        assert "retry-after" not in answer.headers  # it is not a matter of time
    hall.post(f"/api/tables/{tables[0]}/leave", frm="203.0.113.5", cookie=ann)
    assert hall.post("/api/tables", {"seats": 2}, frm="203.0.113.5", cookie=ann).status_code == 200


def test_tables_made_from_one_address_are_limited_per_minute(hall):
    frm = "203.0.113.5"
    guests = [guest(hall, frm) for _ in range(3)]
    for i in range(20):  # the default: 20 a minute (each guest under its own limit of 10)
        answer = hall.post("/api/play-with-bots", {}, frm=frm, cookie=guests[i % 3])
        assert answer.status_code == 200, answer.text
    answer = hall.post("/api/tables", {"seats": 2}, frm=frm, cookie=guests[2])
    assert refusal(answer, "too_many_tables") == 3
    assert "20 per minute" in answer.json()["error"]["message"]
    other = guest(hall, "198.51.100.7")
    assert (
        hall.post("/api/tables", {"seats": 2}, frm="198.51.100.7", cookie=other).status_code == 200
    )
    hall.advance(3)
    assert hall.post("/api/tables", {"seats": 2}, frm=frm, cookie=guests[2]).status_code == 200


def test_a_refused_table_is_not_counted(hall):
    ann = guest(hall, "203.0.113.5")
    for _ in range(25):
        bad = hall.post("/api/tables", {"preset": "chess"}, frm="203.0.113.5", cookie=ann)
        assert bad.json()["error"]["code"] == "bad_option"
    assert hall.post("/api/tables", {"seats": 2}, frm="203.0.113.5", cookie=ann).status_code == 200


@pytest.mark.parametrize(
    ("text", "limit"),
    [("10/15m", Limit(10, 900)), ("5/1h", Limit(5, 3600)), ("20/m", Limit(20, 60)), ("off", None)],
)
def test_a_limit_is_written_count_per_time(text, limit):
    assert Limit.parse(text) == limit
    if limit is not None:
        assert Limit.parse(str(limit)) == limit


@pytest.mark.parametrize("text", ["10", "10/", "ten/1m", "0/1m", "10/1w", "-1/1m"])
def test_a_limit_that_is_not_one_is_refused(text):
    with pytest.raises(ValueError, match="COUNT/TIME"):
        Limit.parse(text)


def test_buckets_refill_evenly_and_forget_full_ones():
    now = [0.0]
    buckets = MemoryBuckets(Limit(2, 60), lambda: now[0])
    assert asyncio.run(buckets.take("a")) == 0
    assert asyncio.run(buckets.take("a")) == 0
    assert asyncio.run(buckets.take("a")) == pytest.approx(30)  # refused: nothing taken
    now[0] = 15
    assert asyncio.run(buckets.take("a")) == pytest.approx(15)
    now[0] = 60
    buckets.forget_full()
    assert len(buckets) == 0 and asyncio.run(buckets.take("a")) == 0


def scope(peer: str, forwarded: str | None = None) -> dict:
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    return {"type": "http", "client": (peer, 1), "headers": headers}


def test_the_client_is_the_first_address_the_trusted_proxies_did_not_add():
    proxies = Proxies(["10.0.0.0/8", "::1"])
    assert proxies.client(scope("10.0.0.1", "198.51.100.7")) == "198.51.100.7"
    # The client wrote a first entry of its own; the proxies' entries are on the right.
    assert proxies.client(scope("10.0.0.1", "1.2.3.4, 198.51.100.7, 10.0.0.2")) == "198.51.100.7"
    assert proxies.client(scope("192.0.2.1", "198.51.100.7")) == "192.0.2.1"  # not a proxy
    assert proxies.client(scope("::1", "garbage")) == "::1"
    assert proxies.client(scope("10.0.0.1")) == "10.0.0.1"


def test_ipv6_addresses_count_by_their_64_prefix():
    assert address_key("2001:db8:1:2::5") == address_key("2001:db8:1:2:ffff::1")
    assert address_key("2001:db8:1:3::5") != address_key("2001:db8:1:2::5")
    assert address_key("::ffff:198.51.100.7") == "198.51.100.7"
    assert address_key("198.51.100.7") == "198.51.100.7"


def test_bad_trusted_proxies_are_refused_by_name():
    with pytest.raises(ValueError, match="'proxy.example'"):
        Proxies(["10.0.0.1", "proxy.example"])


@pytest.fixture
def redis_prefix() -> Iterator[str]:
    """Keys of the test's own on the machine's Redis, deleted after."""
    client = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1)
    try:
        client.ping()
    except (redis.ConnectionError, OSError):
        pytest.skip("Redis is not running at 127.0.0.1:6379 (scripts/services.sh starts it)")
    name = f"test:{uuid.uuid4().hex}:"
    try:
        yield name
        keys = list(client.scan_iter(match=f"{name}*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.mark.postgresql
def test_two_processes_share_the_limit_of_tables_from_one_address(
    tmp_path, postgres_database: str, redis_prefix: str
):
    """Two hall processes on one database and one Redis, a client spreading its tables over
    both: the limit holds for the two together (in each process's memory it would be twice)."""

    def process(name: str) -> Hall:
        clock = ManualClock()
        app = create_app(
            database_url=postgres_database,
            data=tmp_path / name,
            clock=clock,
            bot_delay=0,
            heartbeat=False,
            trusted_proxies=["127.0.0.1"],
            limits=Limits(tables_per_address=Limit(3, 60)),
            redis_url=REDIS_URL,
            redis_prefix=redis_prefix,
        )
        return Hall(TestClient(app, client=PROXY), clock)

    one, two = process("a"), process("b")
    with one.client, two.client:
        ann = guest(one, "203.0.113.5")
        for through in (one, two, one):
            answer = through.post("/api/tables", {"seats": 2}, frm="203.0.113.5", cookie=ann)
            assert answer.status_code == 200, answer.text
        for through in (one, two):
            answer = through.post("/api/tables", {"seats": 2}, frm="203.0.113.5", cookie=ann)
            assert refusal(answer, "too_many_tables") == 20
        other = guest(two, "198.51.100.7")
        answer = two.post("/api/tables", {"seats": 2}, frm="198.51.100.7", cookie=other)
        assert answer.status_code == 200, answer.text


@pytest.mark.postgresql
def test_two_processes_share_the_cap_on_sockets_from_one_address(
    tmp_path, postgres_database: str, redis_prefix: str
):
    """Sockets from one address spread over two hall processes: the cap holds for both together."""

    def process(name: str) -> Hall:
        clock = ManualClock()
        app = create_app(
            database_url=postgres_database,
            data=tmp_path / name,
            clock=clock,
            bot_delay=0,
            heartbeat=False,
            trusted_proxies=["127.0.0.1"],
            limits=Limits(sockets_per_address=2),
            redis_url=REDIS_URL,
            redis_prefix=redis_prefix,
        )
        return Hall(TestClient(app, client=PROXY), clock)

    def lobby(through: Hall, frm: str) -> Any:
        return through.client.websocket_connect("/ws/lobby", headers={"X-Forwarded-For": frm})

    one, two = process("a"), process("b")
    with one.client, two.client:
        with lobby(one, "203.0.113.5") as first, lobby(two, "203.0.113.5") as second:
            assert first.receive_json()["type"] == second.receive_json()["type"] == "lobby"
            for through in (one, two):
                with (
                    lobby(through, "203.0.113.5") as third,
                    pytest.raises(WebSocketDisconnect) as shut,
                ):
                    third.receive_json()
                assert shut.value.code == TOO_MANY_SOCKETS
            with lobby(two, "198.51.100.7") as other:  # another address has its own
                assert other.receive_json()["type"] == "lobby"
        with lobby(two, "203.0.113.5") as again:  # both closed: room again
            assert again.receive_json()["type"] == "lobby"
