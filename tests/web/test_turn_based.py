"""Turn-based play over HTTP: the timers, a turn-based table made from its body, vacations, the
limit of turn-based games at once (not counted in the real-time open-tables limit)."""

from __future__ import annotations

DAY = 86400.0


def error_of(answer, status: int) -> str:
    assert answer.status_code == status, answer.text
    return answer.json()["error"]["code"]


def test_the_timers_list_the_real_time_and_turn_based_clocks(hall):
    timers = {t["id"]: t for t in hall.client.get("/api/timers").json()["timers"]}
    assert timers["normal"] == {
        "id": "normal",
        "speed": "real-time",
        "name": "Normal",
        "turn_seconds": 25.0,
    }
    day = timers["day"]
    assert (day["speed"], day["increment"], day["cap"]) == ("turn-based", DAY, 3 * DAY)
    assert timers["half-day"]["increment"] == DAY / 2 and timers["three-days"]["cap"] == 7 * DAY


def test_a_turn_based_table_from_the_create_body_and_its_view(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    table = ann.post("/api/tables", {"seats": 2, "timer": "day", "preset": "block"}).json()
    assert table["table"]["timer"] == "day" and table["table"]["speed"] == "turn-based"
    table_id = table["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    ann.post(f"/api/tables/{table_id}/start")
    answer = ann.post("/api/tables", {"timer": "fortnight"})
    assert error_of(answer, 400) == "bad_option"
    assert "day, half-day, three-days" in answer.json()["error"]["message"]
    mine = ann.get("/api/me/tables").json()["tables"][0]
    assert mine["speed"] == "turn-based"
    assert mine["deadline"] is not None and mine["deadline"] - hall.clock.now() == DAY


def test_a_vacation_over_http(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    assert error_of(hall.client.get("/api/me/vacation"), 401) == "not_signed_in"
    status = ann.get("/api/me/vacation").json()
    assert status == {
        "on_vacation": False,
        "start": None,
        "end": None,
        "days_a_year": 21,
        "days_left": 21,
    }
    table_id = ann.post("/api/tables", {"seats": 2, "timer": "day"}).json()["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    ann.post(f"/api/tables/{table_id}/start")
    assert error_of(ann.post("/api/me/vacation", {"days": "two"}), 400) == "bad_request"
    assert error_of(ann.post("/api/me/vacation", {"days": 22}), 409) == "no_vacation_left"
    status = ann.post("/api/me/vacation", {"days": 2}).json()
    assert status["on_vacation"] and status["end"] == hall.clock.now() + 2 * DAY
    with bob.socket(table_id) as socket:
        socket.send_json({"type": "hello", "version": 0})
        assert socket.receive_json()["type"] == "welcome"
        message = socket.receive_json()
        assert message["type"] == "state", message
        clocks = message["state"]["turn_based"]["clocks"]
        assert clocks[0]["vacation_until"] == status["end"]  # Bob sees Ann is away
    assert error_of(ann.post("/api/me/vacation", {"days": 1}), 409) == "on_vacation"
    assert not ann.post("/api/me/vacation/end").json()["on_vacation"]
    assert error_of(ann.post("/api/me/vacation/end"), 409) == "not_on_vacation"


def test_turn_based_tables_are_not_held_by_the_real_time_open_tables_limit(hall):
    ann = hall.guest("Ann")
    for _ in range(12):  # more than the 10 unfinished tables allowed to real-time play
        answer = ann.post("/api/tables", {"seats": 2, "timer": "three-days"})
        assert answer.status_code == 200, answer.text


def test_a_vacation_of_the_seat_to_move_freezes_its_clock_and_counts_days_in_fractions(hall):
    guests = {"Ann": hall.guest("Ann"), "Bob": hall.guest("Bob")}
    ann, bob = guests["Ann"], guests["Bob"]
    table_id = ann.post("/api/tables", {"seats": 2, "timer": "day"}).json()["table"]["id"]
    bob.post(f"/api/tables/{table_id}/join", {})
    ann.post(f"/api/tables/{table_id}/start")

    def clock_of_the_turn(who) -> dict:
        with who.socket(table_id) as socket:
            socket.send_json({"type": "hello", "version": 0})
            assert socket.receive_json()["type"] == "welcome"
            state = socket.receive_json()["state"]
        turn = state["hand"]["turn"]
        return state["turn_based"]["clocks"][turn] | {"name": state["seats"][turn]["name"]}

    hall.advance(3 * 3600)
    mover = guests[clock_of_the_turn(ann)["name"]]
    vacation = mover.post("/api/me/vacation", {"days": 2}).json()
    for later in (DAY, DAY / 2):  # at its start, and a day into it: the same clock
        clock = clock_of_the_turn(ann)
        assert clock["running"] is True and clock["left"] == DAY - 3 * 3600
        assert clock["deadline"] == vacation["end"] + clock["left"]
        hall.advance(later)
    # Ended a day and a half into it: half a day of the two comes back.
    assert mover.post("/api/me/vacation/end").json()["days_left"] == 21 - 1.5
