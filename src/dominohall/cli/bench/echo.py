"""A raw WebSocket echo on the hall's own stack (Starlette on uvicorn, with ``serve``'s options):
the limit a move's round trip could reach, served apart from the hall.

Run by ``dominohall bench server`` as ``python -m dominohall.cli.bench.echo PORT``.
"""

from __future__ import annotations

import contextlib
import sys

from starlette.applications import Starlette
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect


async def echo(ws: WebSocket) -> None:
    await ws.accept()
    with contextlib.suppress(WebSocketDisconnect):
        async for text in ws.iter_text():
            await ws.send_text(text)


async def healthz(request: object) -> Response:
    return PlainTextResponse("ok")


app = Starlette(routes=[WebSocketRoute("/", echo), Route("/healthz", healthz)])


def main(port: int) -> None:
    import uvicorn

    from ..serve import UVICORN_OPTIONS

    uvicorn.run(app, host="127.0.0.1", port=port, log_level="warning", **UVICORN_OPTIONS)


if __name__ == "__main__":
    main(int(sys.argv[1]))
