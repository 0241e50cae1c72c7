"""The page's modules made smaller without changing what they do: comments and indentation out.

A build step would minify; the page has none, so ``web/assets.py`` does this once when the app
is made. It is deliberately modest: every line break stays (so no automatic semicolon changes
meaning) and only comments and the spaces that begin a line go. What a string, a template
literal or a regular expression holds is kept byte for byte, which needs a small scanner that
knows where those begin and end: a template's ``${...}`` is code again (templates nest), and a
``/`` opens a regular expression where a value cannot end (after an operator, an opening
bracket, a keyword such as ``return``, or at the start).
"""

from __future__ import annotations

import re

# After one of these (the last thing written that was not a space), a ``/`` starts a regular
# expression; after a value (a name, a number, a closing bracket, a string) it divides.
_BEFORE_REGEX = set("(,=:[!&|?{};+-*%<>~^")
_KEYWORDS_BEFORE_REGEX = {"return", "typeof", "instanceof", "in", "of", "new", "delete", "void",
                          "throw", "case", "do", "else", "yield", "await"}  # fmt: skip
_WORD = re.compile(r"[A-Za-z_$][\w$]*$")


def minify(source: str) -> str:
    """``source`` without comments, blank lines and the spaces that begin each line of code."""
    return _Scanner(source).run()


class _Scanner:
    def __init__(self, source: str) -> None:
        self.text = source
        self.at = 0
        self.out: list[str] = []
        # One entry per template literal we are inside the ``${...}`` of: the brace depth there.
        self.braces: list[int] = []
        self.depth = 0

    def run(self) -> str:
        text = self.text
        while self.at < len(text):
            char = text[self.at]
            if char == "\n":
                self._newline()
            elif char in " \t\r" and self._at_line_start():
                self.at += 1  # indentation: dropped
            elif text.startswith("//", self.at):
                end = text.find("\n", self.at)
                self.at = len(text) if end < 0 else end
            elif text.startswith("/*", self.at):
                end = text.find("*/", self.at + 2)
                if end < 0:
                    raise ValueError("a comment that is never closed")
                self._comment_to(end + 2)
            elif char in "'\"":
                self._string(char)
            elif char == "`":
                self._template()
            elif char == "/" and self._regex_may_start():
                self._regex()
            elif char == "{":
                self.depth += 1
                self._take(1)
            elif char == "}" and self.braces and self.depth == self.braces[-1]:
                self.braces.pop()  # the end of a template's ``${``: back in the template
                self.depth -= 1
                self._take(1)
                self._template_rest()
            else:
                if char == "}":
                    self.depth -= 1
                self._take(1)
        return "".join(self.out).strip("\n") + "\n"

    # -- pieces copied as they are ----------------------------------------------------------

    def _take(self, count: int) -> None:
        self.out.append(self.text[self.at : self.at + count])
        self.at += count

    def _string(self, quote: str) -> None:
        end = self.at + 1
        while self.text[end] != quote:
            if self.text[end] == "\\":
                end += 1
            elif self.text[end] == "\n":
                raise ValueError(f"a string not closed on its line, at {self.at}")
            end += 1
        self._take(end + 1 - self.at)

    def _template(self) -> None:
        self._take(1)  # the opening backtick
        self._template_rest()

    def _template_rest(self) -> None:
        """Copy a template's text up to its closing backtick, or into a ``${`` (code again)."""
        end = self.at
        while True:
            if end >= len(self.text):
                raise ValueError("a template literal that is never closed")
            char = self.text[end]
            if char == "\\":
                end += 2
                continue
            if char == "`":
                self._take(end + 1 - self.at)
                return
            if self.text.startswith("${", end):
                self._take(end + 2 - self.at)
                self.depth += 1
                self.braces.append(self.depth)
                return
            end += 1

    def _regex(self) -> None:
        end, in_class = self.at + 1, False
        while True:
            char = self.text[end]
            if char == "\\":
                end += 2
                continue
            if char == "\n":
                raise ValueError(f"a regular expression not closed on its line, at {self.at}")
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            elif char == "/" and not in_class:
                break
            end += 1
        end += 1
        while end < len(self.text) and (self.text[end].isalnum()):
            end += 1  # flags
        self._take(end - self.at)

    # -- what the scanner decides ---------------------------------------------------------

    def _comment_to(self, end: int) -> None:
        # A comment that spans lines keeps one line break, so that a return before it still
        # ends its statement; one within a line is a space, so that names on each side stay apart.
        broke = "\n" in self.text[self.at : end]
        self.at = end
        if broke:
            self._end_line()
        else:
            self.out.append(" ")

    def _newline(self) -> None:
        self.at += 1
        self._end_line()

    def _end_line(self) -> None:
        """End the line written so far (once: blank lines go), without its trailing spaces."""
        while self.out and self.out[-1] in (" ", "\t"):
            self.out.pop()
        if self.out and not self.out[-1].endswith("\n"):
            self.out.append("\n")

    def _at_line_start(self) -> bool:
        return not self.out or self.out[-1].endswith("\n")

    def _regex_may_start(self) -> bool:
        written = "".join(self.out[-8:]).rstrip()
        if not written:
            return True
        if written[-1] in _BEFORE_REGEX:
            return True
        word = _WORD.search(written)
        return word is not None and word.group() in _KEYWORDS_BEFORE_REGEX
