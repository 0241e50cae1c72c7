"""Finished games over HTTP: a game with its replay, histories page by page, profiles, privacy."""

from __future__ import annotations

from itertools import pairwise

from dominohall.hall import Person, messages
from dominohall.rules.record import check_record
from dominohall.store.chat import Room
from hall.helpers import idle
from hall.test_messages import problems
from hall.test_table_rules import play_to_the_end
from web.test_ranked import account, error_of


def play_a_game(
    hall, host, guest, *, private: bool = False, preset: str = "draw", timer: str = "normal"
) -> str:
    """``host`` makes a table, ``guest`` joins, both play it to the end; returns its id."""
    made = host.post("/api/tables", {"preset": preset, "private": private, "timer": timer})
    assert made.status_code == 200, made.text
    table = made.json()["table"]["id"]
    assert guest.post(f"/api/tables/{table}/join").status_code == 200
    assert host.post(f"/api/tables/{table}/start").status_code == 200
    people = [Person(host.id, host.name), Person(guest.id, guest.name)]
    state = hall.client.app.state.hall

    async def play() -> None:
        for person in people:
            await state.connect(table, person)
        await play_to_the_end(state, table, people)
        await idle(state)

    hall.client.portal.call(play)
    hall.advance(1.0)  # the next game finishes later
    return table


def signed(hall, name: str, *, username: bool = True):
    player = account(hall, name) if username else hall.guest(name)
    if not username:
        player.id = player.get("/api/me").json()["player"]["id"]
    player.name = name
    return player


