"""The ASGI application: routes, the hall's life (lifespan), and the page's static files."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from ..hall import Clock, Hall, HallError
from ..store import Store
from . import api
from .answers import hall_error
from .auth import Cookies, load_secret
from .collector import collector_for_serving
from .socket import echo_socket, table_socket

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024


async def page(request: Request) -> Response:
    index = STATIC / "index.html"
    if not index.exists():
        return PlainTextResponse("The page is not installed.", status_code=503)
    return FileResponse(index, headers={"Cache-Control": "no-cache"})


def create_app(
    *,
    database_url: str,
    data: Path,
    clock: Clock | None = None,
    bot_delay: float = 0.8,
    grace_seconds: float = 60.0,
    rng: random.Random | None = None,
    echo: bool = False,
    heartbeat: bool = True,
    hard_budget: float | None = None,
) -> Starlette:
    """The hall as an ASGI app; the store opens and the tables load when the app starts."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        store = await Store.open(database_url)
        hall = Hall(
            store,
            clock=clock,
            bot_delay=bot_delay,
            grace_seconds=grace_seconds,
            rng=rng,
            heartbeat=heartbeat,
            hard_budget=hard_budget,
        )
        app.state.store = store
        app.state.hall = hall
        await hall.start()
        try:
            async with collector_for_serving():
                yield
        finally:
            await hall.stop()
            await store.close()

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/healthz", api.healthz),
        Route("/api/me", api.me),
        Route("/api/guest", api.guest, methods=["POST"]),
        Route("/api/accounts", api.new_account, methods=["POST"]),
        Route("/api/sign-in", api.sign_in, methods=["POST"]),
        Route("/api/sign-out", api.sign_out, methods=["POST"]),
        Route("/api/presets", api.presets),
        Route("/api/tables", api.open_tables, methods=["GET"]),
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", api.table),
        Route("/api/tables/{table_id}/join", api.join, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", api.seat_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/remove", api.remove, methods=["POST"]),
        Route("/api/tables/{table_id}/start", api.start, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api.leave, methods=["POST"]),
        Route("/api/play-with-bots", api.play_with_bots, methods=["POST"]),
        Route("/games/{game_id}/record", api.game_record),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
    ]
    if echo:
        routes.append(WebSocketRoute("/ws/echo", echo_socket))
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HallError: hall_error},
        max_body_size=MAX_BODY,
    )
    app.state.cookies = Cookies(load_secret(data))
    return app
