"""Personal API tokens on the web (SPEC section 22): the JSON endpoints and the "Tokens" page."""

from __future__ import annotations

import asyncio
from typing import Any
from zoneinfo import ZoneInfo

import orjson
from aiohttp import web

from taskcore.i18n import date_and_time
from taskcore.services import tokens as svc
from taskcore.services.tokens import TokenRow
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web import access_models as am
from tasksvc_run.web.parsing import parse_body
from tasksvc_run.web.render import utc_stamp
from tasksvc_run.web.templating import render


def json_answer(body: Any, *, status: int = 200) -> web.Response:
    """A compact UTF-8 JSON answer."""
    return web.Response(status=status, body=orjson.dumps(body), content_type="application/json", charset="utf-8")


def _item(row: TokenRow) -> dict[str, Any]:
    return {"id": row.id, "name": row.name, "created_at": utc_stamp(row.created_at),
            "last_used_at": utc_stamp(row.last_used_at)}


async def create_token(request: web.Request) -> web.Response:
    """POST /api/me/tokens: 201 with the token, the only time it is shown."""
    body, _ = await parse_body(request, am.TokenBody)
    made = await asyncio.to_thread(units.run, request.app[DB], svc.create_api_token, user_id=request[USER],
                                   name=body.name,
                                   now=request.app[CLOCK].now())
    return json_answer({"id": made.id, "name": made.name, "token": made.token,
                        "created_at": utc_stamp(made.created_at)}, status=201)


async def list_tokens(request: web.Request) -> web.Response:
    """GET /api/me/tokens: name, created and last used of each token; never the token."""
    rows = units.look(request.app[DB], svc.list_api_tokens, user_id=request[USER])
    return json_answer({"items": [_item(row) for row in rows]})


async def delete_token(request: web.Request) -> web.Response:
    """DELETE /api/me/tokens/{id}: 204; 404 for an id the user has no token under (another user's included)."""
    raw = request.match_info["id"]
    token_id = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 18 else 0
    await asyncio.to_thread(units.run, request.app[DB], svc.revoke_api_token, user_id=request[USER], token_id=token_id)
    return web.Response(status=204)


def local_stamp(moment: Any, zone: ZoneInfo) -> str:
    """The moment in ``zone`` as the reader reads it (``06/12/2026 18:05``; ``Dec 6, 2026 6:05 PM``), for the pages."""
    return date_and_time(moment.astimezone(zone))


async def tokens_page(request: web.Request) -> web.Response:
    """GET /tokens: the user's tokens, a form to create one and the way to use it."""
    user: str | None = request.get(USER)
    if user is None:
        raise web.HTTPSeeOther("/")
    rows = units.look(request.app[DB], svc.list_api_tokens, user_id=user)
    zone = request.app[SETTINGS].zone
    shown = [{"id": row.id, "name": row.name, "created": local_stamp(row.created_at, zone),
              "used": local_stamp(row.last_used_at, zone) if row.last_used_at else None} for row in rows]
    return render(request, "tokens.html", user=user, section="tokens", tokens=shown,
                  max_name=svc.MAX_TOKEN_NAME, base=public_base(request))


def public_base(request: web.Request) -> str:
    """WEB_BASE_URL; without it, the origin the browser used (as the proxy, which sets X-Forwarded-*, saw it)."""
    base = request.app[SETTINGS].web_base_url
    if base:
        return str(base)
    proto = request.headers.get("X-Forwarded-Proto", request.scheme)
    host = request.headers.get("X-Forwarded-Host", request.host)
    return f"{proto}://{host}"
