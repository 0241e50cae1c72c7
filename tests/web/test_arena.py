"""The arena over HTTP: an arena seek needs a settled rating, arena seekers are paired only with
arena seekers into an arena game, whose end moves the season's standings; the season
leaderboard and the profile's leagues."""

from __future__ import annotations

from dominohall.hall import Person, messages
from dominohall.store.ratings import StoredRating
from hall.helpers import idle
from hall.test_messages import problems
from hall.test_table_rules import play_to_the_end

from .test_ranked import account, error_of


def settle(hall, *players) -> None:
    store = hall.client.app.state.hall.store
    for who in players:
        rating = StoredRating(who.id, "draw", "real-time", 25.0, 3.0, 10, hall.clock.now())
        hall.client.portal.call(store.ratings.put, rating)


def test_the_arena_waits_for_a_settled_rating(hall):
    ann = account(hall, "Ann")
    code, message = error_of(ann.post("/api/ranked/queue", {"pool": "draw", "arena": True}), 409)
    assert code == "arena_provisional" and "10 more rated games" in message
    assert ann.get("/api/ranked/queue").json()["seeking"] is None
    code, _ = error_of(
        ann.post("/api/ranked/queue", {"pool": "draw", "arena": True, "ranked": False}), 400
    )
    assert code == "bad_option"  # the arena is ranked play
    settle(hall, ann)
    seeking = ann.post("/api/ranked/queue", {"pool": "draw", "arena": True}).json()["seeking"]
    assert (seeking["arena"], seeking["ranked"]) == (True, True)


def test_arena_seekers_play_arena_seekers_and_climb_the_season(hall):
    ann, bob, cid, dee = (account(hall, n) for n in ("Ann", "Bob", "Cid", "Dee"))
    settle(hall, ann, bob, cid, dee)
    assert ann.post("/api/ranked/queue", {"pool": "draw", "arena": True}).json()["seeking"]
    # Bob seeks a plain ranked game: not paired with Ann's arena seek, however close.
    assert bob.post("/api/ranked/queue", {"pool": "draw"}).json()["seeking"]["arena"] is False
    assert ann.get("/api/ranked/queue").json()["seeking"] is not None
    assert cid.post("/api/ranked/queue", {"pool": "draw"}).json()["table"]  # Bob and Cid
    table = dee.post("/api/ranked/queue", {"pool": "draw", "arena": True}).json()["table"]
    assert table and ann.get("/api/ranked/queue").json()["table"] == table

    people = [Person(ann.id, "Ann"), Person(dee.id, "Dee")]
    state = hall.client.app.state.hall

    async def play() -> tuple[dict, dict]:
        for person in people:
            await state.connect(table, person)
        view = (await state.room(table)).state
        seats = {s.player: (await state.room(table)).ratings[s.player] for s in view.seats}
        await play_to_the_end(state, table, people)
        await idle(state)
        # A rematch is ranked, not arena: the arena pairs through its queue.
        for person in people:
            await state.rematch(person, table, True)
        [again] = await state.store.live_tables_of(people[0].id)
        rematch = (await state.room(again)).state.options
        assert (rematch.ranked, rematch.arena) == ("draw", False)
        return view.options.to_json(), seats

    options, seat_labels = hall.client.portal.call(play)
    assert options["arena"] is True
    # The seat cards of an arena game show the league and points beside the rating.
    assert set(seat_labels.values()) == {"1500 · Bronze 0"}

    board = hall.client.get("/api/arena/draw").json()
    assert board["season"]["number"] == 1 and board["season"]["ended"] is False
    assert board["leagues"][0] == "Bronze" and board["leagues"][-1] == "Elite"
    top, second = board["players"]
    assert (top["rank"], top["league"], top["points"], top["wins"]) == (1, "Bronze", 2, 1)
    assert (second["points"], second["losses"], second["games"]) == (0, 1, 1)
    assert {top["username"], second["username"]} == {"ann", "dee"}  # never Bob or Cid
    profile = hall.client.get(f"/api/players/{top['username']}").json()
    assert problems(profile["arena"], messages.ArenaOf) == []
    assert problems(profile["stats"], messages.Stats) == []
    assert profile["arena"]["current"] == [
        {
            "pool": "draw",
            "speed": "real-time",
            "season": 1,
            "league": "Bronze",
            "points": 2,
            "label": "Bronze 2",
            "games": 1,
        }
    ]
    assert profile["arena"]["awards"] == []
    assert hall.client.get("/api/arena/draw?speed=turn-based").json()["players"] == []


def test_a_bad_leaderboard_request_is_refused_by_name(hall):
    assert error_of(hall.client.get("/api/arena/go"), 404)[0] == "no_pool"
    assert error_of(hall.client.get("/api/arena/draw?speed=slow"), 400)[0] == "bad_request"
    assert error_of(hall.client.get("/api/arena/draw?season=x"), 400)[0] == "bad_request"
    code, message = error_of(hall.client.get("/api/arena/draw?season=7"), 404)
    assert code == "no_season" and "season 7" in message
