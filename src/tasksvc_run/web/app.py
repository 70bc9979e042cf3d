"""The web interface's composition root: ``make_web_app(settings)`` (SPEC section 6)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

from aiohttp import web

from taskcore.ratelimit import RateLimiter
from taskcore.services.people import PublicIds, public_key, service_key
from taskcore.services.proof import PROOF_KEY
from taskcore.services.proof_links import ProofLinks
from taskcore.services.web_auth import SessionCache
from taskcore.settings import Settings
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.banner import no_banner
from tasksvc_run.clock import Clock, SystemClock
from tasksvc_run.keys import (
    CLOCK,
    DB,
    FATAL,
    LANGUAGE_CACHE,
    LIMITER,
    LIST_CACHE,
    PROOF_LINKS,
    PUBLIC_IDS,
    SESSIONS,
    SETTINGS,
    TEMPLATES,
)
from tasksvc_run.outage import FatalStop
from tasksvc_run.web.calendar import add_calendar_routes
from tasksvc_run.web.display import add_display_routes
from tasksvc_run.web.errors import problem_middleware
from tasksvc_run.web.import_page import add_import_routes
from tasksvc_run.web.language import LanguageCache, add_content_language, language_middleware
from tasksvc_run.web.list_cache import ListCache
from tasksvc_run.web.pages import add_page_routes
from tasksvc_run.web.penalties import add_penalty_pages
from tasksvc_run.web.routes import add_api_routes
from tasksvc_run.web.session import api_guard, confirm_login, login, logout, session_middleware
from tasksvc_run.web.templating import STATIC_DIR, add_security_headers, make_templates

# Bodies of this API are a few hundred bytes; anything near this is not a client of ours.
MAX_BODY = 64 * 1024


def _database(settings: Settings, given: Database | None) -> Callable[[web.Application], AsyncIterator[None]]:
    async def database(app: web.Application) -> AsyncIterator[None]:
        """Put the database in the app for its lifetime."""
        if given is not None:  # the caller owns it and disposes of it
            app[DB] = given
            yield
            return
        app[DB] = Database.from_url(settings.sqlalchemy_url)
        yield
        app[DB].dispose()

    return database


def make_web_app(settings: Settings, *, db: Database | None = None, clock: Clock | None = None,
                 fatal: FatalStop | None = None) -> web.Application:
    """The web app: session and language middleware, the JSON API, the pages and the static files; ``fatal`` stops
    the serving process on a schema error (by default nothing is stopped: an app inside a test)."""
    middlewares = [problem_middleware, session_middleware, language_middleware, api_guard]
    app = web.Application(middlewares=middlewares, client_max_size=MAX_BODY)
    app[SETTINGS] = settings
    app[CLOCK] = clock or SystemClock()
    app[LIMITER] = RateLimiter(settings.rate_limit_per_min, settings.rate_limit_burst)
    app[FATAL] = fatal or FatalStop()
    app[TEMPLATES] = make_templates()
    app[SESSIONS] = SessionCache()
    app[LANGUAGE_CACHE] = LanguageCache()
    app[PUBLIC_IDS] = PublicIds(lambda: units.run(app[DB], public_key, now=app[CLOCK].now()))
    app[TEMPLATES].filters["public"] = app[PUBLIC_IDS].of
    app[PROOF_LINKS] = ProofLinks(lambda: units.run(app[DB], service_key, PROOF_KEY, now=app[CLOCK].now()),
                                  app[CLOCK].now,
                                  base_url=settings.web_base_url)
    app[TEMPLATES].globals["proof_path"] = app[PROOF_LINKS].path
    app[LIST_CACHE] = ListCache(app[PROOF_LINKS].expires)
    app.cleanup_ctx.append(_database(settings, db))
    app.on_response_prepare.append(add_security_headers)
    app.on_response_prepare.append(add_content_language)
    no_banner(app)
    add_api_routes(app)
    add_page_routes(app)
    add_import_routes(app)
    add_calendar_routes(app)
    add_display_routes(app)
    add_penalty_pages(app)
    app.router.add_get("/login", login)
    app.router.add_post("/login", confirm_login)
    app.router.add_post("/logout", logout)
    app.router.add_static("/static/", STATIC_DIR)
    return app
