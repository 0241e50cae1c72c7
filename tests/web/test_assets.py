"""The page's files: under this release's prefix, kept a year, compressed when the browser takes
it, and named anew when a file changes; ``index.html`` is asked for at every load."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path

import brotli
import pytest
from starlette.requests import Request

from dominohall.web.app import STATIC
from dominohall.web.assets import KEPT, Asset, Assets, _best_coding, minified

APP_JS = (STATIC / "js" / "app.js").read_bytes()
SERVED_APP_JS = minified("js/app.js", APP_JS)


def raw(answer) -> bytes:
    """The body as it came over the wire (the client decodes it otherwise)."""
    return b"".join(answer.iter_raw())


def get_raw(hall, path: str, accept_encoding: str):
    with hall.client.stream("GET", path, headers={"accept-encoding": accept_encoding}) as answer:
        answer.sent = raw(answer)
        return answer


def test_a_file_is_compressed_when_asked_for_and_not_otherwise(hall):
    url = hall.client.app.state.assets.url("js/app.js")
    br = get_raw(hall, url, accept_encoding="gzip, deflate, br, zstd")
    assert br.headers["content-encoding"] == "br" and brotli.decompress(br.sent) == SERVED_APP_JS
    assert int(br.headers["content-length"]) == len(br.sent) < len(SERVED_APP_JS)
    gz = get_raw(hall, url, accept_encoding="gzip")
    assert gz.headers["content-encoding"] == "gzip" and gzip.decompress(gz.sent) == SERVED_APP_JS
    for refused in ("identity", "", "br;q=0, gzip;q=0", "deflate", "*;q=0"):
        plain = get_raw(hall, url, accept_encoding=refused)
        assert "content-encoding" not in plain.headers and plain.sent == SERVED_APP_JS, refused
    for answer in (br, gz, plain):
        assert answer.headers["vary"] == "Accept-Encoding"
        assert answer.headers["content-type"] == "text/javascript; charset=utf-8"
    assert get_raw(hall, url, accept_encoding="br;q=0, *").headers["content-encoding"] == "gzip"
    # The page itself is compressed too.
    page = get_raw(hall, "/t/abc", accept_encoding="gzip, br")
    assert page.headers["content-encoding"] == "br"
    assert brotli.decompress(page.sent).decode() == hall.client.app.state.assets.index_html


def test_the_release_is_kept_a_year_and_the_page_is_asked_for_each_time(hall):
    assets = hall.client.app.state.assets
    page = hall.client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    # Every file the page names is under this release, which is kept a year.
    named = re.findall(r'(?:href|src)="(/static/[^"]+)"|"(/static/[^"]+\.mjs)"', page.text)
    urls = [a or b for a, b in named]
    assert len(urls) == 6 and all(u.startswith(f"/static/{assets.release}/") for u in urls)
    for url in urls:
        answer = hall.client.get(url)
        assert answer.status_code == 200, url
        assert answer.headers["cache-control"] == KEPT == "public, max-age=31536000, immutable"
    assert hall.client.get("/static/index.html").text == page.text  # as served, rewritten
    # Without a release, or with another one (a page from before a restart loading a module
    # late), the current file, asked for again next time rather than kept under that address.
    for url in ("/static/js/app.js", "/static/0123456789ab/js/app.js"):
        answer = hall.client.get(url)
        assert answer.status_code == 200 and answer.content == SERVED_APP_JS, url
        assert answer.headers["cache-control"] == "no-cache", url


def test_a_browser_that_has_the_file_gets_304(hall):
    for url in (hall.client.app.state.assets.url("style.css"), "/", "/static/style.css"):
        first = hall.client.get(url, headers={"accept-encoding": "br"})
        tag = first.headers["etag"]
        again = hall.client.get(url, headers={"accept-encoding": "br", "if-none-match": tag})
        assert again.status_code == 304 and again.content == b"", url
        assert again.headers["etag"] == tag and again.headers["cache-control"]
        # The same file in another coding is the same file: still 304.
        weak = hall.client.get(url, headers={"if-none-match": f'"x", W/{tag}'})
        assert weak.status_code == 304, url
        other = hall.client.get(url, headers={"if-none-match": '"0123"'})
        assert other.status_code == 200 and other.content == first.content, url
    # Each coding's bytes have their own tag.
    url = hall.client.app.state.assets.url("style.css")
    tags = {
        hall.client.get(url, headers={"accept-encoding": c}).headers["etag"]
        for c in ("br", "gzip", "identity")
    }
    assert len(tags) == 3


def test_a_head_says_what_a_get_would_send(hall):
    url = hall.client.app.state.assets.url("style.css")
    got = hall.client.get(url, headers={"accept-encoding": "gzip"})
    head = hall.client.head(url, headers={"accept-encoding": "gzip"})
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-length"] == got.headers["content-length"]
    assert head.headers["etag"] == got.headers["etag"]


@pytest.mark.parametrize(
    "path",
    ["/static/", "/static/nothing.js", "/static/js/", "/static/%2e%2e/app.py"],
)
def test_what_is_not_a_file_of_the_page_is_not_found(hall, path):
    answer = hall.client.get(path)
    assert answer.status_code == 404, path
    assert answer.text.endswith("is not one of the page's files")
    assert "immutable" not in answer.headers.get("cache-control", "")


def test_a_changed_file_is_a_new_release_with_new_addresses(tmp_path: Path):
    page = tmp_path / ".venv" / "static"  # installed under a hidden folder: still read
    (page / "js").mkdir(parents=True)
    (page / "js" / ".app.js.swp").write_bytes(b"an editor's")  # hidden: not served
    shutil.copy(STATIC / "index.html", page / "index.html")
    (page / "js" / "app.js").write_bytes(APP_JS)
    before = Assets.read(page)
    assert set(before.files) == {"index.html", "js/app.js"}
    assert Assets.read(page) is before  # read again, unchanged: not compressed again
    (page / "js" / "app.js").write_bytes(APP_JS + b"\nexport const release = 2;\n")
    after = Assets.read(page)
    assert after.release != before.release
    assert f"/static/{after.release}/js/app.js" in after.index_html
    assert before.release not in after.index_html
    assert after.files["js/app.js"].body.endswith(b"export const release = 2;\n")
    assert (
        brotli.decompress(after.files["js/app.js"].encoded["br"]) == after.files["js/app.js"].body
    )
    # The same files again are the first release again.
    (page / "js" / "app.js").write_bytes(APP_JS)
    assert Assets.read(page).release == before.release


def test_a_page_not_installed_answers_503(tmp_path: Path):
    (tmp_path / "style.css").write_text("body {}")
    assets = Assets.read(tmp_path)
    request = Request({"type": "http", "method": "GET", "path": "/", "headers": []})
    assert assets.page(request).status_code == 503 and assets.index_html == ""


def test_the_coding_is_the_smallest_the_request_accepts():
    asset = Asset.of(APP_JS, ".js")
    assert set(asset.encoded) == {"br", "gzip"}
    assert _best_coding("gzip, deflate, br", asset) == "br"
    assert _best_coding("GZIP", asset) == "gzip"
    assert _best_coding("gzip;q=0.5, br;q=0", asset) == "gzip"
    assert _best_coding("gzip;q=oops", asset) is None  # a weight that is no number accepts nothing
    assert _best_coding("*", asset) == "br"
    assert _best_coding("", asset) is None
    # Too small to gain, or not text: sent as it is.
    assert Asset.of(b"x" * 100, ".js").encoded == {}
    assert Asset.of(bytes(range(256)) * 4, ".png").encoded == {}


def test_the_page_modules_are_served_without_comments_and_templates_kept_as_written():
    source = (
        b'// a comment\nexport const view = () =>\n    html`<p title="a // b">\n'
        b"        ${n /* count */} tiles   left</p>`;  /* gone */\nconst r = /a\\/b/g;\n"
    )
    served = minified("js/view.js", source).decode()
    assert "a comment" not in served and "gone" not in served
    # What a template literal holds is the page's text: kept byte for byte, spaces and all.
    assert '<p title="a // b">\n        ${n' in served  # a comment in ``${}`` is code's: out
    assert "tiles   left</p>`" in served and "/a\\/b/g" in served
    assert served.startswith("export const view = () =>\nhtml`")  # indentation out


def test_the_shipped_modules_shrink_and_other_files_are_served_as_they_are():
    for path in sorted((STATIC / "js").glob("*.js")):
        source = path.read_bytes()
        assert len(minified(f"js/{path.name}", source)) < len(source), path.name
    vendored = next((STATIC / "vendor").rglob("*.mjs"))
    name = vendored.relative_to(STATIC).as_posix()
    assert minified(name, vendored.read_bytes()) == vendored.read_bytes()
    assert minified("style.css", b"/* kept */ a { }") == b"/* kept */ a { }"
