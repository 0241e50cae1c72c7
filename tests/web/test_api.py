"""The HTTP API's own logic (``web/api.py``): a table's options read from a body, the health
answer, a table made under the table limits (a refused one not counted), and the handlers'
refusals of a bad body, each named precisely with its status."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from dominohall.hall import HallError, Options
from dominohall.web.api import options_of
from dominohall.web.fields import Fields
from dominohall.web.ratelimit import Limit, Limits

from .conftest import Hall, hall_with

pytestmark = pytest.mark.timeout(60)

JSON = {"Content-Type": "application/json"}


def refused(answer: Any, status: int) -> tuple[str, str]:
    assert answer.status_code == status, answer.text
    error = answer.json()["error"]
    return error["code"], error["message"]


def _body(**fields: object) -> Fields:
    return Fields(fields, "bad_request", "the body is a JSON object, not {obj}")


def test_a_table_s_options_are_read_from_the_body_with_the_defaults_left_out():
    assert options_of(_body()) == Options()
    chosen = options_of(_body(preset="block", seats=3, timer="quick", private=True))
    assert chosen == Options("block", chosen.target, 3, "quick", private=True)
    with pytest.raises(HallError) as wrong_type:
        options_of(_body(seats="3"))
    assert (wrong_type.value.code, wrong_type.value.message) == (
        "bad_request",
        "'seats' is a whole number, not '3'",
    )
    with pytest.raises(HallError) as not_offered:
        options_of(_body(timer="glacial"))
    assert not_offered.value.code == "bad_option" and "'glacial'" in not_offered.value.message


def test_health_says_whether_the_hall_is_ready(hall: Hall) -> None:
    assert hall.client.get("/healthz").json() == {"ok": True}
    served = hall.client.app.state.hall  # type: ignore[attr-defined]
    served.ready = False
    try:
        answer = hall.client.get("/healthz")
        assert (answer.status_code, answer.json()) == (503, {"ok": False})
    finally:
        served.ready = True


BAD_BODIES = [  # (path, body, status, code, message); TABLE: a table of Ann's
    ("/api/tables", [1], 400, "bad_request", "the body is a JSON object, not [1]"),
    ("/api/tables", {"colour": "red"}, 400, "bad_option",
     "unknown field 'colour' (known: preset, target, seats, timer, private, "
     "open_to_watchers, bots)"),
    ("/api/tables", {"seats": 2, "bots": [None, "genius"]}, 400, "bad_option",
     "seat 1: a computer player is easy, normal or hard, not 'genius'"),
    ("/api/tables", {"bots": "easy"}, 400, "bad_request",
     "'bots' is a list of strings or nulls, not 'easy'"),
    ("/api/play-with-bots", {"bots": ["easy", None]}, 400, "bad_option",
     "computer player 2: a level, not null"),
    ("/api/play-with-bots", {"bot": "hardest"}, 400, "bad_option",
     "computer player 1: a computer player is easy, normal or hard, not 'hardest'"),
    ("/api/play-with-bots", {"seats": 3}, 400, "bad_option",
     "unknown field 'seats' (known: preset, bot, bots, target)"),
    ("/api/tables/TABLE/bots", {"bot": "easy"}, 400, "bad_request",
     "'seat' is needed: a whole number"),
    ("/api/tables/TABLE/remove", {"seat": 1, "why": "x"}, 400, "bad_request",
     "unknown field 'why' (known: seat)"),
    ("/api/tables/TABLE/start", {"now": True}, 400, "bad_request",
     "unknown field 'now' (this takes no fields)"),
    ("/api/tables/TABLE/watchers", {"open": "yes"}, 400, "bad_request",
     "'open' is true or false, not 'yes'"),
    ("/api/tables/TABLE/join", {"seat": 1.5}, 400, "bad_request",
     "'seat' is a whole number, not 1.5"),
    ("/api/me/language", {}, 400, "bad_request", "'language' is needed: a string"),
]  # fmt: skip


def test_a_bad_body_is_refused_by_name(hall: Hall) -> None:
    ann = hall.guest("Ann")
    table = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    for path, body, status, code, message in BAD_BODIES:
        answer = ann.post(path.replace("TABLE", table), body)
        assert refused(answer, status) == (code, message), (path, body)
    after = ann.get(f"/api/tables/{table}").json()["table"]  # nothing refused was done
    assert after["phase"] == "seating" and [s["kind"] for s in after["seats"]] == ["human", "empty"]


def test_a_table_command_needs_a_signed_in_player_and_a_known_language(hall: Hall) -> None:
    assert refused(hall.client.post("/api/tables", json={}), 401)[0] == "not_signed_in"
    assert refused(hall.client.post("/api/play-with-bots", json={}), 401)[0] == "not_signed_in"
    answer = hall.client.post("/api/me/language", json={"language": "xx-nope"})
    assert refused(answer, 400) == (
        "bad_request",
        "the hall does not speak 'xx-nope': one of en, es, pt-BR",
    )
    chosen = hall.client.post("/api/me/language", json={"language": "en"})
    assert chosen.json() == {"language": "en"} and "set-cookie" in chosen.headers


@pytest.fixture
def one_table(tmp_path) -> Iterator[Hall]:
    """A hall that makes one table a minute for an address."""
    yield from hall_with(tmp_path, limits=Limits(tables_per_address=Limit(1, 60)))


def test_a_refused_table_is_not_counted_against_the_table_limit(one_table: Hall) -> None:
    ann = one_table.guest("Ann")
    assert refused(ann.post("/api/tables", {"preset": "chess"}), 400)[0] == "bad_option"
    assert refused(ann.post("/api/play-with-bots", {"bots": [None]}), 400)[0] == "bad_option"
    assert ann.post("/api/tables", {"seats": 2}).status_code == 200  # the minute's one table
    code, _ = refused(ann.post("/api/play-with-bots", {"bot": "easy"}), 429)
    assert code == "too_many_tables"
