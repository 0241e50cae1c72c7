"""The page's files as served: under a prefix named by their content, compressed, kept a year.

The page has no build step, so what a build would do is done when the app is made. One hash over
every file names the release, and the files are served under it (``/static/<release>/js/app.js``)
with a year's ``Cache-Control``: a browser keeps them and never asks again. ``index.html``, which
is never kept without asking (``no-cache``), is rewritten to point at that prefix, so a new
release (new files, a new hash) is picked up by the next page load. Modules import each other by
relative paths, which resolve under the same prefix by themselves.

The page's own modules (``js/``) are served without their comments and indentation
(``web/jsmin.py``), as a build would: a sixth fewer bytes, which keeps the first load within
its budget. The vendored files are served as published.

Each file is compressed once (brotli, and gzip for clients without it) and kept
in memory with its release, so that halls made again in one process (the tests) do not compress
again, and a changed file (a new release) is compressed anew.
"""

from __future__ import annotations

import gzip
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import brotli
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from dominohall.i18n.choice import weighted
from dominohall.web import jsmin

PREFIX = "/static/"
RELEASE = re.compile(r"^[0-9a-f]{12}$")
KEPT = "public, max-age=31536000, immutable"
ASK_FIRST = "no-cache"

_MEDIA = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".json": "application/json",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
}
_SMALL = 256  # bytes: below this, compressing saves less than the header costs


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, their type and tag, and its compressed forms."""

    body: bytes
    media_type: str
    etag: str  # of the bytes themselves, without quotes
    encoded: dict[str, bytes] = field(default_factory=dict)  # coding -> body, when smaller

    @classmethod
    def of(cls, body: bytes, suffix: str) -> Asset:
        media_type = _MEDIA.get(suffix, "application/octet-stream")
        encoded: dict[str, bytes] = {}
        if suffix in _MEDIA and len(body) >= _SMALL:
            encoded["br"] = brotli.compress(body, quality=11)
            encoded["gzip"] = gzip.compress(body, 9, mtime=0)
        smaller = {coding: data for coding, data in encoded.items() if len(data) < len(body)}
        return cls(body, media_type, hashlib.sha256(body).hexdigest()[:16], smaller)

    def tag(self, coding: str | None) -> str:
        """The ETag of one form: each coding's bytes differ, so each has its own tag."""
        return f'"{self.etag}-{coding}"' if coding else f'"{self.etag}"'


def minified(name: str, body: bytes) -> bytes:
    """A page module as served: without comments and needless spaces; any other file as it is."""
    if not (name.startswith("js/") and name.endswith(".js")):
        return body
    return jsmin.minify(body.decode("utf-8")).encode("utf-8")


class Assets:
    """The static tree read once: a release name, its files, and the rewritten ``index.html``."""

    def __init__(self, release: str, files: dict[str, Asset], index: Asset | None) -> None:
        self.release = release
        self.files = files
        self.index = index
        # The page as served (its import map names the release); the CSP hashes this text.
        self.index_html = index.body.decode("utf-8") if index is not None else ""

    @classmethod
    def read(cls, directory: Path) -> Assets:
        sources: dict[str, bytes] = {}
        for path in sorted(directory.rglob("*")):
            name = path.relative_to(directory)
            if path.is_file() and not any(part.startswith(".") for part in name.parts):
                sources[name.as_posix()] = path.read_bytes()
        digest = hashlib.sha256()
        for source, body in sources.items():
            digest.update(f"{source}\0{len(body)}\0".encode())
            digest.update(body)
        release = digest.hexdigest()[:12]
        kept = _compressed.get(directory)
        if kept is None or kept.release != release:
            kept = _compressed[directory] = cls._build(release, sources)
        return kept

    @classmethod
    def _build(cls, release: str, sources: dict[str, bytes]) -> Assets:
        files = {
            name: Asset.of(minified(name, body), Path(name).suffix)
            for name, body in sources.items()
        }
        index = None
        if "index.html" in sources:
            html = sources["index.html"].decode("utf-8")
            index = Asset.of(html.replace(PREFIX, f"{PREFIX}{release}/").encode(), ".html")
            files["index.html"] = index
        return cls(release, files, index)

    def url(self, name: str) -> str:
        """The address of one file of this release (``style.css`` -> ``/static/<release>/...``)."""
        return f"{PREFIX}{self.release}/{name}"

    def file(self, request: Request) -> Response:
        """``GET /static/...``: this release's files kept a year; any other address asks first.

        An address without a release (``/static/js/app.js``) or with another one (a page that
        outlived its release loading a module late) is answered with the current file, with
        ``no-cache``, so that nothing is kept under an address that will not name it again.
        """
        path = request.path_params["path"]
        first, _, rest = path.partition("/")
        cache = ASK_FIRST
        if path not in self.files and RELEASE.match(first):
            cache = KEPT if first == self.release else ASK_FIRST
            path = rest
        asset = self.files.get(path)
        if asset is None:
            return PlainTextResponse(f"{path!r} is not one of the page's files", status_code=404)
        return answer(request, asset, cache)

    def page(self, request: Request, localize: Callable[[str], Asset] | None = None) -> Response:
        """The page (``index.html``), asked for again at every load; ``localize`` makes the
        form of it to send (a language's: ``language.localized_page``)."""
        if self.index is None:
            return PlainTextResponse("The page is not installed.", status_code=503)
        asset = localize(self.index_html) if localize is not None else self.index
        return answer(request, asset, ASK_FIRST)


_compressed: dict[Path, Assets] = {}  # each directory's newest release


def answer(request: Request, asset: Asset, cache: str) -> Response:
    """One asset in the best coding the request accepts, or 304 when the browser has it."""
    coding = _best_coding(request.headers.get("accept-encoding", ""), asset)
    headers = {"Cache-Control": cache, "ETag": asset.tag(coding)}
    if asset.encoded:
        headers["Vary"] = "Accept-Encoding"
    if _has_it(request.headers.get("if-none-match", ""), asset):
        return Response(status_code=304, headers=headers)
    body = asset.encoded[coding] if coding else asset.body
    if coding:
        headers["Content-Encoding"] = coding
    if request.method == "HEAD":
        headers["Content-Length"] = str(len(body))
        body = b""
    return Response(body, headers=headers, media_type=asset.media_type)


def _best_coding(accept_encoding: str, asset: Asset) -> str | None:
    """The smallest of the asset's codings that the ``Accept-Encoding`` header allows."""
    accepted = {name.lower(): quality for name, quality in weighted(accept_encoding)}
    wildcard = accepted.get("*", 0.0)
    usable = [coding for coding in asset.encoded if accepted.get(coding, wildcard) > 0]
    return min(usable, key=lambda coding: len(asset.encoded[coding]), default=None)


def _has_it(if_none_match: str, asset: Asset) -> bool:
    """Whether ``If-None-Match`` names any form of the asset (weak comparison, as RFC 9110)."""
    if not if_none_match:
        return False
    if if_none_match.strip() == "*":
        return True
    tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
    forms = [None, *asset.encoded]
    return any(asset.tag(coding) in tags for coding in forms)
