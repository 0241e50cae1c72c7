"""The headers every answer carries: a policy that runs the hall's own files and its import map."""

from __future__ import annotations

import base64
import hashlib

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse
from starlette.routing import Route
from starlette.testclient import TestClient

from dominohall.web.headers import SecurityHeaders, content_security_policy, inline_script_hashes

IMPORT_MAP = '{"imports": {"preact": "/vendor/preact.js"}}'


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode()).digest()).decode() + "'"


def test_each_inline_script_is_hashed_and_a_script_from_a_file_is_not():
    page = (
        f'<script type="importmap">{IMPORT_MAP}</script>'
        '<script type="module" src="/js/app.js"></script>'
        "<SCRIPT>\nwindow.x = 1;\n</SCRIPT >"
    )
    assert inline_script_hashes(page) == [
        sha256_source(IMPORT_MAP),
        sha256_source("\nwindow.x = 1;\n"),
    ]
    assert inline_script_hashes("<p>no scripts</p>") == []


def test_the_policy_allows_the_pages_own_inline_script_and_nothing_from_elsewhere():
    policy = content_security_policy(f'<script type="importmap">{IMPORT_MAP}</script>')
    directives = dict(part.split(" ", 1) for part in policy.split("; "))
    assert directives["script-src"] == f"'self' {sha256_source(IMPORT_MAP)}"
    assert directives["default-src"] == "'self'"
    assert directives["connect-src"] == "'self'"
    assert directives["object-src"] == "'none'"
    assert directives["frame-ancestors"] == "'none'"
    # A changed page is a changed hash: an injected script is not the one allowed.
    assert sha256_source(IMPORT_MAP) not in content_security_policy("<script>evil()</script>")


def own_policy(request):
    return PlainTextResponse("ok", headers={"Content-Security-Policy": "sandbox"})


def test_every_answer_carries_the_headers_and_an_answers_own_policy_is_kept():
    app = Starlette(
        routes=[
            Route("/", lambda request: PlainTextResponse("ok")),
            Route("/own", own_policy),
        ]
    )
    client = TestClient(SecurityHeaders(app, "default-src 'self'"), base_url="http://127.0.0.1")
    answer = client.get("/")
    assert answer.headers["content-security-policy"] == "default-src 'self'"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "same-origin"
    assert answer.headers["x-frame-options"] == "DENY"
    assert client.get("/missing").headers["x-frame-options"] == "DENY"
    assert client.get("/own").headers["content-security-policy"] == "sandbox"
