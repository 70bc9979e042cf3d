"""Who I am and my own data (SPEC section 32): GET /api/me, GET /api/me/export, DELETE /api/me."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Literal

import orjson
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from taskcore.services import own_data
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, LANGUAGE_CACHE, PROOF_LINKS, PUBLIC_IDS, SESSIONS, SETTINGS, USER
from tasksvc_run.web.models import PUBLIC_ID, Lang
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import parse_body
from tasksvc_run.web.render import Naming
from tasksvc_run.web.session import COOKIE


class MeOut(BaseModel):
    """Who the signed-in person is; ``phone`` is shown only to them."""

    id: str = PUBLIC_ID
    name: str | None = Field(description="The name WhatsApp shows; null when unknown.")
    phone: str | None = Field(description="My phone number's digits; null when the bot knows me only by a LID.")
    lang: Lang
    tz: str = Field(description="The IANA zone in force for me.")


class ExportOut(BaseModel):
    """Everything the service keeps about me (no secret: tokens and links by their dates)."""

    model_config = ConfigDict(extra="allow")

    exported_at: str
    profile: dict[str, object]
    points: int
    data: dict[str, list[dict[str, object]]] = Field(description="The stored rows about me, by table.")


class ForgetBody(BaseModel):
    """Body of DELETE /api/me: ``{"confirm": true}``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    confirm: Literal[True] = Field(description="Must be true: erasing cannot be undone.")


def ids(request: web.Request) -> Callable[[str], str]:
    """Public ids under the service's key (SPEC section 32): how answers name everyone; and where a task's photo
    opens (SPEC section 34)."""
    return Naming(request.app[PUBLIC_IDS].of, request.app[PROOF_LINKS].url)


def _json(body: object) -> web.Response:
    return web.Response(body=orjson.dumps(body), content_type="application/json", charset="utf-8")


async def get_me(request: web.Request) -> web.Response:
    """GET /api/me: {id (public), name, phone, lang, tz}."""
    app, user = request.app, request[USER]
    me = units.look(app[DB], own_data.my_profile, user_id=user, default_lang=app[SETTINGS].default_language,
                    fallback_zone=app[SETTINGS].zone)
    return _json({"id": app[PUBLIC_IDS].of(user), "name": me.name, "phone": me.phone, "lang": me.lang,
                  "tz": me.tz})


async def export_me(request: web.Request) -> web.Response:
    """GET /api/me/export: one JSON document."""
    app = request.app
    found = await asyncio.to_thread(units.look, app[DB], own_data.export_person, user_id=request[USER],
                                    default_lang=app[SETTINGS].default_language, fallback_zone=app[SETTINGS].zone,
                                    now=app[CLOCK].now())
    response = _json(found)
    response.headers["Content-Disposition"] = 'attachment; filename="my-data.json"'
    response.headers["Cache-Control"] = "no-store"
    return response


async def forget_me(request: web.Request) -> web.Response:
    """DELETE /api/me with {"confirm": true}: 204, the person erased and the session cookie cleared."""
    await parse_body(request, ForgetBody)
    app, user = request.app, request[USER]
    await asyncio.to_thread(units.run, app[DB], own_data.forget_person, user_id=user, now=app[CLOCK].now())
    app[LANGUAGE_CACHE].forget(user)
    app[SESSIONS].forget(request.cookies.get(COOKIE, ""))
    response = web.Response(status=204)
    response.del_cookie(COOKIE, path="/")
    return response


ME_ROUTES = (
    ApiRoute("GET", "/api/me", get_me, "getMe", "Who I am: my public id, name, own phone number, language, zone",
             MeOut),
    ApiRoute("GET", "/api/me/export", export_me, "exportMe", "Everything the service keeps about me", ExportOut),
    ApiRoute("DELETE", "/api/me", forget_me, "forgetMe", 'Erase me (body {"confirm": true})', None,
             body=ForgetBody, errors=(415, 422, 429), status=204),
)
