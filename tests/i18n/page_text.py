"""What the page's modules would show a player, read from their source without running them: a
small lexer for the JavaScript the page is written in (strings, template literals with their
${} holes, htm's html`...` templates, comments, regular expressions).

``unmarked(source)`` lists the English a module shows without passing it through ``_()``:
- in html`...` templates, text nodes and player-visible attributes (title, aria-label,
  placeholder, alt, label) that hold words;
- elsewhere, string and template literals that read as words for players: two words or more
  (their ${} holes taken out) unless every word is one of the stylesheets' classes, or one
  capitalised word ("Loading…", "Join").
A literal is marked when it is the msgid of ``_()``, ``ngettext()`` (both forms), ``pgettext()``
(context and msgid), or an argument of ``console.*``; a line carrying ``// i18n: not shown``
is for developers only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

NOT_SHOWN = "// i18n: not shown"
VISIBLE_ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "label", "aria-description"}
# Not words for translating: the brand, symbols, and names of keys and HTTP that code compares.
ALLOWED = {"Domino Hall", "OK", "Enter", "Escape", "Tab", "Home", "End", "Space", "Backspace"}
_MARKING = re.compile(r"\b(?:_|_html|N_|ngettext|pgettext|gettext)\(\s*$|\bconsole\.\w+\(\s*$")
_REGEX_BEFORE = set("(,=:[!&|?{};+-*%<>~^")
HOLE = "\x00"


@dataclass
class Literal:
    kind: str  # "html" (a template's static text, holes as HOLE), "string", "template"
    text: str
    line: int
    marked: bool = False


@dataclass
class _Lexer:
    src: str
    found: list[Literal] = field(default_factory=list)
    i: int = 0

    def line(self, at: int) -> int:
        return self.src.count("\n", 0, at) + 1

    def code(self, stop_at_brace: bool = False) -> None:
        """JavaScript code up to its end (or the } closing a ${ hole)."""
        depth, since = 0, self.i
        last: Literal | None = None
        while self.i < len(self.src):
            c = self.src[self.i]
            if self.src.startswith("//", self.i):
                self.i = self.src.find("\n", self.i) % (len(self.src) + 1) or len(self.src)
                continue
            if self.src.startswith("/*", self.i):
                self.i = self.src.index("*/", self.i) + 2
                continue
            if c in "'\"`":
                before = self.src[since : self.i]
                start = self.i
                literal = self.string(c, html=c == "`" and before.rstrip().endswith("html"))
                literal.marked = bool(_MARKING.search(before)) or (
                    last is not None
                    and last.marked
                    and re.fullmatch(r"\s*,\s*", before) is not None
                )
                literal.line = self.line(start)
                last, since = literal, self.i
                continue
            if c == "/" and self._starts_regex():
                self.regex()
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                if stop_at_brace and depth == 0:
                    self.i += 1
                    return
                depth -= 1
            self.i += 1

    def _starts_regex(self) -> bool:
        before = self.src[: self.i].rstrip()
        return not before or before[-1] in _REGEX_BEFORE or before.endswith(("return", "typeof"))

    def regex(self) -> None:
        self.i += 1
        in_class = False
        while self.i < len(self.src):
            c = self.src[self.i]
            if c == "\\":
                self.i += 2
                continue
            if c == "[":
                in_class = True
            elif c == "]":
                in_class = False
            elif c == "/" and not in_class:
                self.i += 1
                return
            self.i += 1

    def string(self, quote: str, html: bool) -> Literal:
        self.i += 1
        text: list[str] = []
        literal = Literal("html" if html else ("template" if quote == "`" else "string"), "", 0)
        self.found.append(literal)
        while self.i < len(self.src):
            c = self.src[self.i]
            if c == "\\":
                text.append(self.src[self.i + 1 : self.i + 2])
                self.i += 2
                continue
            if c == quote:
                self.i += 1
                break
            if quote == "`" and self.src.startswith("${", self.i):
                self.i += 2
                text.append(HOLE)
                self.code(stop_at_brace=True)
                continue
            text.append(c)
            self.i += 1
        literal.text = "".join(text)
        return literal


def literals(source: str) -> list[Literal]:
    lexer = _Lexer(source)
    lexer.code()
    return lexer.found


def css_classes(*sheets: Path) -> set[str]:
    return {
        name for sheet in sheets for name in re.findall(r"\.([A-Za-z][\w-]*)", sheet.read_text())
    }


def _has_words(text: str) -> bool:
    text = text.strip()
    return bool(re.search(r"[A-Za-z]{2,}", text)) and text not in ALLOWED


def _reads_as_words(raw: str, classes: set[str]) -> bool:
    text = raw.replace(HOLE, " ").strip()
    if text in ALLOWED:
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'’-]*", text)
    if any(len(word) > 1 for word in words) and all(word in classes for word in text.split()):
        return False  # a list of classes
    if len(words) >= 2 and " " in raw.replace(HOLE, ""):
        return True
    # One word: a capitalised one, or a piece glued into a sentence (" (guest)", "to ").
    piece = raw != raw.strip() or "(" in raw
    return bool(re.fullmatch(r"[A-Z][a-z]+[.!?…]*", text)) or (
        piece and len(words) == 1 and len(words[0]) > 1
    )


def unmarked(source: str, classes: set[str]) -> list[str]:
    shown_lines = {
        number for number, line in enumerate(source.splitlines(), 1) if NOT_SHOWN in line
    }
    bad: list[str] = []
    for literal in literals(source):
        if literal.marked or literal.line in shown_lines:
            continue
        if literal.kind == "html":
            for piece in re.split(r"<[^>]*>", literal.text):
                bad += [part.strip() for part in piece.split(HOLE) if _has_words(part)]
            for tag in re.findall(r"<[^>]*>", literal.text):
                for name, value in re.findall(r'([\w-]+)="([^"]*)"', tag):
                    if name in VISIBLE_ATTRIBUTES and _has_words(value):
                        bad.append(f'{name}="{value}"')
        elif _reads_as_words(literal.text, classes):
            bad.append(literal.text.replace(HOLE, "${}"))
    return bad
