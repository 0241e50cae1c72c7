"""The HTTP API of docs/protocol.md, every request good and bad."""

from __future__ import annotations

import pytest

from dominohall.rules.record import check_record

JSON = {"Content-Type": "application/json"}


def error_of(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    return answer.json()["error"]["code"]


def test_health_and_the_page(hall):
    assert hall.client.get("/healthz").json() == {"ok": True}
    page = hall.client.get("/")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    assert b"<html" in page.content
    assert hall.client.get("/t/abcdefgh").content == page.content


def test_a_guest_signs_in_with_a_nickname_and_stays_signed_in(hall):
    assert hall.client.get("/api/me").json() == {"player": None}
    ann = hall.guest("Ann")
    me = ann.get("/api/me").json()["player"]
    assert me["name"] == "Ann" and me["guest"] and me["username"] is None
    renamed = ann.post("/api/guest", {"name": "  Ann Lee "}).json()["player"]
    assert renamed == {**me, "name": "Ann Lee"}


@pytest.mark.parametrize("name", ["", "   ", "x" * 21, "<b>Ann</b>", "Ann  Lee", "a;b"])
def test_a_name_that_is_not_plain_is_refused(hall, name):
    assert error_of(hall.client.post("/api/guest", json={"name": name}), 400) == "bad_name"


@pytest.mark.parametrize("name", [7, None, ["Ann"], {"name": "Ann"}, True])
def test_a_name_that_is_not_a_string_is_a_bad_request(hall, name):
    assert error_of(hall.client.post("/api/guest", json={"name": name}), 400) == "bad_request"


def test_names_in_other_scripts_are_names(hall):
    assert hall.client.post("/api/guest", json={"name": "Zoë O'Neil-Ruiz"}).status_code == 200


def test_a_body_that_is_not_a_json_object_is_refused(hall):
    assert (
        error_of(hall.client.post("/api/guest", content=b"{nope", headers=JSON), 400) == "bad_json"
    )
    assert error_of(hall.client.post("/api/guest", json=[1]), 400) == "bad_request"


def test_accounts_sign_in_out_and_a_guest_claims_one(hall):
    ann = hall.guest("Ann")
    guest_id = ann.get("/api/me").json()["player"]["id"]
    answer = ann.post("/api/accounts", {"username": "Ann_1", "password": "correct horse"})
    player = answer.json()["player"]
    assert player == {
        "id": guest_id,
        "name": "Ann",
        "username": "ann_1",
        "guest": False,
        "language": None,
    }
    ann.cookie = answer.cookies["dominohall"]  # claiming an account starts a new session
    assert error_of(
        ann.post("/api/accounts", {"username": "ann_2", "password": "12345678"}), 409
    ) == ("already_account")
    out = hall.client.post("/api/sign-out", headers=ann.headers)
    assert out.json() == {"player": None} and 'dominohall=""' in out.headers["set-cookie"]
    hall.client.cookies.clear()
    signed = hall.client.post(
        "/api/sign-in", json={"username": "ANN_1", "password": "correct horse"}
    )
    assert signed.json()["player"]["id"] == guest_id
    hall.client.cookies.clear()
    wrong = hall.client.post("/api/sign-in", json={"username": "ann_1", "password": "wrong horse"})
    assert error_of(wrong, 401) == "wrong_password"
    nobody = hall.client.post("/api/sign-in", json={"username": "zed", "password": "wrong horse"})
    assert error_of(nobody, 401) == "wrong_password"
    again = hall.client.post("/api/accounts", json={"username": "ann_1", "password": "12345678"})
    assert error_of(again, 409) == "username_taken"
    hall.client.cookies.clear()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"username": "ab", "password": "12345678"}, "bad_username"),
        ({"username": "a b c", "password": "12345678"}, "bad_username"),
        ({"username": "abc", "password": "1234567"}, "bad_password"),
        ({"username": "abc", "password": 12345678}, "bad_password"),
        ({"username": "abc", "password": "12345678", "name": "<i>"}, "bad_name"),
    ],
)
def test_a_bad_account_is_refused(hall, body, code):
    assert error_of(hall.client.post("/api/accounts", json=body), 400) == code


def test_presets_are_listed(hall):
    presets = hall.client.get("/api/presets").json()["presets"]
    assert [p["id"] for p in presets][:3] == ["draw", "block", "all-fives"]


def test_the_presets_answer_carries_the_pools_the_timers_and_the_levels(hall):
    # The page's first load asks for this answer only: the ranked pools (docs/ratings.md) and
    # the timers (the same list as GET /api/timers) come with the presets.
    answer = hall.client.get("/api/presets").json()
    pools = {p["id"]: p for p in answer["pools"]}
    assert list(pools) == ["draw", "block", "all-fives", "partnership"]
    assert pools["draw"] == {
        "id": "draw",
        "name": "Draw",
        "preset": "draw",
        "target": 50,
        "players": [2, 3, 4],
        "teams": False,
        "timers": {"real-time": "normal", "turn-based": "day"},
    }
    assert (pools["all-fives"]["name"], pools["all-fives"]["target"]) == ("All Fives", 50)
    partnership = pools["partnership"]
    assert (partnership["target"], partnership["players"], partnership["teams"]) == (100, [4], True)
    assert answer["timers"] == hall.client.get("/api/timers").json()["timers"]
    assert answer["levels"] == [
        {"id": "easy", "name": "Easy"},
        {"id": "normal", "name": "Normal"},
        {"id": "hard", "name": "Hard"},
    ]
    timers = {t["id"] for t in answer["timers"]}
    assert all(set(p["timers"].values()) <= timers for p in pools.values())


