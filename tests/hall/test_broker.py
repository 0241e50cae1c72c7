"""The in-memory broker: a table's changes reach that table's listeners, a player's notices that
player's, each until it unsubscribes."""

from __future__ import annotations

from dominohall.hall.broker import MemoryBroker


def test_a_tables_versions_and_notices_reach_its_listeners_only():
    broker = MemoryBroker()
    first: list[object] = []
    second: list[object] = []
    elsewhere: list[object] = []
    broker.subscribe("t1", first.append)
    broker.subscribe("t1", second.append)
    broker.subscribe("t2", elsewhere.append)
    notice = {"kind": "presence", "seat": 1, "connected": False}
    broker.publish("t1", 7)
    broker.notify("t1", notice)
    broker.publish("t3", 1)  # nobody listens: nothing happens
    assert first == second == [7, notice]
    assert elsewhere == []


def test_a_listener_hears_nothing_once_it_unsubscribed_and_the_others_still_do():
    broker = MemoryBroker()
    gone: list[object] = []
    staying: list[object] = []
    unsubscribe = broker.subscribe("t1", gone.append)
    broker.subscribe("t1", staying.append)
    broker.publish("t1", 1)
    unsubscribe()
    unsubscribe()  # twice is harmless (a socket closing while it is being closed)
    broker.publish("t1", 2)
    assert gone == [1]
    assert staying == [1, 2]


def test_a_players_notices_reach_that_player_only_until_they_stop_listening():
    broker = MemoryBroker()
    ann: list[object] = []
    bob: list[object] = []
    stop = broker.listen("p_ann", ann.append)
    broker.listen("p_bob", bob.append)
    broker.tell("p_ann", {"kind": "your_turn", "table": "t1"})
    stop()
    broker.tell("p_ann", {"kind": "your_turn", "table": "t2"})
    broker.tell("p_bob", {"kind": "seated", "table": "t1"})
    assert ann == [{"kind": "your_turn", "table": "t1"}]
    assert bob == [{"kind": "seated", "table": "t1"}]
    broker.tell("p_ann", {"kind": "nobody listening"})  # no error either
