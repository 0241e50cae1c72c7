"""The WebSocket protocol of docs/protocol.md, every message good and bad (Starlette's test client)."""

from __future__ import annotations

import asyncio
import contextlib
import copy
from typing import Any

import pytest
from starlette.testclient import WebSocketDenialResponse
from starlette.websockets import WebSocketDisconnect

from dominohall.hall.table_feed import TableChange
from dominohall.web.socket import Client
from hall.helpers import ANN, BOB, running_hall, started_table

from .live import first_offered_move
from .table_view import TableView, comparable

pytestmark = pytest.mark.timeout(60)


class Sock:
    """One open socket; keeps its copy of the table as the page does (updates applied)."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.view = TableView()
        self.messages: list[dict[str, Any]] = []

    @property
    def state(self) -> dict[str, Any]:
        return self.view.state

    @property
    def version(self) -> int:
        return self.view.version

    @property
    def events(self) -> list[dict[str, Any]]:
        return self.view.events

    def hello(self, version: int = 0) -> dict[str, Any]:
        self.ws.send_json({"type": "hello", "version": version})
        welcome = self.ws.receive_json()
        assert welcome["type"] == "welcome" and welcome["protocol"] == 2
        message = self.next_state()
        assert message["type"] == "state" and message["version"] == welcome["version"]
        return welcome

    def next_state(self) -> dict[str, Any]:
        """The next message about the table (a state, an update or a presence), applied."""
        message = self.ws.receive_json()
        self.messages.append(message)
        assert self.view.take(message), message
        return message

    def catch_up(self, version: int) -> None:
        while self.version < version:
            self.next_state()

    def ask(self, message: dict[str, Any]) -> dict[str, Any]:
        """Send a request; its ack (and the state after it) or its error."""
        self.ws.send_json({"id": "r1", **message})
        answer = self.ws.receive_json()
        while self.view.take(answer):  # sent before the answer: a change by someone else
            self.messages.append(answer)
            answer = self.ws.receive_json()
        assert answer["type"] in ("ack", "error"), answer
        assert answer["id"] == "r1"
        if answer["type"] == "ack":
            self.catch_up(answer["version"])
        return answer

    @property
    def moves(self) -> dict[str, Any] | None:
        return self.state["hand"]["moves"] if self.state.get("hand") else None


def refused(sock: Sock, message: dict[str, Any]) -> str:
    answer = sock.ask(message)
    assert answer["type"] == "error", answer
    assert answer["message"]
    return answer["code"]


@contextlib.contextmanager
def two_players(hall, **options: Any):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 2, **options}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/start")
    with ann.socket(tid) as a, bob.socket(tid) as b:
        socks = [Sock(a), Sock(b)]
        for sock in socks:
            sock.hello()
        yield tid, socks


def mover_of(socks: list[Sock]) -> tuple[Sock, Sock]:
    turn = socks[0].state["hand"]["turn"]
    return (socks[0], socks[1]) if turn == 0 else (socks[1], socks[0])


first_move = first_offered_move


def play_until(socks: list[Sock], wanted) -> Sock:
    """Play first moves until the seat to move is offered what ``wanted`` looks for."""
    for _ in range(500):
        mover, other = mover_of(socks)
        if wanted(mover.moves):
            return mover
        answer = mover.ask(first_move(mover.moves))
        assert answer["type"] == "ack", answer
        other.catch_up(answer["version"])
        assert mover.state["table"]["phase"] == "playing", "the hand ended first"
    raise AssertionError("never offered")


def test_an_unknown_table_closes_the_socket(hall):
    with (
        pytest.raises(WebSocketDisconnect) as closed,
        hall.client.websocket_connect("/ws/tables/nope") as ws,
    ):
        ws.receive_json()
    assert closed.value.code == 4404


def test_a_socket_from_another_site_is_refused(hall):
    ann = hall.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    headers = {**ann.headers, "Origin": "http://elsewhere.example"}
    connecting = hall.client.websocket_connect(f"/ws/tables/{tid}", headers=headers)
    with pytest.raises(WebSocketDenialResponse) as refused, connecting:
        pass
    assert refused.value.status_code == 403
    assert refused.value.json()["error"]["code"] == "cross_site"
    headers = {**ann.headers, "Origin": "http://testserver"}
    with hall.client.websocket_connect(f"/ws/tables/{tid}", headers=headers) as ws:
        assert Sock(ws).hello()["you"]["seat"] == 0


def test_hello_comes_first_and_gives_the_seat_its_view(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    with ann.socket(tid) as ws:
        sock = Sock(ws)
        assert refused(sock, {"type": "pass"}) == "hello_first"
        welcome = sock.hello()
        assert welcome["you"]["seat"] == 0 and welcome["you"]["name"] == "Ann"
        assert sock.state["table"]["phase"] == "seating" and sock.state["hand"] is None
        assert [s["kind"] for s in sock.state["seats"]] == ["human", "empty"]
        assert sock.state["you"]["host"] is True
        bob.post(f"/api/tables/{tid}/join")
        sock.next_state()
        assert sock.state["seats"][1]["name"] == "Bob" and not sock.state["seats"][1]["connected"]
        assert sock.events[-1] == {"version": 2, "kind": "joined", "seat": 1, "name": "Bob"}


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("not json", "bad_json"),
        ("[1, 2]", "bad_message"),
        ('{"type": "castle"}', "bad_message"),
        ('{"no": "type"}', "bad_message"),
        ('{"type": "ping", "id": {"a": 1}}', "bad_message"),
        ('{"type": "play"}', "bad_message"),
        ('{"type": "play", "tile": 64}', "bad_message"),
        ('{"type": "play", "tile": "6-4", "arm": "left"}', "bad_message"),
        ('{"type": "play", "tile": "6-4", "arm": true}', "bad_message"),
        ('{"type": "play", "tile": "6-4", "version": -1}', "bad_message"),
        ('{"type": "draw", "until_fits": "yes"}', "bad_message"),
        ('{"type": "play", "tile": "7-4"}', "bad_tile"),
        ('{"type": "play", "tile": "six-four"}', "bad_tile"),
    ],
)
def test_a_malformed_message_is_refused_and_changes_nothing(hall, text, code):
    with two_players(hall) as (_tid, socks):
        mover, _ = mover_of(socks)
        version = mover.version
        mover.ws.send_text(text)
        answer = mover.ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == code, answer
        assert mover.ask(first_move(mover.moves))["version"] == version + 1


def test_the_last_person_leaving_before_the_start_closes_the_table(hall):
    ann = hall.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    with ann.socket(tid) as ws:
        sock = Sock(ws)
        sock.hello()
        answer = sock.ask({"type": "leave"})
        assert answer["type"] == "ack"
        assert sock.state["table"]["phase"] == "finished"
        assert ws.receive_json()["type"] == "closed"
        assert [e["kind"] for e in sock.events[-2:]] == ["removed", "closed"]
        assert sock.state["table"]["host"] is None  # and no host event (docs/protocol.md 3.2)
        assert "host" not in [e["kind"] for e in sock.events]


def test_a_binary_frame_is_refused(hall):
    with two_players(hall) as (_tid, socks):
        socks[0].ws.send_bytes(b'{"type": "ping"}')
        answer = socks[0].ws.receive_json()
        assert answer["type"] == "error" and answer["code"] == "bad_message"


def test_ping_is_answered(hall):
    with two_players(hall) as (_tid, socks):
        socks[0].ws.send_json({"type": "ping", "id": 7})
        assert socks[0].ws.receive_json() == {"type": "pong", "id": 7}


def test_a_play_is_acknowledged_then_every_seat_gets_its_view(hall):
    with two_players(hall) as (_tid, socks):
        mover, other = mover_of(socks)
        lead = mover.moves["lead"]
        assert lead and mover.moves["play"] == [] and other.moves is None
        assert refused(other, first_move(mover.moves)) == "not_your_turn"
        answer = mover.ask({"type": "play", "tile": lead[0]})
        assert answer == {"type": "ack", "id": "r1", "version": mover.version}
        other.catch_up(answer["version"])
        assert other.events[-1]["kind"] == "move" and other.events[-1]["play"] == lead[0]
        assert other.state["hand"]["layout"]["chain"][0]["tile"] == lead[0]
        assert other.state["seats"][mover.state["you"]["seat"]]["tiles"] == 6
        assert other.state["clock"]["seat"] == other.state["you"]["seat"]


def test_a_move_the_rules_forbid_is_refused_with_the_reason(hall):
    with two_players(hall) as (_tid, socks):
        mover, other = mover_of(socks)
        lead = mover.moves["lead"][0]
        not_mine = next(
            t for t in ("0-0", "1-0", "2-0", "1-1") if t not in mover.state["hand"]["tiles"]
        )
        assert refused(mover, {"type": "play", "tile": not_mine}) == "illegal_move"
        assert refused(mover, {"type": "play", "tile": lead, "arm": 0}) == "illegal_move"
        assert refused(mover, {"type": "draw"}) == "illegal_move"
        assert refused(mover, {"type": "pass"}) == "illegal_move"
        assert refused(mover, {"type": "next_hand"}) == "not_between_hands"
        assert (
            refused(mover, {"type": "play", "tile": lead, "version": mover.version - 1}) == "stale"
        )
        answer = mover.ask({"type": "play", "tile": lead, "version": mover.version})
        assert answer["type"] == "ack"
        other.catch_up(answer["version"])
        tile = other.state["hand"]["tiles"][0]  # a tile it holds, on an arm not open
        open_arms = {e["arm"] for e in other.state["hand"]["layout"]["open_ends"]}
        assert 9 not in open_arms
        assert refused(other, {"type": "play", "tile": tile, "arm": 9}) == "illegal_move"


def test_a_spectator_sees_no_tiles_and_cannot_play(hall):
    with two_players(hall) as (tid, socks):
        cid = hall.guest("Cid")
        with cid.socket(tid) as ws:
            watcher = Sock(ws)
            assert watcher.hello()["you"]["seat"] is None
            assert watcher.state["hand"]["tiles"] == [] and watcher.moves is None
            assert refused(watcher, {"type": "pass"}) == "spectator"
            assert refused(watcher, {"type": "leave"}) == "not_seated"
        with hall.client.websocket_connect(f"/ws/tables/{tid}") as ws:
            anonymous = Sock(ws)
            anonymous.hello()
            assert refused(anonymous, {"type": "next_hand"}) == "spectator"


def test_draw_until_it_fits_is_one_request_and_others_see_no_tile(hall):
    with two_players(hall, preset="draw") as (_tid, socks):
        mover = play_until(socks, lambda moves: moves["draw"])
        other = socks[1] if mover is socks[0] else socks[0]
        assert mover.moves["play"] == [] and not mover.moves["pass"]
        answer = mover.ask({"type": "draw", "until_fits": True})
        other.catch_up(answer["version"])
        seat = mover.state["you"]["seat"]
        drawn = [
            e for e in mover.events if e["kind"] == "move" and "draw" in e and e["seat"] == seat
        ]
        seen = [
            e for e in other.events if e["kind"] == "move" and "draw" in e and e["seat"] == seat
        ]
        assert drawn and all(isinstance(e["draw"], str) for e in drawn)
        assert len(seen) == len(drawn) and all(e["draw"] is True for e in seen)
        assert mover.moves["play"] or mover.moves["pass"]  # it fits now, or the boneyard is empty


def test_pass_when_nothing_fits(hall):
    with two_players(hall, preset="block", target=200) as (_tid, socks):
        mover = play_until(socks, lambda moves: moves["pass"])
        seat = mover.state["you"]["seat"]
        answer = mover.ask({"type": "pass"})
        assert answer["type"] == "ack"
        # The mover's last move is that pass (a pass that blocks the hand is followed by its end).
        made = [e for e in mover.events if e["kind"] == "move" and e["seat"] == seat][-1]
        assert made.get("pass") is True and made["version"] <= answer["version"]
        # It names the numbers passed on, as the rules saw them (the page's log says them).
        ends = {e["number"] for e in mover.state["hand"]["layout"]["open_ends"]}
        assert made["open"] == sorted(ends) and ends


def test_next_hand_and_the_end_of_hand_reveal(hall):
    with two_players(hall, preset="block", target=200) as (_tid, socks):
        for _ in range(200):
            mover, other = mover_of(socks)
            answer = mover.ask(first_move(mover.moves))
            assert answer["type"] == "ack", answer
            other.catch_up(answer["version"])
            if mover.state["table"]["phase"] != "playing":
                break
        result = mover.state["hand"]["result"]
        assert mover.state["table"]["phase"] == "between_hands"
        assert len(result["revealed"]) == 2 and result["bonus_rule"] == "others"
        assert mover.state["next_hand"]["seconds"] == 20.0
        assert mover.ask({"type": "next_hand"})["type"] == "ack"
        assert mover.ask({"type": "next_hand"})["type"] == "ack"  # pressing twice is harmless
        answer = other.ask({"type": "next_hand"})
        mover.catch_up(answer["version"] + 1)  # the last press, then the deal
        assert mover.state["hand"]["number"] == 1 and mover.state["hand"]["result"] is None


def test_leaving_a_two_player_game_forfeits_it(hall):
    with two_players(hall) as (tid, socks):
        mover, other = mover_of(socks)
        answer = other.ask({"type": "leave"})
        assert answer["type"] == "ack"
        mover.catch_up(answer["version"])
        game = mover.state["game"]
        assert game["reason"] == "forfeit" and game["winner"] == mover.state["you"]["seat"]
        assert game["record"] == f"/games/{tid}/record"
        assert refused(
            mover, first_move(mover.moves or {"lead": [], "play": [], "draw": False})
        ) in ("not_playing",)


@pytest.mark.parametrize("preset", ["spinner-fives", "draw"])
def test_updates_applied_to_the_first_state_give_the_state_sent_on_resync(hall, preset):
    """Protocol 2: after the first state a seat gets events (and what the rules decided), and
    its copy, kept up by applying them, is exactly the whole state the hall sends on a resync:
    through plays, spinners, draws, a hand's end and the next hand's deal."""
    with two_players(hall, preset=preset) as (_tid, socks):
        hands = 0
        for _ in range(400):
            phase = socks[0].state["table"]["phase"]
            if phase == "finished" or hands == 2:
                break
            if phase == "between_hands":
                hands += 1
                answers = [sock.ask({"type": "next_hand"}) for sock in socks]
                for sock in socks:
                    sock.catch_up(max(a["version"] for a in answers) + 1)  # then the deal
            else:
                mover, other = mover_of(socks)
                answer = mover.ask(first_move(mover.moves))
                assert answer["type"] == "ack", answer
                other.catch_up(answer["version"])
            for sock in socks:
                kept = comparable(sock.state)
                sock.ws.send_json({"type": "resync"})
                message = sock.next_state()
                assert message["type"] == "state" and message["version"] == sock.version
                assert comparable(message["state"]) == kept
        kinds = {m["type"] for sock in socks for m in sock.messages}
        assert hands >= 1 and kinds >= {"update", "state"}


SIX_PARTS = {"table", "you", "seats", "next_hand", "game", "rematch"}


def test_what_every_update_carries(hall):
    """docs/protocol.md 3.2.1: once a hand is dealt every update carries `hand` (its turn and
    moves at least), whatever its events; the six parts of the table come all together or not
    at all; the lead that is not a spinner says so."""
    with two_players(hall, preset="block", target=200) as (_tid, socks):
        for _ in range(200):
            mover, other = mover_of(socks)
            answer = mover.ask(first_move(mover.moves))
            assert answer["type"] == "ack", answer
            other.catch_up(answer["version"])
            if mover.state["table"]["phase"] != "playing":
                break
        for sock in socks:  # Next hand pressed: an update with no move in it
            answer = sock.ask({"type": "next_hand"})
        for sock in socks:
            sock.catch_up(answer["version"] + 1)
        updates = [m for sock in socks for m in sock.messages if m["type"] == "update"]
        kinds = {e["kind"] for m in updates for e in m["events"]}
        assert {"move", "hand_over", "ready"} <= kinds
        for update in updates:
            assert {"turn", "moves"} <= set(update["hand"]), update
            assert set(update) & SIX_PARTS in (set(), SIX_PARTS), update
        lead = next(m["hand"]["layout"]["laid"][0] for m in updates if "layout" in m["hand"])
        assert lead["arm"] is None and lead["spinner"] is False


def test_a_resync_is_answered_by_the_state_alone_at_the_version_now(hall):
    """docs/protocol.md 3.4: no ack, nothing repeats the request's id, and the state may be at a
    later version than the copy (the updates before it are to be ignored)."""
    with two_players(hall) as (_tid, socks):
        mover, other = mover_of(socks)
        kept = other.version
        mover.ask(first_move(mover.moves))  # the other socket reads nothing meanwhile
        table_version = mover.version
        assert table_version > kept
        other.ws.send_json({"type": "resync", "id": "r9"})
        while True:
            message = other.ws.receive_json()
            assert message["type"] in ("update", "state"), message  # no ack, no pong
            if message["type"] == "state":
                break
        assert "id" not in message
        assert message["version"] == table_version > kept and message["events"] == []


def differences(a: Any, b: Any, path: str = "") -> set[str]:
    """The paths at which two JSON values differ (list items as [])."""
    if isinstance(a, dict) and isinstance(b, dict):
        keys = set(a) | set(b)
        return {d for k in keys for d in differences(a.get(k), b.get(k), f"{path}.{k}")}
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return {d for x, y in zip(a, b, strict=True) for d in differences(x, y, f"{path}[]")}
    return set() if a == b else {path}


def test_a_kept_turn_based_copy_differs_from_a_fresh_state_only_by_the_moment(hall):
    """docs/protocol.md 3.2.1: an hour after the last update, the copy kept from updates and
    the state sent afresh differ only in what depends on the moment a message was made."""
    moment = {".now", ".clock.left", ".turn_based.duration", ".turn_based.clocks[].left"}
    with two_players(hall, preset="block", timer="day") as (_tid, socks):
        for _ in range(6):
            hall.advance(3600.0)
            mover, other = mover_of(socks)
            answer = mover.ask(first_move(mover.moves))
            assert answer["type"] == "ack", answer
            other.catch_up(answer["version"])  # a pass forced on the other seat included
        hall.advance(3600.0)
        for sock in socks:
            kept = copy.deepcopy(sock.state)
            sock.ws.send_json({"type": "resync"})
            fresh = sock.next_state()["state"]
            found = differences(kept, fresh)
            assert found <= moment and ".turn_based.duration" in found, found


def test_a_timer_move_s_update_carries_the_seat_s_timeout(hall):
    """The timer plays for a seat: its timeouts change with that move (the page warns from them),
    and each copy kept from updates still equals the whole state."""
    with two_players(hall) as (_tid, socks):
        mover, other = mover_of(socks)
        seat = mover.state["you"]["seat"]
        version = mover.version
        hall.advance(25.1)  # the mover's turn timer runs out: the Normal computer plays
        for sock in socks:
            sock.catch_up(version + 1)
            assert sock.state["seats"][seat]["timeouts"] == 1
            kept = comparable(sock.state)
            sock.ws.send_json({"type": "resync"})
            assert comparable(sock.next_state()["state"]) == kept
        assert other.events[-1]["by"] == "timer"


def test_a_move_sends_the_other_seat_an_update_with_the_event_not_the_state(hall):
    with two_players(hall) as (_tid, socks):
        mover, other = mover_of(socks)
        answer = mover.ask({"type": "play", "tile": mover.moves["lead"][0]})
        update = other.messages[-1]
        while update["type"] != "update":
            update = other.next_state()
        assert update["version"] == answer["version"] and "state" not in update
        assert [e["kind"] for e in update["events"]] == ["move"]
        hand = update["hand"]
        assert hand["turn"] == other.state["you"]["seat"] and hand["moves"] is not None
        assert "tiles" not in hand  # the mover's tiles changed, not this seat's
        assert (
            hand["layout"]["laid"][0]["tile"] == mover.state["hand"]["layout"]["chain"][0]["tile"]
        )
        assert {e["arm"] for e in hand["layout"]["open_ends"]} >= {0, 1}
        assert "seats" not in update and update["counts"][mover.state["you"]["seat"]] == 6


def test_a_socket_whose_events_are_no_longer_kept_gets_the_whole_state(hall, monkeypatch):
    monkeypatch.setattr(
        "dominohall.hall.table.state.TAIL", 1
    )  # one event kept: a hand's end is two
    with two_players(hall, preset="block", target=200) as (_tid, socks):
        for _ in range(200):
            mover, other = mover_of(socks)
            other.catch_up(mover.ask(first_move(mover.moves))["version"])
            if mover.state["table"]["phase"] != "playing":
                break
        for sock in socks:
            last = sock.messages[-1]
            assert last["type"] == "state" and last["version"] == sock.version
            assert last["state"]["hand"]["result"] is not None
            kept = comparable(sock.state)
            sock.ws.send_json({"type": "resync"})
            assert comparable(sock.next_state()["state"]) == kept


def test_a_resync_before_hello_is_refused(hall):
    with (
        two_players(hall) as (tid, _socks),
        hall.client.websocket_connect(f"/ws/tables/{tid}") as ws,
    ):
        ws.send_json({"type": "resync", "id": 1})
        assert ws.receive_json()["code"] == "hello_first"


def test_presence_is_a_small_unversioned_message(hall):
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    with ann.socket(tid) as ws:
        sock = Sock(ws)
        sock.hello()
        version = sock.version
        assert sock.state["seats"][1]["connected"] is False
        with bob.socket(tid) as other:
            Sock(other).hello()
            assert sock.next_state() == {"type": "presence", "seat": 1, "connected": True}
            assert sock.state["seats"][1]["connected"] is True
        assert sock.next_state() == {"type": "presence", "seat": 1, "connected": False}
        assert sock.version == version and sock.state["seats"][1]["connected"] is False


def test_everyone_at_the_table_hears_how_many_watch(hall):
    with two_players(hall) as (tid, socks):
        ann = socks[0]
        version = ann.version
        assert ann.state["watchers"] == 0
        with hall.client.websocket_connect(f"/ws/tables/{tid}") as ws:
            first = Sock(ws)  # not signed in: watches
            first.hello()
            assert first.state["watchers"] == 1  # its own first state counts it
            assert ann.next_state() == {"type": "watchers", "count": 1}
            cy = hall.guest("Cy")
            with cy.socket(tid) as other:
                second = Sock(other)
                second.hello()
                assert second.state["watchers"] == 2 and second.state["you"]["seat"] is None
                assert first.next_state() == {"type": "watchers", "count": 2}
                assert ann.next_state() == {"type": "watchers", "count": 2}
            assert ann.next_state() == {"type": "watchers", "count": 1}
            assert first.next_state() == {"type": "watchers", "count": 1}
        assert ann.next_state() == {"type": "watchers", "count": 0}
        assert ann.version == version and ann.state["watchers"] == 0  # unversioned


def refused_watching(ws: Any) -> dict[str, Any]:
    """The error a socket that may not watch is sent, before it is closed with 4403."""
    error = ws.receive_json()
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    assert closed.value.code == 4403
    return error


def test_a_private_table_s_game_is_watched_only_by_its_players(hall):
    ann, bob, cy = hall.guest("Ann"), hall.guest("Bob"), hall.guest("Cy")
    table = ann.post("/api/tables", {"seats": 2, "private": True}).json()["table"]
    tid = table["id"]
    assert table["private"] is True and table["open_to_watchers"] is False
    # While a seat is free the link shows the seating view, to join it.
    with cy.socket(tid) as ws:
        seating = Sock(ws)
        assert seating.hello()["you"]["seat"] is None
        assert seating.state["table"]["phase"] == "seating"
        bob.post(f"/api/tables/{tid}/join")  # the last seat taken: closed to Cy
        while True:
            message = ws.receive_json()
            if message["type"] == "error":
                break
            assert message["type"] in ("update", "state", "watchers", "presence"), message
        assert message == {
            "type": "error",
            "id": None,
            "code": "not_open_to_watchers",
            "message": message["message"],
        }
        assert "players" in message["message"]
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 4403
    ann.post(f"/api/tables/{tid}/start")
    for stranger in (cy, hall):  # signed in or not
        with (
            cy.socket(tid) if stranger is cy else hall.client.websocket_connect(f"/ws/tables/{tid}")
        ) as ws:
            assert refused_watching(ws)["code"] == "not_open_to_watchers"
    with bob.socket(tid) as ws:  # a player plays on
        assert Sock(ws).hello()["you"]["seat"] == 1


def test_the_host_may_open_a_private_table_to_watchers_and_close_a_public_one(hall):
    ann, bob, cy = hall.guest("Ann"), hall.guest("Bob"), hall.guest("Cy")
    for options, watchable in (
        ({"private": True, "open_to_watchers": True}, True),
        ({"open_to_watchers": False}, False),
        ({}, True),
    ):
        table = ann.post("/api/tables", {"seats": 2, **options}).json()["table"]
        assert table["open_to_watchers"] is watchable
        tid = table["id"]
        bob.post(f"/api/tables/{tid}/join")
        ann.post(f"/api/tables/{tid}/start")
        with cy.socket(tid) as ws:
            if watchable:
                watcher = Sock(ws)
                assert watcher.hello()["you"]["seat"] is None
                assert watcher.state["hand"]["tiles"] == []
                assert watcher.state["table"]["open_to_watchers"] is True
            else:
                assert refused_watching(ws)["code"] == "not_open_to_watchers"
        # (Ann's tables count against her limit: Bob resigns it, which is no strike)
        with bob.socket(tid) as ws:
            player = Sock(ws)
            player.hello()
            assert player.ask({"type": "resign"})["type"] == "ack"


@pytest.mark.parametrize("value", [1, "yes", []])
def test_open_to_watchers_of_the_wrong_type_is_refused_naming_it(hall, value):
    ann = hall.guest("Ann")
    answer = ann.post("/api/tables", {"private": True, "open_to_watchers": value})
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_request" and "open_to_watchers" in error["message"]
    assert ann.get("/api/me/tables").json()["tables"] == []


def test_a_move_the_store_could_not_keep_is_refused_and_nothing_changes(hall, monkeypatch):
    with two_players(hall) as (_tid, socks):
        mover, _ = mover_of(socks)
        store = hall.client.app.state.hall.store
        version = mover.version

        async def full(*args, **kwargs):
            raise OSError("No space left on device")

        def disk_full(*args, **kwargs):
            return asyncio.ensure_future(full())

        with monkeypatch.context() as patch:
            patch.setattr(store, "start_append", disk_full)
            assert refused(mover, first_move(mover.moves)) == "server_error"
        answer = mover.ask(first_move(mover.moves))
        assert answer == {"type": "ack", "id": "r1", "version": version + 1}


@pytest.mark.anyio
async def test_a_socket_far_behind_its_table_is_owed_the_whole_state_not_every_change(tmp_path):
    async with running_hall(tmp_path) as hall:
        table = await started_table(hall, [ANN, BOB])
        room = await hall.room(table)
        client = Client(None, hall, room, 0, ANN, None)  # type: ignore[arg-type]  # (no writing, no chat)
        client.greeted = True
        change = TableChange(table, 1, 0, False, {}, {})
        for _ in range(Client.MOST_WAITING):
            client.changed(change)
        assert len(client.changes) == Client.MOST_WAITING and not client.full
        client.changed(change)
        assert client.changes == [] and client.full


def test_a_socket_whose_table_owner_is_away_is_closed_to_be_opened_again(hall, monkeypatch):
    """Several processes (docs/deploy.md): while the table's owner cannot be reached (its
    process was killed and its lease has not expired yet), hello cannot be answered with the
    state; the socket is closed with 1013 (try again later), so that its client reconnects,
    rather than left open with no state and nothing to bring one. A resync likewise."""
    from dominohall.hall import HallError
    from dominohall.hall.command_path import CommandPath

    real_view = CommandPath.view  # (the socket asks the table's owner: here, this process)
    away = [True]

    async def view(self, *args: Any, **kwargs: Any) -> Any:
        if away[0]:
            raise HallError(
                "owner_unreachable", "the process that holds the table is not listening"
            )
        return await real_view(self, *args, **kwargs)

    ann = hall.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    monkeypatch.setattr(CommandPath, "view", view)
    with ann.socket(tid) as ws:
        ws.send_json({"type": "hello"})
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013
    away[0] = False
    with ann.socket(tid) as ws:
        sock = Sock(ws)
        assert sock.hello()["you"]["seat"] == 0  # the owner back: the state, as ever
        away[0] = True
        ws.send_json({"type": "resync"})
        with pytest.raises(WebSocketDisconnect) as closed:
            ws.receive_json()
        assert closed.value.code == 1013


def test_a_change_made_while_hello_is_answered_still_reaches_the_socket(hall, monkeypatch):
    """The whole state hello sends is read first (on several processes, asked of the table's
    owner, over Redis); a change made meanwhile, newer than that state, follows it: before, it
    was dropped (the socket had not said hello yet), and the socket sat at the older version,
    with no gap to show, until the next change."""
    from dominohall.hall import Person
    from dominohall.hall.command_path import CommandPath
    from dominohall.rules import DRAW, Move

    with two_players(hall) as (tid, socks):
        mover, _other = mover_of(socks)
        asked = first_move(mover.moves)
        person = Person(mover.state["you"]["player"], mover.state["you"]["name"])
        if asked["type"] == "play":
            tile, arm = asked["tile"], asked.get("arm")
            move = Move.lead(tile) if arm is None else Move.play(tile, arm)
        else:
            move = DRAW if asked["type"] == "draw" else Move.pass_()
        real_view = CommandPath.view  # (the socket asks the table's owner: here, this process)
        the_hall = hall.client.app.state.hall
        moved: list[int] = []

        async def view(self: CommandPath, *args: Any, **kwargs: Any) -> Any:
            seen = await real_view(self, *args, **kwargs)
            if not moved:  # the move lands after the state was read, before it is sent
                moved.append(await the_hall.play(person, tid, move, until_fits=move == DRAW))
            return seen

        monkeypatch.setattr(CommandPath, "view", view)
        watcher = hall.guest("Cy")
        with watcher.socket(tid) as ws:
            sock = Sock(ws)
            sock.hello()
            assert moved and sock.version < moved[0]
            sock.catch_up(moved[0])  # (hangs until the test's timeout when the change is lost)
            assert sock.version == moved[0]
