"""Reading clients' JSON: the nesting cap, and the type check of each kind of field."""

from __future__ import annotations

import json

import pytest

from dominohall.hall import HallError
from dominohall.i18n import N_
from dominohall.web.fields import MAX_DEPTH, Fields, parse


def nested(depth: int, inner: str = "") -> str:
    return "[" * depth + inner + "]" * depth


def code_of(raw: str | bytes) -> str:
    with pytest.raises(HallError) as refused:
        parse(raw)
    return refused.value.code


def test_nesting_up_to_the_cap_is_read_and_one_more_level_is_bad_json():
    assert parse(nested(MAX_DEPTH, "1")) == json.loads(nested(MAX_DEPTH, "1"))
    assert code_of(nested(MAX_DEPTH + 1)) == "bad_json"
    assert code_of('{"a": ' * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1)) == "bad_json"
    assert code_of(nested(100_000)) == "bad_json"


def test_brackets_inside_strings_do_not_count_as_nesting():
    text = '{"a": "' + "[" * 100 + '", "b": ["\\"[[[[", "]]]"]}'
    assert parse(text) == {"a": "[" * 100, "b": ['"[[[[', "]]]"]}
    many_flat = "[" + ",".join(["[]"] * 500) + "]"  # many brackets, depth 2
    assert parse(many_flat) == [[]] * 500


@pytest.mark.parametrize("raw", ["", "{", "nope", b"\xff", '"\\ud800"', "1e400", "[1,]"])
def test_what_is_not_json_is_bad_json(raw):
    assert code_of(raw) == "bad_json"


def test_fields_check_types_and_name_the_field():
    body = Fields({"n": 3, "t": True, "s": "x", "l": [None, "a"], "z": None}, "bad_request", "it")
    assert (body.integer("n", minimum=0), body.flag("t"), body.text("s")) == (3, True, "x")
    assert body.texts_or_nulls("l") == [None, "a"] and body.integer("z") is None
    # Each refusal a whole sentence (web/fields.py), the English as it always was.
    for read, words in (
        (lambda: body.integer("t"), "'t' is a whole number, not True"),
        (lambda: body.integer("s"), "'s' is a whole number, not 'x'"),
        (lambda: body.flag("n"), "'n' is true or false, not 3"),
        (lambda: body.text("l"), "'l' is a string, not [None, 'a']"),
        (lambda: body.texts_or_nulls("s"), "'s' is a list of strings or nulls, not 'x'"),
        (lambda: body.integer("z", required=True), "'z' is needed: a whole number"),
        (lambda: body.text("z", required=True), "'z' is needed: a string"),
        (
            lambda: Fields({"n": -1}, "bad_request", "it").integer("n", minimum=0),
            "'n' is a whole number from 0, not -1",
        ),
        (
            lambda: Fields({"extra": 1}, "bad_request", "it").only(("n", "m")),
            "unknown field 'extra' (known: n, m)",
        ),
        (
            lambda: Fields({"extra": 1}, "bad_request", "it").only(()),
            "unknown field 'extra' (this takes no fields)",
        ),
    ):
        with pytest.raises(HallError) as refused:
            read()
        assert (refused.value.code, refused.value.message) == ("bad_request", words)
    with pytest.raises(HallError) as refused:
        Fields([1], "bad_message", N_("a message is a JSON object, not {obj}"))
    assert (refused.value.code, refused.value.message) == (
        "bad_message",
        "a message is a JSON object, not [1]",
    )
