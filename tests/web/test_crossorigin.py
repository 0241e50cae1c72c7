"""Requests another site's page makes a browser send are refused (docs/protocol.md, cross-site policy)."""

from __future__ import annotations

import base64
import hashlib
import re
import tempfile
from pathlib import Path

import pytest
from starlette.routing import Route
from starlette.testclient import TestClient, WebSocketDenialResponse

from dominohall.web import create_app
from dominohall.web.crossorigin import FORM_TYPES, SAFE_METHODS, cross_site
from dominohall.web.notifications import UNSUBSCRIBE_PATH
from dominohall.web.proxy import Proxies


def state_changing_requests() -> list[tuple[str, str]]:
    """Every state-changing request of the app, read from its routes: a new one is tested too."""
    with tempfile.TemporaryDirectory() as data:  # the app is made, not started
        app = create_app(database_url="sqlite+aiosqlite://", data=Path(data))
    return sorted(
        (method, route.path)
        for route in app.routes
        if isinstance(route, Route)
        for method in route.methods or ()
        if method not in SAFE_METHODS
    )


STATE_CHANGING = state_changing_requests()
BODIES = {
    "/api/guest": {"name": "Eve"},
    "/api/accounts": {"username": "eve", "password": "12345678"},
    "/api/sign-in": {"username": "ann", "password": "correct horse"},
    "/api/password": {"password": "correct horse", "new_password": "battery staple"},
    "/api/tables": {"seats": 2},
    "/api/tables/{table_id}/join": {},
    "/api/tables/{table_id}/bots": {"seat": 1, "bot": "easy"},
    "/api/tables/{table_id}/remove": {"seat": 1},
}
REFUSALS = [
    ({"Origin": "http://evil.example"}, "a foreign Origin"),
    ({"Origin": "https://testserver"}, "the same host over another scheme"),
    ({"Origin": "http://testserver:8080"}, "the same host on another port"),
    ({"Origin": "null"}, "an opaque origin"),
    ({"Sec-Fetch-Site": "cross-site"}, "another site"),
    ({"Sec-Fetch-Site": "same-site"}, "a sibling site"),
    ({"Origin": "http://testserver", "Sec-Fetch-Site": "cross-site"}, "a browser's word wins"),
]


def test_the_state_changing_requests_are_found_in_the_routes():
    assert ("POST", "/api/tables/{table_id}/leave") in STATE_CHANGING
    assert ("POST", "/api/sign-in") in STATE_CHANGING
    assert len(STATE_CHANGING) >= 13


@pytest.fixture
def running(hall):
    """Ann (an account) and Bob playing a started game; what a refused request must not change."""
    ann, bob = hall.guest("Ann"), hall.guest("Bob")
    claimed = ann.post("/api/accounts", {"username": "ann", "password": "correct horse"})
    ann.cookie = claimed.cookies["dominohall"]
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    bob.post(f"/api/tables/{tid}/join")
    ann.post(f"/api/tables/{tid}/start")
    return ann, tid


def snapshot(hall, ann, tid):
    return ann.get("/api/me").json(), hall.client.get(f"/api/tables/{tid}").json()


@pytest.mark.parametrize(("method", "path"), STATE_CHANGING)
def test_every_state_changing_request_from_another_site_is_refused(hall, running, method, path):
    ann, tid = running
    url = path.replace("{table_id}", tid)
    body = BODIES.get(path, {})
    before = snapshot(hall, ann, tid)
    for headers, why in REFUSALS:
        answer = hall.client.request(method, url, json=body, headers={**ann.headers, **headers})
        hall.client.cookies.clear()
        assert answer.status_code == 403, (why, answer.text)
        assert answer.json()["error"]["code"] == "cross_site", why
        assert "set-cookie" not in answer.headers, why
    # A body that is not sent as JSON (what a plain HTML form can send) is refused too; only the
    # one-click unsubscribe takes a form (a mail provider's post, RFC 8058: tests/web/test_email.py).
    content_types = ["text/plain", None]
    if path != UNSUBSCRIBE_PATH:
        content_types += sorted(FORM_TYPES)
    for content_type in content_types:
        headers = {**ann.headers, **({"Content-Type": content_type} if content_type else {})}
        answer = hall.client.request(method, url, content=b'{"name": "Eve"}', headers=headers)
        hall.client.cookies.clear()
        assert answer.status_code == 415, (content_type, answer.text)
        assert answer.json()["error"]["code"] == "bad_content_type"
    assert snapshot(hall, ann, tid) == before  # nothing changed: still seated, still playing


