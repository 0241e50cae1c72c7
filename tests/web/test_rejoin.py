"""The way back over HTTP: GET /api/me/tables, POST .../rematch, Play now's choices."""

from __future__ import annotations


def error_of(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    return answer.json()["error"]["code"]


def test_my_tables_lists_where_i_sit_and_needs_a_sign_in(hall):
    assert error_of(hall.client.get("/api/me/tables"), 401) == "not_signed_in"
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    assert ann.get("/api/me/tables").json() == {"tables": []}
    game = ann.post(
        "/api/play-with-bots", {"preset": "all-fives", "target": 100, "bots": ["easy", "easy"]}
    ).json()["table"]
    bob.post("/api/tables", {"seats": 2})
    hall.idle()
    tables = ann.get("/api/me/tables").json()["tables"]
    assert [t["id"] for t in tables] == [game["id"]]
    mine = tables[0]
    assert mine["seat"] == 0 and mine["preset"] == "all-fives" and mine["target"] == 100
    assert [s["name"] for s in mine["seats"]] == ["Ann", "Easy", "Easy"]
    assert mine["phase"] == "playing" and mine["your_turn"] == (mine["turn"] == 0)


def test_a_rematch_over_http(hall):
    ann = hall.guest("Ann")
    table = ann.post("/api/play-with-bots", {"preset": "block"}).json()["table"]
    assert error_of(ann.post(f"/api/tables/{table['id']}/rematch", {}), 409) == "not_over"
    assert (
        error_of(ann.post(f"/api/tables/{table['id']}/rematch", {"accept": 1}), 400)
        == "bad_request"
    )
    ann.post(f"/api/tables/{table['id']}/leave")  # a forfeit ends it; Ann is out, not asked
    assert error_of(ann.post(f"/api/tables/{table['id']}/rematch"), 400) == "not_seated"


def test_play_now_reads_each_level_and_the_older_one_bot_form(hall):
    ann = hall.guest("Ann")
    old = ann.post("/api/play-with-bots", {"bot": "easy"}).json()["table"]  # the older form
    assert [s["bot"] for s in old["seats"]] == [None, "easy"] and old["preset"] == "draw"
    for body, code, words in [
        ({"bots": ["easy", "genius"]}, "bad_option", "computer player 2: a computer player is"),
        ({"bots": [None]}, "bad_option", "computer player 1: a level, not null"),
        ({"bots": "easy"}, "bad_request", "'bots' is a list of strings or nulls"),
        ({"bots": []}, "bad_option", "'bots' lists 1 to 3"),
    ]:
        answer = ann.post("/api/play-with-bots", body)
        assert error_of(answer, 400) == code
        assert words in answer.json()["error"]["message"]
