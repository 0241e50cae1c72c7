"""Input a hostile client sends: deep nesting, wrong types, unknown options, odd ids (issue 8)."""

from __future__ import annotations

import pytest

from .test_http import error_of
from .test_socket import Sock, first_move, mover_of, refused, two_players

pytestmark = pytest.mark.timeout(60)

NESTED = "[" * 10_000 + "]" * 10_000  # 20 KB
JSON = {"Content-Type": "application/json"}


def test_deeply_nested_json_is_bad_json_over_http_signed_in_or_not(hall):
    answer = hall.client.post("/api/guest", content=NESTED, headers=JSON)
    assert error_of(answer, 400) == "bad_json"
    ann = hall.guest("Ann")
    nested_option = '{"timer": ' + "[" * 40 + "]" * 40 + "}"
    for body in (NESTED, nested_option):
        answer = hall.client.post("/api/tables", content=body, headers={**ann.headers, **JSON})
        assert error_of(answer, 400) == "bad_json"
        assert "deeper" in answer.json()["error"]["message"] or body is NESTED
    assert (
        error_of(hall.client.post("/api/guest", content=b"{nope", headers=JSON), 400) == "bad_json"
    )


def test_nesting_up_to_the_limit_is_still_read(hall):
    ann = hall.guest("Ann")
    body = '{"bots": ' + "[" * 31 + "]" * 31 + "}"  # depth 32: JSON, read, then refused by type
    answer = hall.client.post("/api/tables", content=body, headers={**ann.headers, **JSON})
    assert error_of(answer, 400) == "bad_request"


def test_deeply_nested_json_is_bad_json_on_the_socket_and_the_socket_goes_on(hall):
    with two_players(hall) as (_tid, socks):
        mover, _ = mover_of(socks)
        version = mover.version
        mover.ws.send_text(NESTED)
        answer = mover.ws.receive_json()
        assert (answer["type"], answer["code"], answer["id"]) == ("error", "bad_json", None)
        mover.ws.send_text('{"type": "play", "id": 3, "tile": ' + "[" * 50 + "]" * 50 + "}")
        assert mover.ws.receive_json()["code"] == "bad_json"
        assert mover.ask(first_move(mover.moves))["version"] == version + 1


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"timer": []}, "timer"),
        ({"timer": {}}, "timer"),
        ({"preset": ["draw"]}, "preset"),
        ({"preset": {"id": "draw"}}, "preset"),
        ({"target": "50"}, "target"),
        ({"target": 50.0}, "target"),
        ({"seats": True}, "seats"),
        ({"seats": [2]}, "seats"),
        ({"private": "yes"}, "private"),
        ({"private": 1}, "private"),
        ({"bots": "normal"}, "bots"),
        ({"seats": 2, "bots": [None, 3]}, "bots"),
        ({"seats": 2, "bots": [None, ["hard"]]}, "bots"),
    ],
)
def test_a_table_option_of_the_wrong_type_is_a_bad_request_naming_it(hall, body, field):
    ann = hall.guest("Ann")
    answer = ann.post("/api/tables", body)
    assert error_of(answer, 400) == "bad_request"
    assert repr(field) in answer.json()["error"]["message"]
    assert hall.client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize("key", ["timers", "Preset", "colour", ""])
def test_an_unknown_table_option_is_refused_by_name(hall, key):
    ann = hall.guest("Ann")
    answer = ann.post("/api/tables", {"preset": "draw", key: 1})
    assert error_of(answer, 400) == "bad_option"
    assert repr(key) in answer.json()["error"]["message"]
    assert hall.client.get("/api/tables").json()["tables"] == []


@pytest.mark.parametrize(
    "body",
    [{"bot": ["hard"]}, {"bot": 1}, {"preset": 7}, {"preset": {}}, {"preset": "draw", "seats": 2}],
)
def test_play_with_bots_checks_its_body(hall, body):
    ann = hall.guest("Ann")
    code = "bad_option" if "seats" in body else "bad_request"
    assert error_of(ann.post("/api/play-with-bots", body), 400) == code