def test_a_finished_game_shows_its_players_result_and_every_position(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    table = play_a_game(hall, ann, bob)
    answer = hall.client.get(f"/api/games/{table}", headers={"Accept-Encoding": "gzip"})
    assert answer.status_code == 200 and answer.headers["content-encoding"] == "gzip"
    body = answer.json()
    game, replay = body["game"], body["replay"]
    assert problems(game, messages.Game) == [] and problems(replay, messages.Replay) == []
    record = hall.client.get(f"/games/{table}/record").json()
    report = check_record(record)
    assert game["id"] == table and game["preset"] == "draw" and game["reason"] == "rules"
    assert (game["speed"], game["timer"]) == ("real-time", "normal")
    assert [p["name"] for p in game["players"]] == ["Ann", "Bob"]
    assert [p["username"] for p in game["players"]] == ["ann", "bob"]
    assert [p["score"] for p in game["players"]] == report["scores"]
    assert game["winner"] == report["winner"]
    assert [p["won"] for p in game["players"]] == [s == report["winner"] for s in (0, 1)]
    assert game["hands"] == len(record["hands"]) == len(replay["hands"])
    assert game["duration"] is not None and game["duration"] >= 0
    assert body["ratings"] == []  # a casual game
    # One position per move plus the deal, each as the engine left it.
    for hand, written, checked in zip(
        replay["hands"], record["hands"], report["hands"], strict=True
    ):
        positions = hand["positions"]
        assert len(positions) == len(written["moves"]) + 1
        assert positions[0]["move"] is None and positions[0]["layout"]["chain"] == []
        assert [p["move"] for p in positions[1:]] == written["moves"]
        dealt = [sorted(d) for d in written["dealt"]]
        assert [sorted(t) for t in positions[0]["tiles"]] == [
            sorted(t if int(t[0]) >= int(t[2]) else t[::-1] for t in d) for d in dealt
        ]
        plays = sum(1 for m in written["moves"] if "play" in m)
        assert len(positions[-1]["layout"]["chain"]) == plays
        assert positions[-1]["points"] == checked["points"]
        assert hand["result"]["winner"] == checked["winner"]
        assert hand["result"]["blocked"] == checked["blocked"]
    assert replay["hands"][-1]["positions"][-1]["scores"] == report["scores"]
    # Scores never go down, move by move.
    flat = [p["scores"] for h in replay["hands"] for p in h["positions"]]
    assert all(a[s] <= b[s] for a, b in pairwise(flat) for s in (0, 1))


def test_a_game_not_over_or_unknown_is_refused_by_name(hall):
    ann = signed(hall, "Ann")
    table = ann.post("/api/tables", {}).json()["table"]["id"]
    assert error_of(hall.client.get(f"/api/games/{table}"), 409)[0] == "game_not_over"
    assert error_of(hall.client.get("/api/games/nosuch"), 404)[0] == "no_game"


def test_private_games_are_for_their_players_only(hall):
    ann, bob, cid = signed(hall, "Ann"), signed(hall, "Bob"), signed(hall, "Cid")
    table = play_a_game(hall, ann, bob, private=True)
    open_table = play_a_game(hall, ann, cid)
    for who in (ann, bob):
        assert who.get(f"/api/games/{table}").status_code == 200
        assert who.get(f"/games/{table}/record").status_code == 200
    code, message = error_of(cid.get(f"/api/games/{table}"), 403)
    assert code == "private_game" and "private table" in message
    assert error_of(cid.get(f"/games/{table}/record"), 403)[0] == "private_game"
    code, message = error_of(hall.client.get(f"/api/games/{table}"), 403)
    assert "sign in" in message
    # Histories list it only to those who played it.
    assert [g["id"] for g in cid.get("/api/players/ann/games").json()["games"]] == [open_table]
    assert [g["id"] for g in bob.get("/api/players/ann/games").json()["games"]] == [
        open_table,
        table,
    ]
    assert [g["id"] for g in ann.get("/api/me/games").json()["games"]] == [open_table, table]
    assert [g["id"] for g in cid.get("/api/players/ann").json()["recent"]] == [open_table]


def test_a_history_pages_newest_first_with_a_stable_cursor(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    tables = []
    for _ in range(5):
        tables.append(play_a_game(hall, ann, bob))
    newest_first = tables[::-1]
    page = hall.client.get("/api/players/ann/games?limit=2").json()
    seen = [g["id"] for g in page["games"]]
    assert seen == newest_first[:2] and page["next"]
    assert all(g["seat"] == 0 for g in page["games"])
    # A game finished meanwhile does not shift the pages that follow.
    later = play_a_game(hall, bob, ann)
    while page["next"]:
        page = hall.client.get(f"/api/players/ann/games?limit=2&before={page['next']}").json()
        seen += [g["id"] for g in page["games"]]
    assert seen == newest_first
    assert hall.client.get("/api/players/ann/games").json()["games"][0]["id"] == later
    assert hall.client.get("/api/players/ann/games").json()["games"][0]["seat"] == 1
    for bad in ("?before=yesterday", "?limit=0", "?limit=51", "?before=1.5_a-b", "?before="):
        assert error_of(hall.client.get(f"/api/players/ann/games{bad}"), 400)[0] == "bad_request"
    assert error_of(hall.client.get("/api/players/nobody/games"), 404)[0] == "no_player"


def test_a_guest_sees_their_games_and_keeps_them_when_claiming_an_account(hall):
    gus, bob = signed(hall, "Gus", username=False), signed(hall, "Bob")
    table = play_a_game(hall, gus, bob)
    assert [g["id"] for g in gus.get("/api/me/games").json()["games"]] == [table]
    assert error_of(hall.client.get("/api/me/games"), 401)[0] == "not_signed_in"
    claimed = gus.post("/api/accounts", {"username": "gus", "password": "correct horse"})
    assert claimed.status_code == 200, claimed.text
    gus.cookie = claimed.cookies["dominohall"]
    assert [g["id"] for g in gus.get("/api/me/games").json()["games"]] == [table]
    [mine] = hall.client.get("/api/players/gus/games").json()["games"]
    assert mine["players"][0] == {
        **mine["players"][0],
        "name": "Gus",
        "username": "gus",
        "person": True,
    }


def test_a_profile_counts_games_wins_hands_and_points_per_preset(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    tables = [play_a_game(hall, ann, bob), play_a_game(hall, ann, bob, preset="block")]
    profile = hall.client.get("/api/players/ann").json()
    assert profile["player"] == {"name": "Ann", "username": "ann"}
    assert [g["id"] for g in profile["recent"]] == tables[::-1]
    reports = [check_record(hall.client.get(f"/games/{t}/record").json()) for t in tables]
    stats = profile["stats"]
    won = sum(r["winner"] == 0 for r in reports)
    assert (stats["games"], stats["won"], stats["lost"]) == (2, won, 2 - won)
    assert stats["win_rate"] == won / 2
    by_preset = {p["preset"]: p for p in stats["presets"]}
    for preset, report in zip(("draw", "block"), reports, strict=True):
        numbers = by_preset[preset]
        assert numbers["games"] == 1 and numbers["hands"] == len(report["hands"])
        assert numbers["points"] == report["scores"][0]
        assert numbers["points_per_hand"] == round(report["scores"][0] / len(report["hands"]), 2)
        out = sum(h["winner"] == 0 and not h["blocked"] for h in report["hands"])
        block = sum(h["winner"] == 0 and h["blocked"] for h in report["hands"])
        assert (numbers["hands_won_out"], numbers["hands_won_block"]) == (out, block)
        assert numbers["timeouts"] == 0
    assert stats["hands_won_out"] + stats["hands_won_block"] == sum(
        p["hands_won_out"] + p["hands_won_block"] for p in stats["presets"]
    )


def test_a_turn_based_game_says_so(hall):
    ann, bob = signed(hall, "Ann"), signed(hall, "Bob")
    table = play_a_game(hall, ann, bob, timer="day")
    game = hall.client.get(f"/api/games/{table}").json()["game"]
    assert (game["speed"], game["timer"]) == ("turn-based", "day")
    [listed] = ann.get("/api/me/games").json()["games"]
    assert listed["speed"] == "turn-based"


def test_a_finished_games_chat_is_shown_beside_its_replay_as_text(hall):
    ann, bob, cid = signed(hall, "Ann"), signed(hall, "Bob"), signed(hall, "Cid")
    img = '<img src=x onerror="window.pwned=1">'
    store = hall.client.app.state.hall.store

    def said(table: str) -> None:
        async def add() -> None:
            await store.chat.add(table, Room.PLAYERS, ann.id, 1.0, text=img)
            await store.chat.add(table, Room.SPECTATORS, cid.id, 2.0, phrase="good_luck")

        hall.client.portal.call(add)

    public = play_a_game(hall, ann, bob)
    said(public)
    lines = cid.get(f"/api/games/{public}/chat").json()["lines"]
    assert [(x["room"], x["name"], x.get("text"), x.get("phrase")) for x in lines] == [
        ("players", "Ann", img, None),  # markup kept as the text it was
        ("spectators", "Cid", None, "good_luck"),
    ]
    assert lines[0]["seat"] == 0 and lines[1]["seat"] is None
    assert bob.post("/api/players/ann/mute").status_code == 200
    assert [x["name"] for x in bob.get(f"/api/games/{public}/chat").json()["lines"]] == ["Cid"]
    private = play_a_game(hall, ann, bob, private=True)
    said(private)
    assert error_of(cid.get(f"/api/games/{private}/chat"), 403)[0] == "private_game"
    assert len(ann.get(f"/api/games/{private}/chat").json()["lines"]) == 2
    live = ann.post("/api/tables", {}).json()["table"]["id"]
    assert error_of(ann.get(f"/api/games/{live}/chat"), 409)[0] == "game_not_over"
