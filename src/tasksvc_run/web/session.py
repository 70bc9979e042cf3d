"""Sign-in by link, the session cookie, and the guard in front of the API (SPEC section 6, seed A1, A2, A6)."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime

from aiohttp import web
from aiohttp.typedefs import Handler

from taskcore.errors import RateLimited, Unauthorized
from taskcore.services.web_auth import (
    ConfirmSwitch,
    NewSession,
    cached_session,
    confirm_login_switch,
    end_session,
    look_up_session,
    open_login_link,
    touch_session,
)
from taskcore.settings import Settings
from tasksvc_run import units
from tasksvc_run.i18n import _
from tasksvc_run.keys import CLOCK, DB, LIMITER, SESSIONS, SETTINGS, USER
from tasksvc_run.web.bearer import presented_token, token_user
from tasksvc_run.web.crosssite import WRITE_METHODS, require_our_site, require_same_site_write
from tasksvc_run.web.errors import is_api
from tasksvc_run.web.templating import render

COOKIE = "tasksvc_session"


def _secure(settings: Settings) -> bool:
    return (settings.web_base_url or "").startswith("https://")


def set_session_cookie(response: web.StreamResponse, settings: Settings, session: NewSession, now: datetime) -> None:
    """The session cookie: HttpOnly, SameSite=Lax, Path=/, Secure behind https, living until the absolute expiry."""
    max_age = max(0, int((session.expires_at - now).total_seconds()))
    response.set_cookie(COOKIE, session.session_id, max_age=max_age, path="/", httponly=True, samesite="Lax",
                        secure=_secure(settings))


def clear_session_cookie(response: web.StreamResponse, settings: Settings) -> None:
    """Tell the browser to drop the session cookie."""
    response.del_cookie(COOKIE, path="/", secure=_secure(settings), httponly=True, samesite="Lax")


async def _resolve_user(request: web.Request) -> str | None:
    app = request.app
    session_id = request.cookies.get(COOKIE)
    if session_id:
        now = app[CLOCK].now()
        # A short read on the loop, or none: the cache answers for a session read in the last few seconds.
        found = (cached_session(app[SESSIONS], session_id=session_id, now=now)
                 or units.look(app[DB], look_up_session, session_id=session_id, now=now, cache=app[SESSIONS]))
        if found is not None:
            if found.touch_due:  # a write, at most every few minutes per session: off the loop
                await asyncio.to_thread(units.run, app[DB], touch_session, session_id=session_id, now=now)
            return found.user_id
    return app[SETTINGS].default_user  # DEV_DEFAULT_USER, only ever set in development


# Static files, calendar feeds and kitchen displays (whose token is in the URL) are served without a session.
SESSIONLESS = ("/static/", "/cal/", "/pantalla/")


@web.middleware
async def session_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Attach the signed-in user (if any) to the request: by an API token on /api paths that carry one (bearer),
    else by the session cookie."""
    if not request.path.startswith(SESSIONLESS):
        token = presented_token(request, cookie=COOKIE)
        user = await (token_user(request, token) if token is not None else _resolve_user(request))
        if user is not None:
            request[USER] = user
    return await handler(request)


@web.middleware
async def api_guard(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Every /api path needs a session or an API token (A1, SPEC 22); a path or method the API does not have is
    404 or 405 (with Allow) before anything else (SPEC 28); every write under /api takes a token from the user's
    bucket, then must declare JSON unless an API token authenticated it (crosssite)."""
    if is_api(request):
        user = request.get(USER)
        if user is None:
            raise Unauthorized("no valid session")
        if request.match_info.http_exception is not None:
            raise request.match_info.http_exception
        if request.method in WRITE_METHODS:
            decision = request.app[LIMITER].check(user, request.app[CLOCK].monotonic())
            if not decision.allowed:
                raise RateLimited(decision.retry_after)
            require_our_site(request)
            require_same_site_write(request)
    return await handler(request)


# Link previewers fetch a URL pasted in a chat before the person taps it (SPEC section 27): lower case, as found in
# their User-Agent (WhatsApp's is "WhatsApp/2.23.20.0 A").
PREVIEWERS = ("whatsapp", "facebookexternalhit", "facebot", "slackbot", "telegrambot", "twitterbot", "discordbot",
              "skypeuripreview")


def is_preview(request: web.Request) -> bool:
    """True for a HEAD or a known link previewer: such a request must not spend a login token."""
    agent = request.headers.get("User-Agent", "").lower()
    return request.method == "HEAD" or any(name in agent for name in PREVIEWERS)


async def login(request: web.Request) -> web.StreamResponse:
    """GET /login?token=: spend the token on a session, set the cookie, 303 to /; a confirmation page when the
    browser is signed in as someone else; a 401 page when the token is no good. A HEAD or a link previewer gets a
    page that says what the link is, and the token stays unspent."""
    if is_preview(request):
        response = render(request, "login_preview.html", user=None)
        response.headers["Cache-Control"] = "no-store"
        response.headers["X-Robots-Tag"] = "noindex"
        return response
    app = request.app
    now = app[CLOCK].now()
    token = request.query.get("token", "")
    try:
        opened = await asyncio.to_thread(units.run, app[DB], open_login_link, token=token,
                                         session_id=request.cookies.get(COOKIE), now=now)
    except Unauthorized:
        return render(request, "login_failed.html", status=401, user=None)
    if isinstance(opened, ConfirmSwitch):
        return render(request, "login_switch.html", user=None, token=token, switch=opened)
    return _signed_in(request, opened, now)


async def confirm_login(request: web.Request) -> web.StreamResponse:
    """POST /login (the confirmation page's form): replace the browser's session with the link's user."""
    app = request.app
    now = app[CLOCK].now()
    form: Mapping[str, object]
    try:
        form = await request.post()
    except ValueError:  # a malformed body (a multipart without its boundary): like a form without the token
        form = {}
    token, code = str(form.get("token", "")), str(form.get("confirm", ""))
    try:
        session = await asyncio.to_thread(units.run, app[DB], confirm_login_switch, token=token,
                                          session_id=request.cookies.get(COOKIE), code=code, now=now)
    except Unauthorized:
        return render(request, "error.html", status=403, heading=_("No se pudo cambiar de cuenta"),
                      detail=_("Abre otra vez el enlace que te envió el bot, en este mismo navegador."), errors=[],
                      user=None, section="error")
    return _signed_in(request, session, now)


def _signed_in(request: web.Request, session: NewSession, now: datetime) -> web.Response:
    """303 to / with the new session's cookie; the browser's previous session (ended) leaves this process's cache."""
    previous = request.cookies.get(COOKIE)
    if previous:
        request.app[SESSIONS].forget(previous)
    response = web.Response(status=303, headers={"Location": "/"})
    set_session_cookie(response, request.app[SETTINGS], session, now)
    return response


async def logout(request: web.Request) -> web.StreamResponse:
    """POST /logout: end the session, clear the cookie, 303 to /."""
    session_id = request.cookies.get(COOKIE)
    if session_id:
        await asyncio.to_thread(units.run, request.app[DB], end_session, session_id=session_id)
        request.app[SESSIONS].forget(session_id)  # after the deletion: no lookup can bring it back
    response = web.Response(status=303, headers={"Location": "/"})
    clear_session_cookie(response, request.app[SETTINGS])
    return response
