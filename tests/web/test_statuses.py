"""Each error code comes with one HTTP status, from web's one table; the hall's error has none."""

from __future__ import annotations

import inspect
import re
from pathlib import Path

from dominohall.hall import HallError
from dominohall.web.statuses import STATUS, status_of

SRC = Path(__file__).parents[2] / "src" / "dominohall"
PROTOCOL = Path(__file__).parents[2] / "docs" / "protocol.md"


def test_the_hall_error_carries_a_code_and_a_message_and_no_status():
    # (``params`` fill in a template of the message: the web translates it, issue 26)
    assert list(inspect.signature(HallError).parameters) == ["code", "message", "params"]
    assert inspect.signature(HallError).parameters["params"].kind is inspect.Parameter.VAR_KEYWORD
    assert not hasattr(HallError("no_table", "x"), "status")


def test_codes_map_to_their_status_and_the_rest_to_400():
    assert status_of(HallError("no_table", "there is no table 'x'")) == 404
    assert status_of(HallError("table_full", "every seat is taken")) == 409
    assert status_of(HallError("too_many_tables", "slow down")) == 429
    assert status_of(HallError("bad_option", "unknown game")) == 400


def test_every_code_with_a_status_is_raised_somewhere_and_documented_with_it():
    code = "\n".join(p.read_text() for p in SRC.rglob("*.py"))
    doc = PROTOCOL.read_text()
    for name, status in STATUS.items():
        assert f'"{name}"' in code, f"{name} is in the table but raised nowhere"
        near = [doc[max(0, m.start() - 40) : m.end() + 120] for m in re.finditer(name, doc)]
        assert any(str(status) in text for text in near), f"{name} ({status}) not in the doc"
