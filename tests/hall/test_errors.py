"""The hall's refusal (``errors.py``): a message filled in from its template and parameters, a
literal message left as it is, and the round trip of a refusal to another process and back
(``carried`` / ``raised_again``, as ``owner_link.py`` sends it, through JSON) keeping its
template, its parameters' kinds and what its kind adds (``until``, ``retry_after``)."""

from __future__ import annotations

import json
from pathlib import PurePosixPath

from dominohall.hall.abandonment import HeldBack
from dominohall.hall.challenges import ChallengeLimited
from dominohall.hall.errors import STORE_UNAVAILABLE, HallError, store_unavailable
from dominohall.i18n import English, Phrase


def _across(error: HallError) -> HallError:
    """``error`` as the other process raises it again, after a trip through JSON."""
    return HallError.raised_again(json.loads(json.dumps(error.carried())))


def test_a_template_is_filled_in_and_kept_with_its_parameters() -> None:
    """The message is the template filled in; the template and the parameters stay for the web
    to translate; a message without parameters is literal (its braces are not a template)."""
    error = HallError("no_player", "there is no player {username!r}", username="zed")
    assert str(error) == error.message == "there is no player 'zed'"
    assert error.template == "there is no player {username!r}"
    assert error.params == {"username": "zed"}
    assert error.to_json() == {"code": "no_player", "message": "there is no player 'zed'"}
    literal = HallError("bad_request", "send {json}, not text")
    assert literal.message == literal.template == "send {json}, not text"
    assert literal.params == {}


def test_a_refusal_raised_again_elsewhere_says_the_same_and_keeps_its_template() -> None:
    """Across processes: the same code, message and answer; the template and parameters kept,
    a phrase still a phrase, English still English, anything else told as English."""
    error = HallError(
        "bad_option",
        "{what} at {where}: {why}, {count} tries",
        what=Phrase("nothing was done"),
        where=PurePosixPath("/tables/t1"),
        why=English("disk full"),
        count=3,
    )
    again = _across(error)
    assert isinstance(again, HallError)
    assert (again.code, again.message, str(again)) == (error.code, error.message, str(error))
    assert again.to_json() == error.to_json()
    assert again.template == error.template
    assert again.params == {
        "what": "nothing was done",
        "where": "/tables/t1",
        "why": "disk full",
        "count": 3,
    }
    assert type(again.params["what"]) is Phrase
    assert type(again.params["where"]) is English  # (not a type JSON knows: its words)
    assert type(again.params["why"]) is English
    assert type(again.params["count"]) is int


def test_what_a_kind_adds_crosses_with_it() -> None:
    """A held-back player's ``until`` and a rate limit's ``retry_after`` are in the answer on
    the other process too, with the message as told where it was refused."""
    held = HeldBack(until=1_000_600.0, now=1_000_000.0)
    assert held.to_json() == {
        "code": "held_back",
        "message": held.message,
        "until": 1_000_600.0,
    }
    assert "in 10 min" in held.message and held.params == {"minutes": 10}
    again = _across(held)
    assert again.to_json() == held.to_json()
    assert again.template == held.template and again.params == {"minutes": 10}

    limited = ChallengeLimited(retry_after=2.2)
    assert limited.to_json()["retry_after"] == 3  # (whole seconds, rounded up)
    assert _across(limited).to_json() == limited.to_json()
    # The web's Retry-After header reads the attribute (web/answers.py): there too.
    assert getattr(_across(limited), "retry_after", None) == 3
    assert getattr(again, "retry_after", None) is None
    # A refusal that adds nothing adds nothing there either.
    plain = _across(HallError("no_table", "there is no table 'x'"))
    assert plain.to_json() == {"code": "no_table", "message": "there is no table 'x'"}


def test_the_database_away_says_what_became_of_the_request() -> None:
    """``store_unavailable``: its code, "nothing was done" unless told otherwise, the words a
    phrase (translated with the message) that survives the trip."""
    default = store_unavailable()
    assert default.code == STORE_UNAVAILABLE == "store_unavailable"
    assert default.message == "the database is unreachable just now: nothing was done; try again"
    moved = store_unavailable(Phrase("your move was not made"))
    assert moved.message.endswith(": your move was not made; try again")
    assert type(_across(moved).params["words"]) is Phrase
