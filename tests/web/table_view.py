"""A client's copy of its table under protocol 2 (docs/protocol.md 3.2), as the page keeps it: the
whole ``state`` when sent, each ``update`` applied to it, ``presence`` applied to the seats,
``watchers`` to the count."""

from __future__ import annotations

import copy
from typing import Any

_PARTS = ("table", "you", "seats", "next_hand", "game", "rematch", "clock", "turn_based")


class Gap(AssertionError):
    """An update that does not follow the version the client has: it must ask for a resync."""


class TableView:
    def __init__(self) -> None:
        self.state: dict[str, Any] = {}
        self.version = 0
        self.events: list[dict[str, Any]] = []  # every event received, in order

    def take(self, message: dict[str, Any]) -> bool:
        """Apply a message; False when it is not about the table (ack, error, pong, ...)."""
        kind = message["type"]
        if kind == "state":
            self.state, self.version = copy.deepcopy(message["state"]), message["version"]
            self.events += message["events"]
            return True
        if kind == "presence":
            if self.state.get("seats"):
                self.state["seats"][message["seat"]]["connected"] = message["connected"]
            return True
        if kind == "watchers":  # (unversioned: how many watch)
            self.state["watchers"] = message["count"]
            return True
        if kind == "resign_asked":  # (unversioned: the team's pending request)
            self.state["you"]["resign"] = {k: v for k, v in message.items() if k != "type"}
            return True
        if kind == "resign_declined":
            self.state["you"]["resign"] = None
            return True
        if kind != "update":
            return False
        events = message["events"]
        if events and events[0]["version"] != self.version + 1:
            raise Gap(f"update from version {events[0]['version']} after {self.version}")
        apply_update(self.state, message)
        self.version = message["version"]
        self.events += events
        return True


def apply_update(state: dict[str, Any], message: dict[str, Any]) -> None:
    message = copy.deepcopy(message)
    for part in _PARTS:
        if part in message:
            state[part] = message[part]
    for key, field in (("counts", "tiles"), ("scores", "score")):
        for seat, value in zip(state["seats"], message.get(key, ()), strict=False):
            seat[field] = value
    patch = message.get("hand")
    hand = state.get("hand")
    if patch is None or hand is None:
        return
    layout = patch.pop("layout", None)
    hand.update(patch)
    if layout is not None:
        apply_layout(hand["layout"], layout)
    hand["log"] += [e for e in message["events"] if e["kind"] in ("move", "hand_over")]


def apply_layout(layout: dict[str, Any], delta: dict[str, Any]) -> None:
    """Tiles laid since the client's copy, the arms they opened, the open ends now."""
    for arm in delta["arms"]:
        layout["arms"].append({**arm, "tiles": [], "open": False, "end": None})
    arms = {arm["arm"]: arm for arm in layout["arms"]}
    for laid in delta["laid"]:
        tile, arm, facing = laid["tile"], laid["arm"], laid["facing"]
        layout["chain"].append({"tile": tile, "arm": arm, "facing": facing})
        if arm is None:
            layout["lead"] = {"tile": tile, "first": facing, "spinner": laid["spinner"]}
        else:
            arms[arm]["tiles"].append({k: v for k, v in laid.items() if k != "arm"})
    ends = {e["arm"]: e["number"] for e in delta["open_ends"]}
    for number, arm in arms.items():
        arm["open"], arm["end"] = number in ends, ends.get(number)
    layout["open_ends"] = delta["open_ends"]


def comparable(state: dict[str, Any]) -> dict[str, Any]:
    """A state without what differs by the moment it was made (``now``, seconds ``left``)."""
    state = copy.deepcopy(state)
    state.pop("now", None)
    for part in ("clock", "next_hand"):
        if state.get(part):
            state[part].pop("left", None)
    return state
