"""The calendar feed on the web (SPEC section 22): ``/cal/<token>.ics`` without a session, the JSON endpoints that
make, rotate and revoke its address, and the "Calendario" page."""

from __future__ import annotations

import asyncio

from aiohttp import web

from taskcore.access import GatingMode
from taskcore.calendar_feed import build_calendar, feed_etag, feed_url, uid_domain
from taskcore.i18n import speaking
from taskcore.services import calendar as svc
from taskcore.services.languages import user_language
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web.templating import render
from tasksvc_run.web.tokens import json_answer, local_stamp, public_base, tokens_page

# A subscribed calendar may keep the answer but must ask again each time; shared caches must not keep it at all.
FEED_CACHE = "private, no-cache"


def etag_matches(if_none_match: str | None, etag: str) -> bool:
    """If-None-Match against the current ETag: ``*``, or any listed tag by the weak comparison (RFC 9110 13.1.2)."""
    if not if_none_match:
        return False
    tags = (tag.strip() for tag in if_none_match.split(","))
    return any(tag == "*" or tag.removeprefix("W/") == etag for tag in tags)


def spoken_etag(etag: str, lang: str) -> str:
    """The feed's ETag for a feed written in ``lang``: the same texts in another language are another feed."""
    return etag if lang == "es" else f'{etag[:-1]}-{lang}"'


def _answer(request: web.Request, token: str, if_none_match: str | None) -> web.Response:
    """Read the feed's tasks; 304 when the client's copy is current, else write the calendar (off the loop: a long
    feed takes a while to write) in the language of the person whose feed it is."""
    app = request.app
    settings = app[SETTINGS]
    found = units.look(app[DB], svc.read_calendar_feed, GatingMode(settings.group_gating_mode), token=token,
                       now=app[CLOCK].now())
    lang = units.look(app[DB], user_language, user_id=found.user_id, default=settings.default_language)[0]
    shape = {"domain": uid_domain(settings.web_base_url), "base_url": public_base(request)}
    with speaking(lang):
        etag = spoken_etag(feed_etag(found.tasks, **shape), lang)
        headers = {"ETag": etag, "Cache-Control": FEED_CACHE, "Content-Language": lang}
        if etag_matches(if_none_match, etag):
            return web.Response(status=304, headers=headers)
        body = build_calendar(found.tasks, **shape)
    return web.Response(body=body, content_type="text/calendar", charset="utf-8", headers=headers)


async def feed(request: web.Request) -> web.Response:
    """GET /cal/{token}.ics: the feed with its ETag, 304 when the client has it already; 404 for a revoked or
    unknown token alike (one lookup of the token's hash either way)."""
    return await asyncio.to_thread(_answer, request, request.match_info["token"], request.headers.get("If-None-Match"))


async def create_calendar(request: web.Request) -> web.Response:
    """POST /api/me/calendar: 201 with the new address; the previous one stops working."""
    token = await asyncio.to_thread(units.run, request.app[DB], svc.issue_calendar_feed, user_id=request[USER],
                                    now=request.app[CLOCK].now())
    return json_answer({"url": feed_url(public_base(request), token)}, status=201)


async def delete_calendar(request: web.Request) -> web.Response:
    """DELETE /api/me/calendar: 204; the address answers 404 from now on (revoking none is no error)."""
    await asyncio.to_thread(units.run, request.app[DB], svc.revoke_calendar_feed, user_id=request[USER])
    return web.Response(status=204)


async def calendar_page(request: web.Request) -> web.Response:
    """GET /calendario: whether the user has a feed, and the buttons to make, change or remove its address."""
    user: str | None = request.get(USER)
    if user is None:
        raise web.HTTPSeeOther("/")
    since = units.look(request.app[DB], svc.calendar_feed_since, user_id=user)
    zone = request.app[SETTINGS].zone
    return render(request, "calendar.html", user=user, section="calendario",
                  since=local_stamp(since, zone) if since else None)


def add_calendar_routes(app: web.Application) -> None:
    """The feed and the pages of calendars and tokens (the JSON endpoints are in the API's route table)."""
    app.router.add_get("/cal/{token}.ics", feed)
    app.router.add_get("/calendario", calendar_page)
    app.router.add_get("/tokens", tokens_page)
