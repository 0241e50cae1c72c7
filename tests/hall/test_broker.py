"""The in-memory broker: a table's changes reach that table's listeners, a player's notices that
player's, each until it unsubscribes."""

from __future__ import annotations

from dominohall.hall.broker import MemoryBroker
from dominohall.hall.notices import Seated, SeatPresence, TableOver, YourTurn
from dominohall.hall.table_feed import TableChange


def change(table_id: str, version: int) -> TableChange:
    return TableChange(table_id, version, version - 1, False, {}, {})


def test_a_tables_versions_and_notices_reach_its_listeners_only():
    broker = MemoryBroker()
    first: list[object] = []
    second: list[object] = []
    elsewhere: list[object] = []
    broker.subscribe("t1", first.append)
    broker.subscribe("t1", second.append)
    broker.subscribe("t2", elsewhere.append)
    notice = SeatPresence(1, False)
    broker.publish("t1", change("t1", 7))
    broker.notify("t1", notice)
    broker.publish("t3", change("t3", 1))  # nobody listens: nothing happens
    assert first == second == [change("t1", 7), notice]
    assert elsewhere == []


def test_a_listener_hears_nothing_once_it_unsubscribed_and_the_others_still_do():
    broker = MemoryBroker()
    gone: list[object] = []
    staying: list[object] = []
    unsubscribe = broker.subscribe("t1", gone.append)
    broker.subscribe("t1", staying.append)
    broker.publish("t1", change("t1", 1))
    unsubscribe()
    unsubscribe()  # twice is harmless (a socket closing while it is being closed)
    broker.publish("t1", change("t1", 2))
    assert gone == [change("t1", 1)]
    assert staying == [change("t1", 1), change("t1", 2)]


def test_a_players_notices_reach_that_player_only_until_they_stop_listening():
    broker = MemoryBroker()
    ann: list[object] = []
    bob: list[object] = []
    stop = broker.listen("p_ann", ann.append)
    broker.listen("p_bob", bob.append)
    broker.tell("p_ann", YourTurn("t1", 0, 5, 100.0))
    stop()
    broker.tell("p_ann", YourTurn("t2", 0, 5, 100.0))
    broker.tell("p_bob", Seated("t1", 1))
    assert ann == [YourTurn("t1", 0, 5, 100.0)]
    assert bob == [Seated("t1", 1)]
    broker.tell("p_ann", TableOver("t1"))  # nobody listening: no error either
