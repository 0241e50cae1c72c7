"""A player's own data: the export file, and deleting the account (its games stay, anonymous)."""

from __future__ import annotations

from functools import partial

from dominohall.hall import messages
from dominohall.hall.accounts import Room
from dominohall.rules.record import check_record
from hall.test_messages import problems
from web.test_games import play_a_game, signed
from web.test_ranked import error_of


def test_the_export_holds_the_profile_every_game_and_its_record(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    tables = [play_a_game(hall, ann, bob, private=True), play_a_game(hall, bob, ann)]
    answer = ann.get("/api/me/export")
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == (
        'attachment; filename="dominohall-ann-export.json"'
    )
    document = answer.json()
    assert problems(document, messages.Export) == []
    assert document["format"] == "dominohall-export/1"
    assert document["player"]["username"] == "ann" and document["player"]["name"] == "Ann"
    assert [g["id"] for g in document["games"]] == tables[::-1]
    assert [g["seat"] for g in document["games"]] == [1, 0]
    for game in document["games"]:
        assert check_record(game["record"])["ok"]
        assert game["record"]["players"] == [p["name"] for p in game["players"]]
    assert document["stats"]["games"] == 2
    assert error_of(hall.client.get("/api/me/export"), 401)[0] == "not_signed_in"


def test_deleting_an_account_keeps_its_games_under_an_anonymous_name(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    table = play_a_game(hall, ann, bob)
    code, _ = error_of(ann.post("/api/me/delete", {"password": "not it at all"}), 401)
    assert code == "wrong_password"
    assert error_of(ann.post("/api/me/delete", {}), 400)[0] == "bad_request"
    # Not while seated at an unfinished table.
    waiting = ann.post("/api/tables", {}).json()["table"]["id"]
    code, message = error_of(ann.post("/api/me/delete", {"password": "correct horse"}), 409)
    assert code == "unfinished_tables" and "1 unfinished table" in message
    assert ann.post(f"/api/tables/{waiting}/leave").status_code == 200

    answer = ann.post("/api/me/delete", {"password": "correct horse"})
    assert answer.status_code == 200, answer.text
    assert answer.json() == {"player": None, "deleted": True, "games": 1, "name": "Deleted player"}
    # The session ended; the username is free; the profile is gone.
    assert ann.get("/api/me").json() == {"player": None}
    assert error_of(hall.client.get("/api/players/ann"), 404)[0] == "no_player"
    signing = hall.client.post(
        "/api/sign-in", json={"username": "ann", "password": "correct horse"}
    )
    assert error_of(signing, 401)[0] == "wrong_password"
    # The game stays, with the anonymous name in its page and record.
    game = bob.get(f"/api/games/{table}").json()["game"]
    assert [(p["name"], p["username"]) for p in game["players"]] == [
        ("Deleted player", None),
        ("Bob", "bob"),
    ]
    record = hall.client.get(f"/games/{table}/record").json()
    assert record["players"] == ["Deleted player", "Bob"]
    seats = hall.client.get(f"/api/tables/{table}").json()["table"]["seats"]
    assert [s["name"] for s in seats] == ["Deleted player", "Bob"]
    assert [g["id"] for g in bob.get("/api/me/games").json()["games"]] == [table]
    # A new account may take the name.
    assert signed(hall, "Ann").get("/api/me").json()["player"]["username"] == "ann"


def test_a_guest_may_delete_itself_without_a_password(hall):
    gus, bob = signed(hall, "Gus", username=False), signed(hall, "Bob")
    table = play_a_game(hall, gus, bob)
    answer = gus.post("/api/me/delete", {})
    assert answer.status_code == 200, answer.text
    assert [p["name"] for p in bob.get(f"/api/games/{table}").json()["game"]["players"]] == [
        "Deleted player",
        "Bob",
    ]


def test_the_export_holds_ones_chat_lines_reports_mutes_and_blocks(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    gus = signed(hall, "Gus", username=False)
    table = play_a_game(hall, ann, bob)
    store = hall.client.app.state.hall.store
    call = hall.client.portal.call
    said = call(partial(store.chat.add, table, Room.PLAYERS, ann.id, 1.0, text="<b>gl</b>"))
    call(partial(store.chat.add, table, Room.PLAYERS, ann.id, 2.0, phrase="good_game"))
    rude = call(partial(store.chat.add, table, Room.SPECTATORS, gus.id, 3.0, text="rude"))
    call(partial(store.chat.add, table, Room.PLAYERS, bob.id, 4.0, text="Bob's, not Ann's"))
    call(partial(store.moderation.report, ann.id, gus.id, "insult", 5.0, line_id=rude.id))
    call(store.moderation.block, ann.id, bob.id, 6.0)
    document = ann.get("/api/me/export").json()
    assert problems(document, messages.Export) == []
    assert document["chat"] == [
        {"table": table, "room": "players", "text": "<b>gl</b>", "at": 1.0},
        {"table": table, "room": "players", "phrase": "good_game", "at": 2.0},
    ]
    assert said.id > 0
    assert document["reports"] == [
        {"reported": gus.id, "line": rude.id, "reason": "insult", "at": 5.0, "closed": False}
    ]
    assert document["muted"] == [gus.id]  # the report muted him (a guest: by id)
    assert document["blocked"] == ["bob"]
    assert bob.get("/api/me/export").json()["reports"] == []
