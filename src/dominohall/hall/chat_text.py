"""What a chat line may be: plain text, cleaned of what could hide, reorder or smear it, or one of
the quick phrases (an id, so that each reader sees it in their own language).

``clean`` takes the text as typed and gives it back as it will be kept and shown, or refuses it
with a ``ChatTextError`` saying what was wrong. The cleaning, in order:

- NFC normalisation, so that a word is the same code points however the sender's keyboard
  composed it (and the length limit counts what a reader sees, not how it was typed);
- control characters (Unicode Cc, and the line and paragraph separators) go; a line break or a
  tab becomes a space, so that a line cannot push the next ones off the chat box;
- format characters (Unicode Cf) go: bidi overrides and isolates (U+202E would show a line
  backwards), zero-width spaces and joiners (they make look-alike words, and hide text from a
  reader), the tag characters, the BOM. One exception: the zero-width joiner U+200D between two
  emoji is kept, because it is what makes a family, a rainbow flag or a profession one picture
  (👩‍💻); without it players would see their emoji fall apart into pieces. The other emoji that
  rest on format characters are not kept whole: a subdivision flag (England's) shows as a plain
  black flag, since its tag characters can also carry invisible text;
- combining marks (Unicode Mn, Me) are limited to ``MAX_MARKS`` in a row on one character, and
  dropped where there is no character to sit on (at the start, they would land on whatever the
  page shows before the line): stacks of dozens of marks ("zalgo" text) spill over the lines
  above and below. Three is what real writing needs after NFC (a Hebrew letter with its dagesh,
  vowel point and shin dot; a Thai consonant with a vowel and a tone mark; an emoji keycap);
- spaces at either end go, and a line left empty is refused;
- at most ``MAX_LENGTH`` code points remain, or the line is refused (not cut: the sender sees what
  was too long and may shorten it).

Markup is not a concern here: the text is kept and sent as text, and the page sets it as text.

>>> clean("  Good\\ngame\\u202e!  ")
'Good game!'
>>> clean("\\u200b")
Traceback (most recent call last):
...
dominohall.hall.chat_text.EmptyChatLine: the chat line is empty (after removing invisible characters)
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from types import MappingProxyType

MAX_LENGTH = 140  # code points, after cleaning
MAX_MARKS = 3  # combining marks in a row on one character

ZWJ = "\u200d"
# A line break or a tab becomes a space; other control characters go.
_SPACES = frozenset("\t\n\v\f\r\x1c\x1d\x1e\x85\u2028\u2029")
_MARKS = frozenset(("Mn", "Me"))
# What an emoji may end in before a joiner: presentation selector, skin tones.
_EMOJI_TAILS = frozenset(["\ufe0f", *map(chr, range(0x1F3FB, 0x1F400))])


class ChatTextError(ValueError):
    """A chat line that cannot be sent; the message says why."""


class EmptyChatLine(ChatTextError):
    def __init__(self) -> None:
        super().__init__("the chat line is empty (after removing invisible characters)")


class ChatLineTooLong(ChatTextError):
    def __init__(self, length: int) -> None:
        self.length = length
        super().__init__(
            f"the chat line is {length} characters long; at most {MAX_LENGTH} may be sent"
        )


class UnknownQuickPhrase(ChatTextError):
    def __init__(self, phrase: str) -> None:
        self.phrase = phrase
        super().__init__(f"no quick phrase {phrase!r}; known: {', '.join(QUICK_PHRASES)}")


def clean(text: str) -> str:
    """The chat line as it will be kept and shown (see the module's doc), or ``ChatTextError``."""
    kept = _without_controls(unicodedata.normalize("NFC", text))
    # Removing characters can bring a base and its mark together again: compose them once more.
    line = _marks_limited(unicodedata.normalize("NFC", "".join(kept))).strip()
    if not line:
        raise EmptyChatLine()
    if len(line) > MAX_LENGTH:
        raise ChatLineTooLong(len(line))
    return line


def _without_controls(text: str) -> list[str]:
    kept: list[str] = []
    for i, char in enumerate(text):
        if char in _SPACES:
            kept.append(" ")
            continue
        category = unicodedata.category(char)
        if category in ("Cc", "Cs"):  # Cs: a lone surrogate, as JSON may carry one
            continue
        if category == "Cf":
            after = text[i + 1] if i + 1 < len(text) else ""
            if char == ZWJ and kept and _emoji_end(kept[-1]) and _emoji(after):
                kept.append(char)
            continue
        kept.append(char)
    return kept


def _emoji(char: str) -> bool:
    # Python's Unicode database has no Emoji property; emoji are all "other symbols" (So).
    return bool(char) and unicodedata.category(char) == "So"


def _emoji_end(char: str) -> bool:
    return char in _EMOJI_TAILS or _emoji(char)


def _marks_limited(text: str) -> str:
    kept: list[str] = []
    run = MAX_MARKS  # at the start there is nothing for a mark to sit on
    for char in text:
        if unicodedata.category(char) in _MARKS:
            run += 1
            if run > MAX_MARKS:
                continue
        else:
            run = 0
        kept.append(char)
    return "".join(kept)


@dataclass(frozen=True)
class QuickPhrase:
    """A phrase sent by id (one tap on a phone); ``text`` is its English, for the translations."""

    id: str
    text: str


QUICK_PHRASES = MappingProxyType(
    {
        phrase.id: phrase
        for phrase in (
            QuickPhrase("hello", "Hello!"),
            QuickPhrase("good_luck", "Good luck"),
            QuickPhrase("well_played", "Well played"),
            QuickPhrase("nice_capicua", "Nice capicúa!"),
            QuickPhrase("domino", "Domino!"),
            QuickPhrase("pass", "Pass"),
            QuickPhrase("sorry", "Sorry"),
            QuickPhrase("thanks", "Thanks"),
            QuickPhrase("good_game", "Good game"),
        )
    }
)


def quick_phrase(phrase_id: str) -> QuickPhrase:
    """The quick phrase with this id, or ``UnknownQuickPhrase``."""
    try:
        return QUICK_PHRASES[phrase_id]
    except KeyError:
        raise UnknownQuickPhrase(phrase_id) from None
