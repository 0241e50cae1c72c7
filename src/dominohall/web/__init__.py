"""The web face of the hall: HTTP JSON, the WebSocket protocol, sign-in, and the page's files."""

from .app import create_app

__all__ = ["create_app"]
