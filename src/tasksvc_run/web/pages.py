"""Server-rendered pages (mobile first, in the request's language); static/app.js acts on them through the JSON
API."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from taskcore.errors import Forbidden
from taskcore.languages import LanguageSource
from taskcore.services import languages, task_lists, zones
from taskcore.services import preferences as prefs
from tasksvc_run.i18n import N_, _
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web import chores
from tasksvc_run.web import models as m
from tasksvc_run.web.api import gating, user_today
from tasksvc_run.web.parsing import parse_query
from tasksvc_run.web.templating import render

SOON_DAYS = 7
FREQ_LABELS = (
    ("off", N_("Desactivados")),
    ("daily", N_("Cada día")),
    ("weekdays", N_("De lunes a viernes")),
    ("weekly", N_("Una vez por semana (los lunes)")),
)
# Each language by its own name, as a language menu shows them.
LANGUAGE_LABELS = (("es", "Español"), ("pt", "Português"), ("en", "English"))


ZONE_SOURCES = {"user": N_("la elegiste tú"), "phone": N_("la del prefijo de tu número"),
                "default": N_("la del servicio")}


def _common(request: web.Request, user: str, section: str) -> dict[str, Any]:
    return {"user": user, "section": section, "today": user_today(request, user)}


def _link(params: m.MyTasksParams, *, status: str | None = None, page: int | None = None) -> str:
    values: dict[str, Any] = {"status": status or params.status, "search": params.search,
                              "soonDays": params.soon_days, "page": page or params.page}
    defaults = {"status": "open", "search": "", "page": 1}
    kept = {key: value for key, value in values.items() if value is not None and defaults.get(key) != value}
    return "/?" + urlencode(kept) if kept else "/"


async def home(request: web.Request) -> web.Response:
    """GET /: "Mis tareas" with a session, the sign-in help without one."""
    user = request.get(USER)
    if user is None:
        return render(request, "signin.html", user=None, section="signin")
    params = parse_query(request, m.MyTasksParams)
    app = request.app
    common = _common(request, user, "tareas")
    page = task_lists.list_my_tasks(app[DB], gating(request), user_id=user, query=params.to_query(),
                             today=common["today"], now=app[CLOCK].now())
    links = {"prev": _link(params, page=params.page - 1) if params.page > 1 else None,
             "next": _link(params, page=params.page + 1) if page.has_more else None,
             "open": _link(params, status="open", page=1), "recent": _link(params, status="recent", page=1)}
    return render(request, "tasks.html", **common, page=page, params=params, links=links, soon_days=SOON_DAYS)


def _signed_in(request: web.Request) -> str:
    user: str | None = request.get(USER)
    if user is None:
        raise web.HTTPSeeOther("/")
    return user


async def groups(request: web.Request) -> web.Response:
    """GET /grupos: my groups with open and unassigned counts."""
    user = _signed_in(request)
    found = task_lists.list_my_groups(request.app[DB], gating(request), user_id=user)
    return render(request, "groups.html", **_common(request, user, "grupos"), groups=found)


async def group(request: web.Request) -> web.Response:
    """GET /grupos/{id}: one group's open tasks, unassigned first."""
    user = _signed_in(request)
    group_id = request.match_info["id"]
    mine = task_lists.list_my_groups(request.app[DB], gating(request), user_id=user)
    summary = next((item for item in mine if item.id == group_id), None)
    if summary is None:
        raise Forbidden("the group is not available to this user")
    page = task_lists.list_group_tasks(request.app[DB], gating(request), user_id=user, group_id=group_id,
                                unassigned_first=True, limit=100)
    return render(request, "group.html", **_common(request, user, "grupos"), group=summary, page=page)


async def reminders(request: web.Request) -> web.Response:
    """GET /recordatorios: the reminder preference form."""
    user = _signed_in(request)
    db, settings = request.app[DB], request.app[SETTINGS]
    saved = prefs.get_preference(db, user_id=user)
    zone = zones.user_zone(db, user_id=user, fallback=settings.zone)
    lang, source = languages.user_language(db, user_id=user, default=settings.default_language)
    return render(request, "reminders.html", **_common(request, user, "recordatorios"), pref=saved,
                  freqs=[(value, _(label)) for value, label in FREQ_LABELS], tz=zone.name,
                  tz_source=_(ZONE_SOURCES[zone.source.value]), tz_chosen=saved.tz or "",
                  languages=LANGUAGE_LABELS, lang_chosen=lang if source is LanguageSource.USER else "",
                  **_chores(request, user))


def _chores(request: web.Request, user: str) -> dict[str, Any]:
    """The form's quiet hours and away date (SPEC section 25), empty when unset."""
    found = chores.chore_fields(request.app[DB], user_id=user, today=user_today(request, user))
    window = found["quiet"] or {"from": "", "to": ""}
    return {"quiet_from": window["from"], "quiet_to": window["to"], "away_until": found["away_until"] or ""}


def add_page_routes(app: web.Application) -> None:
    """The pages."""
    app.router.add_get("/", home)
    app.router.add_get("/grupos", groups)
    app.router.add_get("/grupos/{id}", group)
    app.router.add_get("/recordatorios", reminders)
