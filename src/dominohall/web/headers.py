"""The headers every answer carries: a Content-Security-Policy that runs only the hall's own files.

The page's one inline script, its import map, is allowed by its SHA-256 hash (browsers do not
load import maps from files); the hash is taken from ``index.html`` as served (its addresses name
the release, ``assets.py``) when the app is made, so the page can change without touching this
module.
"""

from __future__ import annotations

import base64
import hashlib
import re

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

_INLINE_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)


def inline_script_hashes(html: str) -> list[str]:
    """CSP sources (``'sha256-...'``) for each inline script of a page, in order."""
    hashes = []
    for attributes, body in _INLINE_SCRIPT.findall(html):
        if re.search(r"\bsrc\s*=", attributes, re.IGNORECASE):
            continue
        digest = hashlib.sha256(body.encode("utf-8")).digest()
        hashes.append(f"'sha256-{base64.b64encode(digest).decode()}'")
    return hashes


def content_security_policy(html: str) -> str:
    """The policy for the hall (``html``: the page as served): its own scripts, styles, images
    and sockets, in no one's frame."""
    scripts = " ".join(["'self'", *inline_script_hashes(html)])
    return "; ".join(
        [
            "default-src 'self'",
            f"script-src {scripts}",
            "style-src 'self'",
            "img-src 'self'",
            "connect-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "form-action 'self'",
            "frame-ancestors 'none'",
        ]
    )


class SecurityHeaders:
    """ASGI middleware: the policy, ``nosniff``, no referrer to other sites, no framing."""

    def __init__(self, app: ASGIApp, policy: str) -> None:
        self.app = app
        self.headers = {
            "Content-Security-Policy": policy,
            "X-Content-Type-Options": "nosniff",
            # A table's link is how a private table is joined: never tell another site.
            "Referrer-Policy": "same-origin",
            "X-Frame-Options": "DENY",
        }

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in self.headers.items():
                    headers.setdefault(name, value)
            await send(message)

        await self.app(scope, receive, send_with_headers)
