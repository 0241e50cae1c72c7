"""An email address as the settings take it: checked, its domain in lower case, and a bad one
refused saying what was typed."""

from __future__ import annotations

import pytest

from dominohall.hall import HallError
from dominohall.web.notifications import email_address


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("ann@example.org", "ann@example.org"),
        ("  Ann.Smith+hall@Mail.Example.ORG \n", "Ann.Smith+hall@mail.example.org"),
        ("o'brien@example.co.uk", "o'brien@example.co.uk"),
    ],
)
def test_an_address_is_kept_with_its_domain_in_lower_case_and_its_local_part_as_typed(typed, kept):
    assert email_address(typed) == kept


@pytest.mark.parametrize(
    "typed",
    [
        "",
        "ann",
        "ann@localhost",
        "ann@@example.org",
        "ann.@example.org",
        "ann@-example.org",
        "ann smith@example.org",
        "a" * 65 + "@example.org",
        "ann@" + ".".join(["a" * 63] * 4) + ".org",  # labels fine, but longer than 254
    ],
)
def test_what_is_not_an_address_is_refused_saying_what_was_typed(typed):
    with pytest.raises(HallError) as refused:
        email_address(typed)
    assert refused.value.code == "bad_email"
    assert refused.value.message.startswith(repr(typed.strip()[:60]))
    assert refused.value.message.endswith("is not an email address (like ann@example.org)")


def test_a_local_part_of_64_characters_is_an_address():
    assert email_address("a" * 64 + "@example.org") == "a" * 64 + "@example.org"
