"""Ranked play over HTTP: the queue pairs two accounts at a table, ratings show on profiles."""

from __future__ import annotations

from dominohall.hall import Person
from dominohall.store.ratings import StoredRating
from hall.helpers import idle
from hall.test_table_rules import play_to_the_end


def error_of(answer, status: int) -> tuple[str, str]:
    assert answer.status_code == status, answer.text
    return answer.json()["error"]["code"], answer.json()["error"]["message"]


def account(hall, name: str):
    player = hall.guest(name)
    answer = player.post("/api/accounts", {"username": name.lower(), "password": "correct horse"})
    assert answer.status_code == 200, answer.text
    player.cookie = answer.cookies["dominohall"]
    player.id = answer.json()["player"]["id"]
    return player


def test_two_accounts_queue_play_a_ranked_game_and_see_their_ratings(hall):
    ann, bob = account(hall, "Ann"), account(hall, "Bob")
    first = ann.post("/api/ranked/queue", {"pool": "draw", "players": 2}).json()
    assert first["seeking"]["pool"] == "draw" and first["seeking"]["rating"] == 1500
    assert first["queue"] == {"waiting": 1, "average_wait": None}
    assert ann.get("/api/ranked/queue").json()["seeking"]["ranked"] is True
    second = bob.post("/api/ranked/queue", {"pool": "draw", "players": 2}).json()
    assert second["seeking"] is None and second["table"]
    table = second["table"]
    assert ann.get("/api/ranked/queue").json() == {"seeking": None, "table": table}
    # One unfinished real-time ranked game at a time.
    code, message = error_of(ann.post("/api/ranked/queue", {"pool": "block"}), 409)
    assert code == "cannot_queue" and "unfinished real-time ranked game" in message

    people = [Person(ann.id, "Ann"), Person(bob.id, "Bob")]
    state = hall.client.app.state.hall

    async def play() -> None:
        for person in people:
            await state.connect(table, person)  # as their sockets would
        await play_to_the_end(state, table, people)
        await idle(state)

    hall.client.portal.call(play)
    profile = ann.get("/api/players/ANN").json()
    assert profile["player"] == {"name": "Ann", "username": "ann"}
    [draw] = profile["ratings"]
    assert (draw["pool"], draw["speed"], draw["games"], draw["provisional"]) == (
        "draw",
        "real-time",
        1,
        True,
    )
    assert draw["label"] == f"{draw['rating']}?" and draw["rating"] != 1500
    assert [h["table"] for h in draw["history"]] == [table]
    assert draw["history"][0]["change"] == draw["rating"] - 1500
    bob_change = bob.get("/api/players/bob").json()["ratings"][0]["history"][0]["change"]
    seats = hall.client.get(f"/api/games/{table}/ratings").json()["ratings"]
    assert sorted(s["change"] for s in seats) == sorted([bob_change, draw["history"][0]["change"]])
    assert all(s["after"] - s["before"] == s["change"] and s["pool"] == "draw" for s in seats)
    assert (bob_change > 0) != (draw["history"][0]["change"] > 0)
    # The game is over: Ann may queue again.
    assert ann.post("/api/ranked/queue", {"pool": "block"}).json()["seeking"]["pool"] == "block"
    assert ann.post("/api/ranked/queue/cancel").json() == {"cancelled": True}
    assert ann.post("/api/ranked/queue/cancel").json() == {"cancelled": False}


def test_the_ratings_of_a_game_that_is_not_there_are_404_as_the_game_is(hall):
    for path in ("/api/games/nosuch/ratings", "/api/games/nosuch"):
        code, message = error_of(hall.client.get(path), 404)
        assert code == "no_game" and "nosuch" in message


def test_a_real_time_seek_stays_while_its_player_is_there_and_leaves_once_away(hall):
    ann, bob, cid = account(hall, "Ann"), account(hall, "Bob"), account(hall, "Cid")
    matchmaker = hall.client.app.state.matchmaker
    seek = {"pool": "draw", "players": 2}
    assert ann.post("/api/ranked/queue", seek).json()["seeking"] is not None
    with hall.client.websocket_connect("/ws/me", headers=ann.headers) as page:
        assert page.receive_json()["type"] == "tables"  # (the socket is open at the server)
        hall.advance(120.0)  # her page open, never polling: she stays
        assert hall.client.portal.call(matchmaker.seeking, ann.id) is not None
    hall.advance(15.0)  # her tab closed: a grace for a reload
    assert hall.client.portal.call(matchmaker.seeking, ann.id) is not None
    hall.advance(1.0)
    assert hall.client.portal.call(matchmaker.seeking, ann.id) is None
    assert ann.get("/api/ranked/queue").json() == {"seeking": None, "table": None}
    # Nobody is paired with her closed tab: Bob waits.
    assert bob.post("/api/ranked/queue", seek).json()["seeking"] is not None
    assert bob.post("/api/ranked/queue/cancel").json() == {"cancelled": True}

    # With no socket, polling keeps the seek; 20 s without a poll and a 15 s grace end it.
    assert cid.post("/api/ranked/queue", {"pool": "block"}).json()["seeking"] is not None
    for _ in range(6):
        hall.advance(19.0)
        assert cid.get("/api/ranked/queue").json()["seeking"] is not None
    hall.advance(34.5)
    assert hall.client.portal.call(matchmaker.seeking, cid.id) is not None
    hall.advance(1.0)
    assert cid.get("/api/ranked/queue").json()["seeking"] is None


