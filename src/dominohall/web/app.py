"""The ASGI application: routes, the hall's life (lifespan), and the page's static files."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route, WebSocketRoute

from ..hall import Clock, HallError
from ..hall.challenges import Challenging, Expiry
from ..hall.chat import TableChat
from ..hall.chat_retention import RETENTION_DAYS
from ..hall.dormancy import IDLE_SECONDS
from ..hall.errors import StoreUnavailable
from ..hall.follows import Following
from ..hall.lobby_feed import LOOK_EVERY, PUSH_EVERY
from ..hall.mail import MailSettings
from ..hall.once_only import Claim
from ..hall.ownership import LEASE_SECONDS
from ..hall.seasons import SEASON_DAYS
from ..hall.secret import secret_at_hand
from ..hall.turn_based import TurnBasedSettings
from ..hall.wiring import HallSettings, open_hall
from ..i18n import COOKIE, catalogs
from . import (
    api,
    arena,
    challenges,
    chat,
    games,
    moderation,
    notifications,
    profiles,
    ranked,
    rejoin,
    settings,
    tournaments,
)
from . import turn_based as turn_based_http  # create_app's turn_based is the settings
from .answers import hall_error
from .assets import Assets
from .collector import collector_for_serving
from .crossorigin import CrossSiteGuard, quiet_refused_upgrades
from .headers import SecurityHeaders, content_security_policy
from .language import language_of, localized_page, page_catalog, set_language_cookie
from .live_sockets import LiveSockets
from .lobby_socket import lobby_socket
from .notifications import UNSUBSCRIBE_PATH
from .player_socket import player_socket
from .proxy import Proxies
from .ratelimit import Guard, Limits
from .redis_buckets import RedisLimits
from .sessions import GUEST_LIFETIME, LIFETIME, CookieRefresh, Sessions, clean_up
from .socket import log_frames_not_utf8_in_one_line, table_socket
from .tournament_socket import tournament_socket

log = logging.getLogger("dominohall.web")

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
CLEAN_UP_EVERY = 3600.0  # seconds between forgetting idle guests and dropping expired sessions


async def page(request: Request) -> Response:
    """The page in its reader's language (``language.py``); an account's choice is put in the
    cookie too, so that a new browser's sockets and errors follow it."""
    assets: Assets = request.app.state.assets
    player = await api.current_player(request)
    account = player.language if player is not None else None
    tag = language_of(request, account)
    response = assets.page(request, lambda html: localized_page(html, tag))
    if account is not None and request.cookies.get(COOKIE) != account:
        set_language_cookie(request, response, account)
    return response


async def static_file(request: Request) -> Response:
    assets: Assets = request.app.state.assets
    return assets.file(request)


