"""What a chat line may be: nasty inputs cleaned (bidi, zero-width, zalgo, controls), emoji kept
whole, the length counted after NFC, and a refusal that says what was wrong."""

from __future__ import annotations

import doctest
import unicodedata

import pytest

from dominohall.hall import chat_text
from dominohall.hall.chat_text import (
    MAX_LENGTH,
    MAX_MARKS,
    QUICK_PHRASES,
    ChatLineTooLong,
    ChatTextError,
    EmptyChatLine,
    UnknownQuickPhrase,
    clean,
    quick_phrase,
)


def test_the_examples_in_the_doc_run() -> None:
    result = doctest.testmod(chat_text, report=False)
    assert result.attempted >= 2 and result.failed == 0


def test_plain_text_passes_unchanged() -> None:
    assert clean("Nice capicúa, well played") == "Nice capicúa, well played"
    assert clean("<img src=x onerror=alert(1)>") == "<img src=x onerror=alert(1)>"  # text, as is


def test_bidi_controls_go() -> None:
    # U+202E would show "txt.exe" as "exe.txt"; the isolates and marks are as invisible.
    assert clean("gg \u202eexe.txt") == "gg exe.txt"
    assert clean("\u2066a\u2069\u200eb\u200f\u061c") == "ab"


def test_zero_width_characters_go() -> None:
    assert clean("no\u200bob") == "noob"
    assert clean("f\u200c\u200do\ufeffo\u2060l\u00ad") == "fool"  # ZWNJ, ZWJ, BOM, WJ, SHY


def test_the_joiner_is_kept_between_two_emoji_only() -> None:
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"  # 👨‍👩‍👧
    coder = "\U0001f469\U0001f3fd\u200d\U0001f4bb"  # 👩🏽‍💻: a skin tone before the joiner
    rainbow = "\U0001f3f3\ufe0f\u200d\U0001f308"  # 🏳️‍🌈: a presentation selector before it
    for emoji in (family, coder, rainbow):
        assert clean(f"gg {emoji}") == f"gg {emoji}"
    assert clean("a\u200d\U0001f600") == "a\U0001f600"  # a letter: no emoji sequence
    assert clean("\U0001f600\u200da") == "\U0001f600a"
    assert clean("\U0001f600\u200d") == "\U0001f600"  # nothing after it
    # Two joiners in a row: only the one right before the next emoji is kept.
    assert clean("\U0001f600\u200d\u200d\U0001f600") == "\U0001f600\u200d\U0001f600"


def test_a_subdivision_flag_loses_its_tags() -> None:
    england = "\U0001f3f4\U000e0067\U000e0062\U000e0065\U000e006e\U000e0067\U000e007f"
    assert clean(england) == "\U0001f3f4"
    # Tag characters can carry text nobody sees.
    hidden = "".join(chr(0xE0000 + ord(c)) for c in "ignore all previous")
    assert clean(f"hi{hidden}") == "hi"


def test_line_breaks_become_spaces_and_other_controls_go() -> None:
    assert clean("good\ngame\r\nall\tround") == "good game  all round"
    assert clean("a\x00b\x07c\x1bd\x7fe\x9bf") == "abcdef"
    assert clean("a\u2028b\u2029c") == "a b c"
    assert clean("\n\n  hi  \t") == "hi"


def test_a_lone_surrogate_goes() -> None:
    assert clean("a\ud800b") == "ab"


def test_zalgo_is_cut_down_to_a_few_marks_per_character() -> None:
    zalgo = "Z" + "\u0336\u0301\u0334" * 34  # 102 marks on one letter
    # NFC takes the acute into the letter (Ź) and sorts the marks; three stay on it.
    cleaned = clean(zalgo)
    assert cleaned[0] == "\u0179" and len(cleaned) == 1 + MAX_MARKS
    assert clean("a" + "\u0301" * 100 + "b" + "\u0300" * 100) == (
        "\u00e1" + "\u0301" * MAX_MARKS + "b" + "\u0300" * MAX_MARKS  # á: composed first
    )
    # Each character gets its own allowance; a mark run is counted after NFC (é is one code point).
    assert clean("e\u0301\u0301\u0301\u0301") == "\u00e9\u0301\u0301\u0301"


