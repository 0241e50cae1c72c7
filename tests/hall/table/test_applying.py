"""Applying: every kind of event has its handler and the phases that allow it."""

from __future__ import annotations

import typing

from dominohall.hall.events import Event
from dominohall.hall.table.applying import ALLOWED, HANDLERS


def test_every_event_has_one_handler_and_its_phases():
    kinds = set(typing.get_args(Event))
    assert set(HANDLERS) == kinds
    assert set(ALLOWED) == kinds
    assert all(ALLOWED[kind] for kind in kinds)