def create_app(
    *,
    database_url: str,
    data: Path,
    clock: Clock | None = None,
    bot_delay: float = 0.8,
    grace_seconds: float = 60.0,
    rng: random.Random | None = None,
    heartbeat: bool = True,
    trusted_proxies: Sequence[str] = (),
    secure_cookies: bool = False,
    limits: Limits | None = None,
    session_lifetime: float = LIFETIME,
    guest_lifetime: float = GUEST_LIFETIME,
    hard_budget: float | None = None,
    mail: MailSettings | None = None,
    turn_based: TurnBasedSettings | None = None,
    idle_seconds: float | None = IDLE_SECONDS,
    secret_file: Path | None = None,
    redis_url: str | None = None,
    redis_prefix: str = "dominohall:",
    lease_seconds: float = LEASE_SECONDS,
    guest_chat: bool = False,
    lobby_push: float = PUSH_EVERY,
    lobby_look: float = LOOK_EVERY,
    challenge_expiry: Expiry | None = None,
    chat_days: float = RETENTION_DAYS,
    season_days: float = SEASON_DAYS,
    plays_tables: bool = True,
) -> Starlette:
    """The hall as an ASGI app; the hall opens and its tables load when the app starts.

    ``trusted_proxies``: addresses or networks whose X-Forwarded-For/-Proto/-Host are believed.
    ``secure_cookies``: mark the cookie Secure (it is anyway when the request came over HTTPS).
    ``limits``: the rate limits (``ratelimit.Limits``; the defaults when None).
    ``mail``: the SMTP server and the rules of email notices (None: the hall sends no email).
    ``secret_file``: the file holding the hall's secret (None: the database's on PostgreSQL,
    else the data folder's; ``secret.py``).
    ``redis_url``: the Redis that carries tables' changes and players' notices between the
    hall's processes (None: one process, in memory; ``hall/redis_broker.py``), and the rate
    limits' buckets they share (``redis_buckets.py``); ``redis_prefix``: of its keys and channels.
    ``guest_chat``: guests may type in table chats (else quick phrases only; ``hall/chat.py``).
    ``lobby_push``, ``lobby_look``: the lobby's pushes at most this often, its looks at the
    queues and the people online this often (``hall/lobby_feed.py``).
    ``challenge_expiry``: how long a challenge waits for its answer (``hall/challenges.py``).
    ``chat_days``: chat lines older than this are deleted (``hall/chat_retention.py``).
    ``season_days``: an arena season's length (``hall/seasons.py``).
    ``plays_tables``: False, the socket tier: HTTP and the sockets only, every table played by
    the other processes (``serve --sockets-only``; needs ``redis_url``).
    """
    now: Callable[[], float] = clock.now if clock is not None else time.time

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        opened = await open_hall(
            HallSettings(
                database_url,
                data=data,
                secret=known_secret,
                clock=clock,
                bot_delay=bot_delay,
                grace_seconds=grace_seconds,
                rng=rng,
                heartbeat=heartbeat,
                hard_budget=hard_budget,
                turn_based=turn_based,
                idle_seconds=idle_seconds,
                mail=mail,
                redis_url=redis_url,
                redis_prefix=redis_prefix,
                lease_seconds=lease_seconds,
                lobby_push=lobby_push,
                lobby_look=lobby_look,
                chat_days=chat_days,
                season_days=season_days,
                plays_tables=plays_tables,
            )
        )
        shared: RedisLimits | None = None
        if redis_url is not None:  # one limit for all the processes, not one each
            shared = RedisLimits(redis_url, prefix=redis_prefix, now=now)
            limits = app.state.guard.limits
            sockets = shared.sockets(limits.sockets_per_address)
            app.state.guard = Guard(limits, shared.buckets_of(), sockets)
        app.state.sessions.sign_with(opened.secret)
        app.state.mail_links = opened.mail_links
        app.state.accounts = opened.accounts
        app.state.hall = opened.hall
        app.state.indexer = opened.indexer
        app.state.matchmaker = opened.matchmaker
        app.state.seasons = opened.seasons
        app.state.email = opened.email
        app.state.moderating = opened.moderating
        app.state.moderation_follower = opened.follower
        # An operator's action reaches this process's sockets as its follower reads it.
        app.state.live_sockets = LiveSockets(
            opened.moderating, lambda: app.state.guard.sockets, opened.online
        )
        app.state.lobby = opened.lobby
        opened.follower.listen(app.state.live_sockets.apply)
        # The chat's rate limit is one of the web's buckets: per player.
        app.state.chat = TableChat(
            opened.store, opened.hall, app.state.guard.chat, guests_may_type=guest_chat
        )
        app.state.following = Following(opened.store, opened.hall, opened.online)
        # The challenges' rate limit is one of the web's buckets: per player.
        challenging = Challenging(
            opened.store, opened.hall, app.state.guard.challenges, expiry=challenge_expiry
        )
        app.state.challenges = challenging
        app.state.tournaments = opened.tournaments
        app.state.tournament_feed = opened.tournament_feed
        await challenging.start()
        # One process forgets idle guests, however many share the database.
        claim = opened.claim("forget-guests", ttl=2 * CLEAN_UP_EVERY)
        cleaner = asyncio.create_task(_clean_up_now_and_then(app, now, guest_lifetime, claim))
        try:
            async with collector_for_serving():
                yield
        finally:
            cleaner.cancel()
            await asyncio.gather(cleaner, return_exceptions=True)  # (its transaction ended)
            challenging.stop()
            await opened.close()
            if shared is not None:
                await shared.close()

    routes = [
        Route("/", page),
        Route("/t/{table_id}", page),
        Route("/my-games", page),
        Route("/@/{username}", page),
        Route("/games/{game_id}", page),
        Route("/leaderboard", page),
        Route("/leaderboard/{pool}", page),
        Route("/history", page),
        Route("/settings", page),
        Route("/mod", moderation.page),  # operators only
        Route("/healthz", api.healthz),
        Route("/i18n/{lang}.json", page_catalog),
        Route("/api/me/language", api.choose_language, methods=["POST"]),
        Route("/api/me", api.me),
        Route("/api/me/tables", rejoin.my_tables),
        Route("/api/me/email", notifications.my_email, methods=["GET"]),
        Route("/api/me/email", notifications.set_my_email, methods=["POST"]),
        Route("/email/confirm", notifications.confirm),
        Route(UNSUBSCRIBE_PATH, notifications.unsubscribe, methods=["GET"]),
        Route(UNSUBSCRIBE_PATH, notifications.unsubscribe_one_click, methods=["POST"]),
        Route("/api/guest", api.guest, methods=["POST"]),
        Route("/api/accounts", api.new_account, methods=["POST"]),
        Route("/api/sign-in", api.sign_in, methods=["POST"]),
        Route("/api/sign-out", api.sign_out, methods=["POST"]),
        Route("/api/sign-out-everywhere", api.sign_out_everywhere, methods=["POST"]),
        Route("/api/password", api.change_password, methods=["POST"]),
        Route("/api/presets", api.presets),
        Route("/api/timers", turn_based_http.timers),
        Route("/api/me/vacation", turn_based_http.vacation, methods=["GET"]),
        Route("/api/me/vacation", turn_based_http.start_vacation, methods=["POST"]),
        Route("/api/me/vacation/end", turn_based_http.end_vacation, methods=["POST"]),
        Route("/api/tables", api.open_tables, methods=["GET"]),
        Route("/api/tables", api.create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", api.table),
        Route("/api/tables/{table_id}/join", api.join, methods=["POST"]),
        Route("/api/tables/{table_id}/bots", api.seat_bot, methods=["POST"]),
        Route("/api/tables/{table_id}/remove", api.remove, methods=["POST"]),
        Route("/api/tables/{table_id}/start", api.start, methods=["POST"]),
        Route("/api/tables/{table_id}/watchers", api.watchers, methods=["POST"]),
        Route("/api/tables/{table_id}/leave", api.leave, methods=["POST"]),
        Route("/api/tables/{table_id}/rematch", rejoin.rematch, methods=["POST"]),
        Route("/api/play-with-bots", api.play_with_bots, methods=["POST"]),
        Route("/games/{game_id}/record", games.game_record),
        Route("/api/games/{game_id}", games.game),
        Route("/api/games/{game_id}/chat", games.game_chat),
        Route("/api/me/games", games.my_games),
        Route("/api/me/export", settings.export),
        Route("/api/me/delete", settings.delete, methods=["POST"]),
        Route("/api/players/{username}/games", games.player_games),
        Route("/api/ranked/queue", ranked.queue_status, methods=["GET"]),
        Route("/api/ranked/queue", ranked.join_queue, methods=["POST"]),
        Route("/api/ranked/queue/cancel", ranked.cancel_queue, methods=["POST"]),
        Route("/api/ranked/queue/computer", ranked.play_computer, methods=["POST"]),
        Route("/api/players/{username}", profiles.player),
        *(
            Route(f"/api/players/{{username}}/{c}", chat.choose, methods=["POST"])
            for c in chat.CHOICES
        ),
        Route("/api/players/{username}/follow", challenges.follow, methods=["POST"]),
        Route("/api/players/{username}/unfollow", challenges.follow, methods=["POST"]),
        Route("/api/me/follows", challenges.followed),
        Route("/api/me/challenges", challenges.mine, methods=["GET"]),
        Route("/api/me/challenges", challenges.choose, methods=["POST"]),
        Route("/api/challenges", challenges.send, methods=["POST"]),
        *(
            Route(f"/api/challenges/{{challenge_id}}/{a}", challenges.answer, methods=["POST"])
            for a in ("accept", "decline", "cancel")
        ),
        Route("/tournaments/{tournament_id}", page),
        Route("/api/tournaments", tournaments.listed, methods=["GET"]),
        Route("/api/tournaments", tournaments.create, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}", tournaments.one),
        Route("/api/tournaments/{tournament_id}/join", tournaments.join, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/pause", tournaments.pause, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/leave", tournaments.pause, methods=["POST"]),
        Route("/api/tournaments/{tournament_id}/cancel", tournaments.cancel, methods=["POST"]),
        Route(
            "/api/tournaments/{tournament_id}/computers", tournaments.computers, methods=["POST"]
        ),
        Route("/api/mod/reports", moderation.reports),
        Route("/api/mod/time-out", moderation.time_out, methods=["POST"]),
        Route("/api/mod/ban", moderation.ban, methods=["POST"]),
        Route("/api/mod/close-report", moderation.close_report, methods=["POST"]),
        Route("/api/leaderboard/{pool}", ranked.leaderboard),
        Route("/api/arena/{pool}", arena.leaderboard),
        Route("/api/games/{game_id}/ratings", ranked.game_ratings),
        WebSocketRoute("/ws/tables/{table_id}", table_socket),
        WebSocketRoute("/ws/me", player_socket),
        WebSocketRoute("/ws/lobby", lobby_socket),
        WebSocketRoute("/ws/tournaments/{tournament_id}", tournament_socket),
        Route("/static/{path:path}", static_file),
    ]
    assets = Assets.read(STATIC)
    catalogs()  # read now (compiled if need be): a broken catalog stops the start, not a page
    proxies = Proxies(trusted_proxies)
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={HallError: hall_error, StoreUnavailable: hall_error},
        max_body_size=MAX_BODY,
        middleware=[
            Middleware(SecurityHeaders, policy=content_security_policy(assets.index_html)),
            Middleware(CrossSiteGuard, proxies=proxies, form_paths=frozenset({UNSUBSCRIBE_PATH})),
            Middleware(CookieRefresh),
        ],
    )
    app.state.proxies = proxies
    app.state.assets = assets
    # A file's secret is read now (a bad one stops the start at once); the database's once open.
    known_secret = secret_at_hand(database_url, data, secret_file)
    app.state.sessions = Sessions(proxies, now, lifetime=session_lifetime, secure=secure_cookies)
    app.state.mail = mail
    app.state.guard = Guard.in_memory(limits or Limits(), now)  # in Redis with a redis_url
    log_frames_not_utf8_in_one_line()
    quiet_refused_upgrades()
    return app


async def _clean_up_now_and_then(
    app: Starlette, now: Callable[[], float], guest_lifetime: float, claim: Claim
) -> None:
    while True:
        await asyncio.sleep(CLEAN_UP_EVERY)
        try:
            if not await claim.claim():
                continue  # another process does it
            forgotten = await clean_up(app.state.accounts, now(), guest_lifetime)
            app.state.guard.forget_full()  # (in memory; in Redis the full buckets expire)
            log.info("clean-up: %d idle guests with no game forgotten", forgotten)
        except Exception:  # noqa: BLE001 - the next round tries again
            log.exception("clean-up failed")
