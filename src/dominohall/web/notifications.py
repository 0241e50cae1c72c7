"""Email notices over HTTP (docs/protocol.md 9): a player's address and choice, and the two links
of the hall's emails (confirm an address, stop the notices), which work without a sign-in."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs

from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)

from .. import i18n
from ..hall import HallError, messages
from ..hall.accounts import EmailAddress
from ..hall.mail_links import LinkExpired, MailLinks
from ..hall.mail_notices import EmailNotices
from ..i18n import N_
from .api import accounts_of, fields_of, signed_in
from .assets import Assets
from .language import language_of
from .ratelimit import TooMany

# Where the unsubscribe links of notice emails lead (``MailLinks.unsubscribe`` builds them).
UNSUBSCRIBE_PATH = "/email/unsubscribe"
# The field the confirmation page's form adds, so that its post is answered with the page again.
FROM_PAGE = "from_page"
RESEND_SECONDS = 60.0  # a new confirmation email for one player at most this often
# Plain addresses only: the dot-atoms of RFC 5322 before the @, host names after it.
_LOCAL = r"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*"
_LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
_ADDRESS = re.compile(rf"({_LOCAL})@({_LABEL}(?:\.{_LABEL})+)")


def email_address(value: str) -> str:
    """The address, checked and with its domain in lower case; ``bad_email`` when it is not one."""
    text = value.strip()
    match = _ADDRESS.fullmatch(text)
    if match is None or len(text) > 254 or len(match.group(1)) > 64:
        raise HallError(
            "bad_email",
            "{text!r} is not an email address (like ann@example.org)",
            text=text[:60],
        )
    return f"{match.group(1)}@{match.group(2).lower()}"


def _notices(request: Request) -> EmailNotices | None:
    return request.app.state.email  # type: ignore[no-any-return]


def _email_json(request: Request, address: EmailAddress | None) -> messages.EmailSettings:
    notices = _notices(request)
    return {
        "available": notices is not None,
        "address": address.address if address else None,
        "confirmed": bool(address and address.confirmed),
        "notify": bool(address and address.notify),
        "every_minutes": notices.settings.every / 60 if notices else None,
    }


async def my_email(request: Request) -> Response:
    person = await signed_in(request)
    address = await accounts_of(request).email_of(person.id)
    return JSONResponse({"email": _email_json(request, address)})


async def set_my_email(request: Request) -> Response:
    """Set, change or forget the address, or opt in or out; a new address gets a link to confirm."""
    person = await signed_in(request)
    body = await fields_of(request)
    body.only(("address", "notify"))
    notices = _notices(request)
    if notices is None:
        raise HallError(
            "email_off", "this hall sends no email: its operator has not set an SMTP server"
        )
    accounts = accounts_of(request)
    notify = body.flag("notify")
    sent = False
    if "address" in body.obj and body.obj["address"] is None:
        await accounts.forget_email(person.id)
    elif body.obj.get("address") is not None:
        given = body.text("address", required=True)
        assert given is not None
        address = await accounts.set_email(
            person.id, email_address(given), True if notify is None else notify
        )
        sent = await _confirm_if_due(request, notices, person.id, person.name, address)
    elif notify is not None:
        current = await accounts.email_of(person.id)
        if current is None:
            raise HallError("no_email", "set an address first")
        await accounts.set_email(person.id, current.address, notify)
    await notices.refresh(person.id)
    answer = _email_json(request, await accounts.email_of(person.id))
    return JSONResponse({"email": answer, "confirmation_sent": sent})


async def _confirm_if_due(
    request: Request, notices: EmailNotices, player: str, name: str, address: EmailAddress
) -> bool:
    """Send the confirmation link of an address not confirmed yet (once a minute at most)."""
    if address.confirmed:
        return False
    now = notices.hall.clock.now()
    if address.confirm_sent_at is not None and now < address.confirm_sent_at + RESEND_SECONDS:
        wait = address.confirm_sent_at + RESEND_SECONDS - now
        template = N_(
            "a confirmation link went to {address} less than a minute ago: "
            "look for it (and in the spam folder), or ask again in a minute"
        )
        refused = TooMany("too_many_emails", template.format(address=address.address), wait)
        # A template with its parameters, as HallError keeps them: translated on the wire.
        refused.template, refused.params = template, {"address": address.address}
        raise refused
    await notices.confirmation(player, name, address.address)
    await accounts_of(request).confirmation_sent(player, now)
    return True


def _links(request: Request) -> MailLinks:
    return request.app.state.mail_links  # type: ignore[no-any-return]


def _back(outcome: str) -> Response:
    return RedirectResponse(f"/my-games?email={outcome}", status_code=303)


async def confirm(request: Request) -> Response:
    """The link of a confirmation email: the address is the player's, notices may go to it."""
    try:
        found = _links(request).read_confirm(request.query_params.get("token", ""))
    except LinkExpired:
        return _back("expired")
    if found is None:
        return _back("bad-link")
    player, address = found
    now = request.app.state.hall.clock.now()
    if not await accounts_of(request).confirm_email(player, address, now):
        return _back("stale")  # the player has set another address since
    notices = _notices(request)
    if notices is not None:
        await notices.refresh(player)
    return _back("confirmed")