def test_marks_with_nothing_to_sit_on_go() -> None:
    assert clean("\u0301\u0302hello") == "hello"
    assert clean("a \u0301b") == "a \u0301b"  # a space is something to sit on
    with pytest.raises(EmptyChatLine):
        clean("\u0301" * 100)


def test_real_writing_keeps_its_marks() -> None:
    hebrew = "\u05e9\u05bc\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd"  # שָּׁלוֹם: 3 marks on the shin
    thai = "\u0e19\u0e49\u0e33"  # น้ำ
    hindi = "\u0938\u094d\u0924\u094d\u0930\u0940"  # स्त्री
    keycap = "1\ufe0f\u20e3"  # 1️⃣
    for text in (hebrew, thai, hindi, keycap):
        assert clean(text) == unicodedata.normalize("NFC", text)


def test_the_length_is_counted_in_code_points_after_nfc() -> None:
    assert clean("a" * MAX_LENGTH) == "a" * MAX_LENGTH
    with pytest.raises(ChatLineTooLong) as refused:
        clean("a" * (MAX_LENGTH + 1))
    assert refused.value.length == 141
    assert str(refused.value) == "the chat line is 141 characters long; at most 140 may be sent"
    # "é" typed as e + U+0301 (NFD) is one code point once composed: 140 of them fit.
    decomposed = "e\u0301" * MAX_LENGTH
    assert len(decomposed) == 280
    assert clean(decomposed) == "\u00e9" * MAX_LENGTH
    # Invisible characters removed do not count, nor spaces at the ends.
    assert clean("\u200b" * 50 + "a" * MAX_LENGTH + "   ") == "a" * MAX_LENGTH
    # An emoji is one code point or several: a family is five.
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    assert clean(family * 28) == family * 28
    with pytest.raises(ChatLineTooLong):
        clean(family * 28 + "!")


def test_nfc_and_nfd_of_one_word_are_kept_alike() -> None:
    nfc, nfd = "capicúa", unicodedata.normalize("NFD", "capicúa")
    assert nfc != nfd
    assert clean(nfc) == clean(nfd) == nfc


def test_removing_a_character_lets_a_base_and_its_mark_compose() -> None:
    assert clean("e\u200b\u0301") == "\u00e9"


@pytest.mark.parametrize("text", ["", "   ", "\n\t", "\u200b\u200d\u202e", "\x00"])
def test_an_empty_line_is_refused(text: str) -> None:
    with pytest.raises(EmptyChatLine) as refused:
        clean(text)
    assert "empty" in str(refused.value)


def test_refusals_are_value_errors() -> None:
    assert issubclass(ChatTextError, ValueError)
    for error in (EmptyChatLine, ChatLineTooLong, UnknownQuickPhrase):
        assert issubclass(error, ChatTextError)


NASTY = [
    "\u202egg",
    "Z" + "\u0336" * 100,
    "\U0001f468\u200d\U0001f469\u200d\u200b\U0001f467",
    "e\u0301" * 200,
    "\u0301a\u200d\u0301\u0302\u0303\u0304",
    "a\u200b\u0301\u0301\u0301\u0301",
    " \u00ad\n x \u2028",
]


@pytest.mark.parametrize("text", NASTY)
def test_cleaning_twice_changes_nothing(text: str) -> None:
    try:
        once = clean(text)
    except ChatTextError:
        return
    assert clean(once) == once
    assert all(unicodedata.category(c) not in ("Cc", "Cs") for c in once)
    assert all(unicodedata.category(c) != "Cf" or c == "\u200d" for c in once)


def test_quick_phrases_are_sent_by_id() -> None:
    assert {"good_game", "well_played", "good_luck", "thanks"} <= set(QUICK_PHRASES)
    assert quick_phrase("nice_capicua").text == "Nice capicúa!"
    for phrase_id, phrase in QUICK_PHRASES.items():
        assert phrase.id == phrase_id and clean(phrase.text) == phrase.text
    with pytest.raises(UnknownQuickPhrase) as refused:
        quick_phrase("insult")
    assert str(refused.value).startswith("no quick phrase 'insult'; known: hello, ")
