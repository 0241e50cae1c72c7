"""The page's modules as served: comments and indentation out, everything else as written."""

from __future__ import annotations

import pytest

from dominohall.web.app import STATIC
from dominohall.web.jsmin import minify


def test_comments_and_indentation_go_and_line_breaks_stay():
    source = "// why\nfunction f(a) {\n    /* a\n       block */\n    return a; // trailing\n}\n"
    assert minify(source) == "function f(a) {\nreturn a;\n}\n"


def test_a_return_before_a_comment_still_ends_its_statement():
    # ``return /* ... */ \n value`` returns nothing in JavaScript: the line break must stay.
    assert minify("return /* a\n b */\nvalue;\n") == "return\nvalue;\n"
    assert minify("a/* x */b\n") == "a b\n"  # two names stay apart


def test_strings_keep_what_looks_like_a_comment():
    source = "const a = \"// not\"; const b = '/* nor */ \\' // this';\n"
    assert minify(source) == source


def test_template_literals_are_kept_byte_for_byte_even_nested():
    source = (
        "const v = html`\n    <g transform=${`rotate(${-angle} ${x + 0.5} 0)`}>\n"
        "        // text, not a comment\n    ${items.map((i) => html`<b>${ {a: i}.a }</b>`)}\n"
        "    </g>`;\n    const after = 1; // gone\n"
    )
    served = minify(source)
    assert "rotate(${-angle} ${x + 0.5} 0)" in served
    assert "\n        // text, not a comment\n    ${" in served
    assert "html`<b>${ {a: i}.a }</b>`" in served
    assert served.endswith("</g>`;\nconst after = 1;\n")


def test_a_slash_is_a_regular_expression_only_where_a_value_cannot_end():
    source = "const r = /a\\/b[/]c/g; // x\nconst d = w / 2 / h; // y\nreturn /\\/\\//.test(s);\n"
    assert (
        minify(source)
        == "const r = /a\\/b[/]c/g;\nconst d = w / 2 / h;\nreturn /\\/\\//.test(s);\n"
    )


@pytest.mark.parametrize("broken", ["/* never closed", "const s = 'open\n';", "a = `open"])
def test_what_cannot_be_read_is_refused_by_name(broken):
    with pytest.raises(ValueError, match=r"never closed|not closed"):
        minify(broken)


def test_every_shipped_module_keeps_its_code_and_minifies_once():
    for path in sorted((STATIC / "js").glob("*.js")):
        source = path.read_text()
        served = minify(source)
        assert minify(served) == served, path.name
        # Only deletions: what is served is the source with characters left out, in order.
        assert _left_out_of(source, served), path.name
        # And what went is comments and spaces only: every line of code is there, trimmed.
        code = [line.strip() for line in source.splitlines() if _is_code(line)]
        assert [line for line in code if line not in served] == [], path.name


def _left_out_of(source: str, served: str) -> bool:
    """Whether ``served`` is ``source`` with some characters left out (a subsequence)."""
    rest = iter(source)
    return all(char in rest for char in served)


def _is_code(line: str) -> bool:
    """A line with no comment on it and not inside one (told apart by its look: enough here)."""
    text = line.strip()
    return (
        bool(text)
        and not text.startswith(("//", "/*", "*"))
        and "//" not in text
        and "/*" not in text
    )
