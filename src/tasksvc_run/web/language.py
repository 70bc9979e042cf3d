"""The language of each web request (SPEC section 24): the signed-in person's language in force, else the
browser's ``Accept-Language``, else DEFAULT_LANGUAGE. Pages, problem details and taskcore's messages are composed
in it (``speaking``); responses say it in ``Content-Language``.

A person's language costs one short read, remembered for a few seconds per user in this process (as the session
cache does for sessions), so a burst of API calls reads it once; saving a choice here forgets the remembered one.
"""

from __future__ import annotations

from collections import OrderedDict

from aiohttp import web
from aiohttp.typedefs import Handler
from babel.core import negotiate_locale

from taskcore.i18n import speaking
from taskcore.phones import phone_region
from taskcore.services.languages import user_language
from taskcore.services.web_auth import SESSION_CACHE_TTL
from taskcore.words import LANGUAGES
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, LANG, LANGUAGE_CACHE, SETTINGS, USER

MAX_ACCEPT_ITEMS = 20


class LanguageCache:
    """Each user's language in force as read within the last ``ttl`` seconds (bounded, oldest dropped first)."""

    def __init__(self, ttl: float = SESSION_CACHE_TTL.total_seconds(), max_entries: int = 10_000) -> None:
        self.ttl, self.max_entries = ttl, max_entries
        self._seen: OrderedDict[str, tuple[str, float]] = OrderedDict()

    def get(self, user: str, now: float) -> str | None:
        """The language remembered for ``user``, if read less than ttl ago."""
        seen = self._seen.get(user)
        return seen[0] if seen is not None and now - seen[1] < self.ttl else None

    def put(self, user: str, lang: str, now: float) -> None:
        """Remember ``user``'s language as read at ``now``."""
        self._seen[user] = (lang, now)
        self._seen.move_to_end(user)
        while len(self._seen) > self.max_entries:
            self._seen.popitem(last=False)

    def forget(self, user: str) -> None:
        """Drop what is remembered of ``user`` (their choice just changed)."""
        self._seen.pop(user, None)


def _weight(item: str) -> tuple[str, float]:
    tag, _, params = item.partition(";")
    quality = 1.0
    for param in params.split(";"):
        name, _, value = param.strip().partition("=")
        if name.strip().lower() == "q":
            try:
                quality = float(value)
            except ValueError:
                quality = 0.0
    return tag.strip().lower(), quality  # language tags are case-insensitive (RFC 4647): PT-BR is pt-br


def accepted_language(header: str | None) -> str | None:
    """The best of our languages for an ``Accept-Language`` header (``pt-BR`` and ``pt-PT``: pt; ``en-GB``: en)."""
    if not header:
        return None
    weighted = [_weight(item) for item in header.split(",")[:MAX_ACCEPT_ITEMS]]
    preferred = [tag for tag, quality in sorted(weighted, key=lambda pair: -pair[1]) if tag and quality > 0]
    return negotiate_locale(preferred, LANGUAGES, sep="-")


def person_language(request: web.Request, user: str) -> str:
    """The signed-in person's language in force (chosen, else their number's country's, else DEFAULT_LANGUAGE)."""
    app = request.app
    now, cache = app[CLOCK].monotonic(), app[LANGUAGE_CACHE]
    lang = cache.get(user, now)
    if lang is None:
        lang = units.look(app[DB], user_language, user_id=user, default=app[SETTINGS].default_language)[0]
        cache.put(user, lang, now)
    return lang


def visitor_language(request: web.Request) -> str:
    """The browser's language, else DEFAULT_LANGUAGE."""
    return accepted_language(request.headers.get("Accept-Language")) or request.app[SETTINGS].default_language


def request_language(request: web.Request) -> str:
    """The request's language: decided once (by the middleware), else the visitor's."""
    return request.get(LANG) or visitor_language(request)


def reader_region(request: web.Request, user: str | None) -> str | None:
    """The reader's country, for how dates and times are written: their number's, else the browser's first
    language tag's (``en-GB``: GB)."""
    by_phone = phone_region(user) if user is not None else None
    if by_phone is not None:
        return by_phone
    tags = (request.headers.get("Accept-Language") or "").split(",")[0].split(";")[0].strip().split("-")
    return tags[1].upper() if len(tags) > 1 and len(tags[1]) == 2 and tags[1].isalpha() else None


@web.middleware
async def language_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Decide the request's language (after the session is known) and compose the answer in it."""
    user = request.get(USER)
    lang = person_language(request, user) if user is not None else visitor_language(request)
    request[LANG] = lang
    with speaking(lang, region=reader_region(request, user)):
        return await handler(request)


async def add_content_language(request: web.Request, response: web.StreamResponse) -> None:
    """on_response_prepare: ``Content-Language`` on every answer but static files and calendar feeds."""
    if not request.path.startswith(("/static/", "/cal/")):
        response.headers.setdefault("Content-Language", request_language(request))