async def unsubscribe(request: Request) -> Response:
    """The link at the foot of every notice email: a page asking to confirm, whose button posts.

    The link itself changes nothing: mail filters and link scanners open every link of an email
    they check, and must not stop a player's notices (RFC 8058 asks the same of the header's link).
    """
    token = request.query_params.get("token", "")
    found = _links(request).read_unsubscribe(token)
    if found is None:
        return _back("bad-link")
    stored = await accounts_of(request).player(found[0])
    tag = language_of(request, stored.language if stored is not None else None)
    return HTMLResponse(_confirm_page(token, found[1], request.app.state.assets, tag))


async def unsubscribe_one_click(request: Request) -> Response:
    """The post that stops the notices: from the confirmation page (answered with the player's
    games page again), or from a mail program's unsubscribe button (RFC 8058: the email's
    List-Unsubscribe-Post header, a form saying ``List-Unsubscribe=One-Click``: answered with
    a status, as no person is there to follow a redirect)."""
    outcome = await _unsubscribe(request)
    if await _from_page(request):
        return _back(outcome)
    if outcome == "bad-link":
        return PlainTextResponse("this unsubscribe link is not one of this hall's\n", 404)
    return PlainTextResponse("no more notices will go to this address\n")


async def _from_page(request: Request) -> bool:
    """Whether the post came from the confirmation page's form (url-encoded, with FROM_PAGE)."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != "application/x-www-form-urlencoded":
        return False  # a mail program's multipart post
    fields = parse_qs((await request.body()).decode("utf-8", "replace"))
    return FROM_PAGE in fields


def _confirm_page(token: str, address: str, assets: Assets, tag: str = i18n.SOURCE) -> str:
    """The page asking to confirm the unsubscribe, in the account's language (``tag``)."""
    words = i18n.translator(tag)
    title = html.escape(words.gettext("Stop the emails - Domino Hall"))
    heading = html.escape(words.gettext("Stop the hall's emails?"))
    gone = html.escape(
        words.gettext(
            'No more "your turn" emails will go to {address}. '
            "You can turn them on again in your settings."
        )
    ).format(address=f"<strong>{html.escape(address)}</strong>")
    stop = html.escape(words.gettext("Stop the emails"))
    keep = html.escape(words.gettext("Keep them"))
    action = html.escape(f"{UNSUBSCRIBE_PATH}?token={token}")
    return f"""<!doctype html>
<html lang="{html.escape(tag)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<link rel="icon" href="{assets.url("favicon.svg")}" type="image/svg+xml">
<link rel="stylesheet" href="{assets.url("style.css")}">
<link rel="stylesheet" href="{assets.url("pages.css")}">
</head>
<body>
<main class="page">
<nav class="crumbs"><a href="/">Domino Hall</a></nav>
<h1>{heading}</h1>
<p>{gone}</p>
<form method="post" action="{action}" class="row">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<input type="hidden" name="{FROM_PAGE}" value="1">
<button class="primary fixed" type="submit">{stop}</button>
<a class="fixed" href="/my-games">{keep}</a>
</form>
</main>
</body>
</html>
"""


async def _unsubscribe(request: Request) -> str:
    found = _links(request).read_unsubscribe(request.query_params.get("token", ""))
    if found is None:
        return "bad-link"
    player, address = found
    await accounts_of(request).unsubscribe(player, address)
    notices = _notices(request)
    if notices is not None:
        await notices.refresh(player)
    return "unsubscribed"