def test_ranked_play_is_for_accounts_quick_play_for_guests_too(hall):
    guest = hall.guest("Gus")
    code, message = error_of(guest.post("/api/ranked/queue", {"pool": "draw"}), 403)
    assert code == "account_needed"
    answer = guest.post("/api/ranked/queue", {"pool": "draw", "ranked": False}).json()
    assert answer["seeking"]["ranked"] is False and answer["seeking"]["rating"] is None


def test_a_bad_seek_is_refused_by_name(hall):
    ann = account(hall, "Ann")
    assert error_of(ann.post("/api/ranked/queue", {"pool": "chess"}), 400)[1].startswith(
        "unknown pool 'chess'"
    )
    _, message = error_of(ann.post("/api/ranked/queue", {"pool": "partnership", "players": 2}), 409)
    assert message == "pool partnership is played by (4,) players, not 2"
    _, message = error_of(ann.post("/api/ranked/queue", {"pool": "draw", "players": "two"}), 400)
    assert "'players' is a whole number" in message
    _, message = error_of(ann.post("/api/ranked/queue", {"pool": "draw", "colour": 1}), 400)
    assert "unknown field 'colour'" in message
    assert ann.get("/api/ranked/queue").json() == {"seeking": None, "table": None}
    assert error_of(ann.get("/api/players/nobody"), 404)[0] == "no_player"


def test_a_profile_says_how_many_games_make_a_rating_settled(hall):
    ann = account(hall, "Ann")
    store, now = hall.client.app.state.hall.store, hall.clock.now()
    most = hall.client.get("/api/players/ann").json()["provisional_games"]
    for pool, games in (("draw", most - 1), ("block", most)):
        rating = StoredRating(ann.id, pool, "real-time", 26.0, 2.0, games, now)
        hall.client.portal.call(store.ratings.put, rating)
    ratings = hall.client.get("/api/players/ann").json()["ratings"]
    assert {r["pool"]: r["provisional"] for r in ratings} == {"draw": True, "block": False}


def test_the_leaderboard_lists_settled_recent_players_best_first(hall):
    ann, bob, cid = account(hall, "Ann"), account(hall, "Bob"), account(hall, "Cid")
    store = hall.client.app.state.hall.store
    now = hall.clock.now()
    for who, mu, games in ((ann, 27.0, 12), (bob, 30.0, 40), (cid, 35.0, 3)):
        rating = StoredRating(who.id, "draw", "real-time", mu, 2.0, games, now)
        hall.client.portal.call(store.ratings.put, rating)
    board = hall.client.get("/api/leaderboard/draw").json()
    assert [p["username"] for p in board["players"]] == ["bob", "ann"]  # cid: too few games
    assert 3 < board["min_games"] <= 12 and board["days"] == 30  # as the page says them
    assert board["players"][0]["rating"] > board["players"][1]["rating"]
    assert hall.client.get("/api/leaderboard/draw?speed=turn-based").json()["players"] == []
    assert error_of(hall.client.get("/api/leaderboard/go"), 404)[0] == "no_pool"


def test_quick_play_offers_a_computer_after_a_visible_wait(hall):
    gus = hall.guest("Gus")
    waiting = gus.post("/api/ranked/queue", {"pool": "block", "players": 3, "ranked": False})
    assert waiting.json()["computer_after"] == 20.0
    code, message = error_of(gus.post("/api/ranked/queue/computer"), 409)
    assert code == "cannot_play_computer" and "after 20 s of waiting" in message
    hall.advance(20.0)
    answer = gus.post("/api/ranked/queue/computer")
    assert answer.status_code == 200, answer.text
    status = answer.json()
    assert status["seeking"] is None and status["table"]
    table = gus.get(f"/api/tables/{status['table']}").json()["table"]
    assert (table["preset"], table["phase"]) == ("block", "playing")
    assert [s["kind"] for s in table["seats"]] == ["human", "bot", "bot"]
    assert gus.get("/api/ranked/queue").json() == {"seeking": None, "table": status["table"]}
    # Turn-based seekers and ranked seekers are not offered one.
    tess = hall.guest("Tess")
    turn_based = {"pool": "draw", "ranked": False, "speed": "turn-based"}
    assert "computer_after" not in tess.post("/api/ranked/queue", turn_based).json()
    hall.advance(30.0)
    assert error_of(tess.post("/api/ranked/queue/computer"), 409)[0] == "cannot_play_computer"
    ann = account(hall, "Ann")
    assert "computer_after" not in ann.post("/api/ranked/queue", {"pool": "draw"}).json()
    hall.advance(30.0)
    assert error_of(ann.post("/api/ranked/queue/computer"), 409)[0] == "cannot_play_computer"