def test_creating_joining_seating_bots_removing_and_starting(hall):
    ann, bob, cid = hall.guest("Ann"), hall.guest("Bob"), hall.guest("Cid")
    table = ann.post("/api/tables", {"preset": "muggins", "seats": 4, "timer": "quick"}).json()
    assert table["seat"] == 0
    table = table["table"]
    assert (table["preset"], table["target"], table["turn_seconds"]) == ("muggins", 100, 12.5)
    tid = table["id"]
    assert [t["id"] for t in hall.client.get("/api/tables").json()["tables"]] == [tid]
    assert bob.post(f"/api/tables/{tid}/join").json()["seat"] == 1
    assert error_of(bob.post(f"/api/tables/{tid}/join"), 409) == "already_seated"
    assert error_of(cid.post(f"/api/tables/{tid}/join", {"seat": 1}), 409) == "seat_taken"
    assert error_of(cid.post(f"/api/tables/{tid}/join", {"seat": 9}), 400) == "no_seat"
    assert error_of(cid.post(f"/api/tables/{tid}/join", {"seat": "2"}), 400) == "bad_request"
    assert (
        error_of(bob.post(f"/api/tables/{tid}/bots", {"seat": 2, "bot": "easy"}), 403) == "not_host"
    )
    assert error_of(ann.post(f"/api/tables/{tid}/bots", {"seat": 2, "bot": "evil"}), 400) == (
        "bad_option"
    )
    assert ann.post(f"/api/tables/{tid}/bots", {"seat": 2, "bot": "easy"}).status_code == 200
    assert error_of(ann.post(f"/api/tables/{tid}/start"), 409) == "seats_not_filled"
    assert error_of(ann.post(f"/api/tables/{tid}/remove", {"seat": 0}), 400) == "bad_request"
    assert error_of(ann.post(f"/api/tables/{tid}/remove", {"seat": 3}), 400) == "no_seat"
    removed = ann.post(f"/api/tables/{tid}/remove", {"seat": 1}).json()["table"]
    assert removed["seats"][1] == {"seat": 1, "kind": "empty", "name": None, "bot": None}
    cid.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/bots", {"seat": 3, "bot": "normal"})
    assert error_of(bob.post(f"/api/tables/{tid}/start"), 403) == "not_host"
    started = ann.post(f"/api/tables/{tid}/start").json()["table"]
    assert started["phase"] == "playing"
    assert error_of(bob.post(f"/api/tables/{tid}/join"), 409) == "not_seating"
    assert hall.client.get("/api/tables").json()["tables"] == []


def test_private_tables_are_not_listed_and_a_host_who_leaves_hands_over(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 3, "private": True}).json()["table"]["id"]
    assert hall.client.get("/api/tables").json()["tables"] == []
    bob.post(f"/api/tables/{tid}/join")
    assert ann.post(f"/api/tables/{tid}/leave").json()["table"]["host"] == 1
    assert bob.post(f"/api/tables/{tid}/leave").json()["table"]["phase"] == "finished"
    assert error_of(bob.post(f"/api/tables/{tid}/leave"), 400) == "not_seated"
    assert error_of(hall.client.get(f"/games/{tid}/record"), 404) == "no_game"  # never played


@pytest.mark.parametrize(
    "body",
    [
        {"preset": "chess"},
        {"preset": "draw", "target": 75},
        {"preset": "partnership", "seats": 2},
        {"seats": 5},
        {"timer": "slow"},
        {"private": False, "timer": "slow"},
        {"seats": 2, "bots": [None]},
        {"seats": 2, "bots": ["normal", None]},
        {"seats": 2, "bots": [None, "grandmaster"]},
    ],
)
def test_table_options_the_hall_does_not_offer_are_refused(hall, body):
    ann = hall.guest("Ann")
    assert error_of(ann.post("/api/tables", body), 400) == "bad_option"


def test_signing_in_comes_first_and_unknown_tables_are_not_found(hall):
    assert error_of(hall.client.post("/api/tables", json={}), 401) == "not_signed_in"
    assert error_of(hall.client.post("/api/play-with-bots", json={}), 401) == "not_signed_in"
    assert error_of(hall.client.get("/api/tables/nosuchtb"), 404) == "no_table"
    ann = hall.guest("Ann")
    assert error_of(ann.post("/api/tables/nosuchtb/join"), 404) == "no_table"
    assert error_of(hall.client.get("/games/nosuchtb/record"), 404) == "no_game"


def test_play_with_bots_starts_at_once_and_the_record_comes_when_the_game_is_over(hall):
    ann = hall.guest("Ann")
    assert error_of(ann.post("/api/play-with-bots", {"bot": "evil"}), 400) == "bad_option"
    table = ann.post("/api/play-with-bots", {"preset": "block"}).json()["table"]
    assert table["phase"] == "playing" and table["seats"][1]["bot"] == "normal"
    tid = table["id"]
    assert error_of(hall.client.get(f"/games/{tid}/record"), 409) == "game_not_over"
    ann.post(f"/api/tables/{tid}/leave")  # two players: leaving forfeits
    answer = hall.client.get(f"/games/{tid}/record")
    assert answer.status_code == 200 and "attachment" in answer.headers["content-disposition"]
    record = answer.json()
    assert record["result"] == {"reason": "forfeit", "winner": 1, "placed_last": [0]}
    assert check_record(record)["ok"]