def test_requests_from_the_halls_own_page_and_from_programs_pass(hall):
    ann = hall.guest("Ann")
    for headers in (
        {},  # a program written from the docs: no Origin, no Sec-Fetch-Site
        {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
        {"Origin": "http://TestServer:80"},  # the default port, any case
        {"Sec-Fetch-Site": "none"},  # typed by the user
    ):
        answer = hall.client.post(
            "/api/guest", json={"name": "Ann Lee"}, headers={**ann.headers, **headers}
        )
        hall.client.cookies.clear()
        assert answer.status_code == 200, (headers, answer.text)


def test_a_bodiless_post_needs_no_content_type_and_json_may_name_its_charset(hall):
    ann = hall.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    headers = {**ann.headers, "Content-Type": "text/plain"}
    left = hall.client.post(f"/api/tables/{tid}/leave", headers=headers)  # no body at all
    assert left.status_code == 200, left.text
    charset = {**ann.headers, "Content-Type": "application/json; charset=utf-8"}
    named = hall.client.post("/api/guest", content=b'{"name": "Ann"}', headers=charset)
    assert named.status_code == 200, named.text
    hall.client.cookies.clear()


def test_a_cross_site_sign_in_does_not_sign_the_browser_in(hall):
    hall.client.post("/api/accounts", json={"username": "eve", "password": "12345678"})
    hall.client.cookies.clear()
    answer = hall.client.post(
        "/api/sign-in",
        json={"username": "eve", "password": "12345678"},
        headers={"Origin": "http://evil.example"},
    )
    assert answer.status_code == 403 and "set-cookie" not in answer.headers


@pytest.mark.parametrize(
    "headers",
    [{"Origin": "http://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}],
)
def test_a_socket_upgrade_from_another_site_gets_http_403(hall, headers):
    ann = hall.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    connecting = hall.client.websocket_connect(
        f"/ws/tables/{tid}", headers={**ann.headers, **headers}
    )
    with pytest.raises(WebSocketDenialResponse) as refused, connecting:
        pass
    assert refused.value.status_code == 403
    assert refused.value.json()["error"]["code"] == "cross_site"


def test_a_socket_from_the_page_or_a_program_opens(hall):
    ann = hall.guest("Ann")
    tid = ann.post("/api/tables", {"seats": 2}).json()["table"]["id"]
    for headers in ({}, {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}):
        with hall.client.websocket_connect(
            f"/ws/tables/{tid}", headers={**ann.headers, **headers}
        ) as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["you"]["seat"] == 0


def scope(peer: str, **headers: str) -> dict:
    return {
        "type": "http",
        "scheme": "http",
        "client": (peer, 5000),
        "headers": [(k.replace("_", "-").lower().encode(), v.encode()) for k, v in headers.items()],
    }


def test_behind_a_trusted_proxy_the_origin_is_the_one_the_proxy_was_asked_for():
    proxies = Proxies(["10.0.0.0/8"])
    page = {"origin": "https://hall.example", "host": "127.0.0.1:8000"}
    forwarded = {**page, "x_forwarded_proto": "https", "x_forwarded_host": "hall.example"}
    assert cross_site(scope("10.1.2.3", **forwarded), proxies) is None
    # The same headers from anyone else are not believed.
    assert cross_site(scope("192.0.2.7", **forwarded), proxies) is not None
    # A proxy that does not say https: the page's https origin is not this hall's http one.
    assert cross_site(scope("10.1.2.3", **page, host_="hall.example"), proxies) is not None


def test_the_page_runs_only_the_halls_own_scripts(hall):
    page = hall.client.get("/")
    policy = page.headers["content-security-policy"]
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    # The import map as served, which names this release's files (web/assets.py).
    import_map = re.search(r'<script type="importmap">(.*?)</script>', page.text, re.DOTALL)
    assert import_map is not None and "/static/" + hall.client.app.state.assets.release in page.text
    digest = base64.b64encode(hashlib.sha256(import_map[1].encode()).digest()).decode()
    assert directives["script-src"] == f"'self' 'sha256-{digest}'"
    assert directives["frame-ancestors"] == "'none'"
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    for answer in (page, hall.client.get("/api/me"), hall.client.get("/static/style.css")):
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert answer.headers["referrer-policy"] == "same-origin"
        assert answer.headers["x-frame-options"] == "DENY"


def test_refusals_carry_the_same_headers(hall):
    answer = hall.client.post("/api/guest", json={}, headers={"Origin": "http://evil.example"})
    assert answer.status_code == 403
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]


def test_an_https_origin_is_this_hall_when_it_is_served_over_https(tmp_path):
    app = create_app(database_url=f"sqlite+aiosqlite:///{tmp_path / 'h.db'}", data=tmp_path)
    with TestClient(app, base_url="https://testserver") as client:
        ok = client.post(
            "/api/guest", json={"name": "Ann"}, headers={"Origin": "https://testserver"}
        )
        assert ok.status_code == 200, ok.text
        assert "secure" in ok.headers["set-cookie"].lower()
        client.cookies.clear()
        http = client.post(
            "/api/guest", json={"name": "Ann"}, headers={"Origin": "http://testserver"}
        )
        assert http.status_code == 403
