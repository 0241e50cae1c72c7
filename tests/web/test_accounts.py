"""Names and usernames after Unicode normalisation: nothing invisible, no look-alike usernames."""

from __future__ import annotations

import pytest

from dominohall.web.accounts import check_name, check_username

from .test_http import error_of

INVISIBLE = [
    "\u3164",  # Hangul filler
    "\u115f",  # Hangul choseong filler
    "\u1160",  # Hangul jungseong filler
    "\uffa0",  # halfwidth Hangul filler
    "\u200b",  # zero-width space
    "\u200b\u200c\u200d\u200e\u200f",
    "\u2060",  # word joiner
    "\ufeff",  # zero-width no-break space
    "\u00ad",  # soft hyphen
    "\u0301",  # a combining mark alone
    "\u0301\u0301",
    "\u3164 \u3164",
    "\U000e0041",  # a tag character
]


@pytest.mark.parametrize("name", INVISIBLE)
def test_a_name_with_nothing_visible_is_refused(hall, name):
    assert error_of(hall.client.post("/api/guest", json={"name": name}), 400) == "bad_name"


@pytest.mark.parametrize("name", ["Ann\u3164", "A\u200bnn", "Ann\ufe0f", "\u0301Ann", "Bob\u2060"])
def test_an_invisible_character_inside_a_name_is_refused(hall, name):
    assert error_of(hall.client.post("/api/guest", json={"name": name}), 400) == "bad_name"


@pytest.mark.parametrize(
    ("typed", "kept"),
    [
        ("\uff21\uff4e\uff4e", "Ann"),  # fullwidth
        ("Zoe\u0308", "Zo\u00eb"),  # e + combining diaeresis: one letter
        ("\u01c5ana", "D\u017eana"),  # the title-case digraph, spelled out
        ("  Ann Lee ", "Ann Lee"),
    ],
)
def test_names_are_kept_normalised(hall, typed, kept):
    answer = hall.client.post("/api/guest", json={"name": typed})
    assert answer.status_code == 200, answer.text
    assert answer.json()["player"]["name"] == kept


@pytest.mark.parametrize("name", ["अनिल", "สมศักดิ์", "محمد", "Ærøskøbing", "李小龍", "Ⅻ"])
def test_names_in_scripts_with_marks_are_names(name):
    assert check_name(name)


def test_a_name_is_counted_after_normalising():
    assert check_name("e\u0301" * 20) == "\u00e9" * 20
    assert len(check_name("\ufdfa")) == 18  # one character, written out in eighteen
    with pytest.raises(Exception, match="not 36"):
        check_name("\ufdfa\ufdfa")
    assert len(check_name("x" * 20)) == 20


def test_a_username_is_normalised_and_case_folded_before_it_is_checked(hall):
    kelvin = hall.client.post("/api/accounts", json={"username": "kelvin", "password": "12345678"})
    assert kelvin.status_code == 200
    hall.client.cookies.clear()
    for look_alike in ("\u212aelvin", "KELVIN", "\uff4b\uff45\uff4c\uff56\uff49\uff4e"):
        answer = hall.client.post(
            "/api/accounts", json={"username": look_alike, "password": "12345678"}
        )
        assert error_of(answer, 409) == "username_taken"
        hall.client.cookies.clear()
        signed = hall.client.post(
            "/api/sign-in", json={"username": look_alike, "password": "12345678"}
        )
        assert signed.json()["player"]["id"] == kelvin.json()["player"]["id"]
        hall.client.cookies.clear()
    assert check_username("Stra\u00dfe") == "strasse"
    for bad in ("k\u200belvin", "kel vin", "\u0138elvin", "ke", "k" * 21):
        with pytest.raises(Exception, match="username"):
            check_username(bad)


def test_the_lengths_the_hall_sends_are_the_ones_it_keeps_to(hall):
    # GET /api/presets says how long a name, a username and a password may be, for the page.
    lengths = hall.client.get("/api/presets").json()["lengths"]
    (fewest, most), (fewest_user, most_user) = lengths["name"], lengths["username"]
    fewest_password, most_password = lengths["password"]
    assert (fewest, fewest_user) == (1, 3)
    assert hall.client.post("/api/guest", json={"name": "n" * most}).status_code == 200
    answer = hall.client.post("/api/guest", json={"name": "n" * (most + 1)})
    assert error_of(answer, 400) == "bad_name" and f"1 to {most} characters" in answer.text
    assert check_username("u" * most_user) == "u" * most_user
    assert check_username("u" * fewest_user) == "u" * fewest_user

    def account(username: str, password: str):
        return hall.client.post("/api/accounts", json={"username": username, "password": password})

    answer = account("u" * (most_user + 1), "correct horse")
    assert error_of(answer, 400) == "bad_username" and f"3 to {most_user}" in answer.text
    assert error_of(account("u" * (fewest_user - 1), "correct horse"), 400) == "bad_username"
    for password in ("p" * (fewest_password - 1), "p" * (most_password + 1)):
        answer = account("pat", password)
        assert error_of(answer, 400) == "bad_password"
        assert f"{fewest_password} to {most_password} characters" in answer.text
    assert account("pat", "p" * fewest_password).status_code == 200