def test_seat_numbers_and_computer_players_of_the_wrong_type_are_bad_requests(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 3}).json()["table"]["id"]
    for seat in ("1", 1.0, True, [1], {"seat": 1}):
        assert error_of(bob.post(f"/api/tables/{tid}/join", {"seat": seat}), 400) == "bad_request"
        assert error_of(ann.post(f"/api/tables/{tid}/remove", {"seat": seat}), 400) == (
            "bad_request"
        )
        assert error_of(
            ann.post(f"/api/tables/{tid}/bots", {"seat": seat, "bot": "easy"}), 400
        ) == ("bad_request")
    for bot in (None, 1, ["easy"], {}):
        assert error_of(ann.post(f"/api/tables/{tid}/bots", {"seat": 1, "bot": bot}), 400) == (
            "bad_request"
        )
    assert error_of(bob.post(f"/api/tables/{tid}/join", {"seat": 1, "sit": 1}), 400) == (
        "bad_request"
    )
    assert error_of(ann.post(f"/api/tables/{tid}/remove", {}), 400) == "bad_request"
    seats = hall.client.get(f"/api/tables/{tid}").json()["table"]["seats"]
    assert [s["kind"] for s in seats] == ["human", "empty", "empty"]


@pytest.mark.parametrize(
    ("text", "request_id"),
    [
        ('{"type": "castle", "id": 5}', 5),
        ('{"type": "castle", "id": "a"}', "a"),
        ('{"id": 2.5}', 2.5),
        ('{"type": "play", "id": -7}', -7),
        ('{"type": "play", "tile": 64, "id": "x"}', "x"),
        ('{"type": "draw", "until_fits": "x", "id": 1}', 1),
        ('{"type": "play", "tile": "7-4", "id": 9}', 9),
        ('{"type": "pass", "id": 12345678901234567890}', 12345678901234567890),
    ],
)
def test_the_error_for_a_message_with_a_valid_id_echoes_it(hall, text, request_id):
    with two_players(hall) as (_tid, socks):
        mover, _ = mover_of(socks)
        mover.ws.send_text(text)
        answer = mover.ws.receive_json()
        assert answer["type"] == "error" and answer["id"] == request_id, answer


@pytest.mark.parametrize(
    "text",
    ['{"type": "ping", "id": "' + "x" * 65 + '"}', '{"type": "ping", "id": true}', "[1]"],
)
def test_an_invalid_id_is_not_echoed(hall, text):
    with two_players(hall) as (_tid, socks):
        socks[0].ws.send_text(text)
        answer = socks[0].ws.receive_json()
        assert (answer["type"], answer["code"], answer["id"]) == ("error", "bad_message", None)


def test_any_json_number_or_short_string_is_an_id(hall):
    with two_players(hall) as (_tid, socks):
        for request_id in (0.25, -3, 1e300, "x" * 64, "", "é☃"):
            socks[0].ws.send_json({"type": "ping", "id": request_id})
            assert socks[0].ws.receive_json() == {"type": "pong", "id": request_id}


def test_an_anonymous_leave_is_not_seated(hall):
    with (
        two_players(hall) as (tid, _socks),
        hall.client.websocket_connect(f"/ws/tables/{tid}") as ws,
    ):
        anonymous = Sock(ws)
        anonymous.hello()
        assert refused(anonymous, {"type": "leave"}) == "not_seated"
        assert refused(anonymous, {"type": "pass"}) == "spectator"


def test_hello_with_any_version_gets_the_whole_state(hall):
    """The version is allowed and ignored (docs/protocol.md 3.1): null, one beyond the table's (a
    restored backup), and one that is no version at all each get the whole state."""
    with two_players(hall) as (tid, socks):
        version = socks[0].version
        with hall.client.websocket_connect(f"/ws/tables/{tid}") as ws:
            for seen in (None, version + 100, version, -5, "x", 1.5, [1], {"v": 1}, True):
                ws.send_json({"type": "hello", "version": seen})
                welcome = ws.receive_json()
                assert (welcome["type"], welcome["version"], welcome["protocol"]) == (
                    "welcome",
                    version,
                    2,
                )
                state = ws.receive_json()
                assert (state["type"], state["version"], state["events"]) == ("state", version, [])
                assert state["state"]["hand"]["turn"] == socks[0].state["hand"]["turn"]
