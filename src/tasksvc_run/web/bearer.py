"""``Authorization: Bearer <token>``: a personal API token stands for the session on every /api path (SPEC 22).

A request carries one credential: the session cookie or a token. With both it is refused (400) rather than one of
them guessed at. A token is honoured under /api only; the pages stay cookie-only. The token is never logged.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from taskcore.errors import Unauthorized
from taskcore.services.tokens import authenticate_api_token, record_token_use
from tasksvc_run import units
from tasksvc_run.i18n import N_
from tasksvc_run.keys import CLOCK, DB, VIA_TOKEN
from tasksvc_run.web.errors import RequestProblem, is_api

CHALLENGE = 'Bearer realm="tasksvc"'


def _invalid() -> RequestProblem:
    return RequestProblem(401, "invalid-token", N_("El token no es válido o se ha revocado."),
                          headers={"WWW-Authenticate": f'{CHALLENGE}, error="invalid_token"'})


def presented_token(request: web.Request, *, cookie: str) -> str | None:
    """The bearer token of an /api request, or None when it has no Authorization header; 400 when the session
    cookie ``cookie`` comes with it, 401 for another scheme or an empty token."""
    header = request.headers.get("Authorization")
    if header is None or not is_api(request):
        return None
    if cookie in request.cookies:
        raise RequestProblem(400, "ambiguous-credentials",
                             N_("Envía la cookie de sesión o un token, no los dos en la misma petición."))
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise RequestProblem(401, "unsupported-authorization", N_("Usa Authorization: Bearer <token>."),
                             headers={"WWW-Authenticate": CHALLENGE})
    return token.strip()


async def token_user(request: web.Request, token: str) -> str:
    """The user the token belongs to (a read on the loop; the use is recorded off it, at most once a minute)."""
    app = request.app
    now = app[CLOCK].now()
    try:
        use = units.look(app[DB], authenticate_api_token, token=token, now=now)
    except Unauthorized:
        raise _invalid() from None  # the cause would add nothing, and nothing about the token may reach a log
    if use.touch_due:
        await asyncio.to_thread(units.run, app[DB], record_token_use, token_id=use.token_id, now=now)
    request[VIA_TOKEN] = True
    return use.user_id
