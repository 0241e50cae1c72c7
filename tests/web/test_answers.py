"""The answers HTTP handlers share: a refusal as its status with the code and message, and a
rate limit's Retry-After."""

from __future__ import annotations

from starlette.applications import Starlette
from starlette.routing import Route
from starlette.testclient import TestClient

from dominohall.hall import HallError
from dominohall.web.answers import hall_error
from dominohall.web.ratelimit import TooMany


def raises(error: HallError):
    async def endpoint(request):
        raise error

    return endpoint


def client() -> TestClient:
    app = Starlette(
        routes=[
            Route("/missing", raises(HallError("no_table", "there is no table 'x'"))),
            Route("/bad", raises(HallError("bad_option", "unknown game 'chess'"))),
            Route("/slow", raises(TooMany("too_many_attempts", "slow down", 2.2))),
            Route("/limit", raises(TooMany("too_many_tables", "finish a game first"))),
        ],
        exception_handlers={HallError: hall_error},
    )
    return TestClient(app, base_url="http://127.0.0.1")


def test_a_refusal_answers_its_status_with_the_code_and_the_message():
    answer = client().get("/missing")
    assert answer.status_code == 404
    assert answer.json() == {"error": {"code": "no_table", "message": "there is no table 'x'"}}
    assert "retry-after" not in answer.headers
    assert client().get("/bad").status_code == 400


def test_a_rate_limit_says_in_whole_seconds_when_to_come_back_when_it_knows():
    slow = client().get("/slow")
    assert slow.status_code == 429
    assert slow.headers["retry-after"] == "3"
    assert slow.json()["error"]["code"] == "too_many_attempts"
    assert "retry-after" not in client().get("/limit").headers
