"""Server-rendered pages (mobile first, in the request's language); static/app.js acts on them through the JSON
API."""

from __future__ import annotations

from dataclasses import replace
from typing import Any
from urllib.parse import quote, urlencode

from aiohttp import web
from babel import Locale

from taskcore.errors import Forbidden, ValidationError
from taskcore.languages import LanguageSource
from taskcore.services import languages, summaries, task_lists, zones
from taskcore.services import preferences as prefs
from taskcore.words import LANGUAGES
from tasksvc_run import units
from tasksvc_run.i18n import N_, _
from tasksvc_run.keys import CLOCK, DB, PUBLIC_IDS, SETTINGS, USER
from tasksvc_run.web import chores
from tasksvc_run.web import models as m
from tasksvc_run.web.api import gating, user_today
from tasksvc_run.web.parsing import parse_query
from tasksvc_run.web.reward_pages import add_reward_pages
from tasksvc_run.web.task_form import TaskForm, create, form_context, read_form, refused
from tasksvc_run.web.templating import render

SOON_DAYS = 7
FREQ_LABELS = (
    ("off", N_("Desactivados")),
    ("daily", N_("Cada día")),
    ("weekdays", N_("De lunes a viernes")),
    ("weekly", N_("Una vez por semana (los lunes)")),
)
LANGUAGE_LABELS = tuple((code, str(Locale.parse(code).get_display_name(code)).capitalize()) for code in LANGUAGES)
"""Each language by its own name (CLDR's, through Babel), as a language menu shows them."""


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
    return _my_tasks(request, user, TaskForm())


def _my_tasks(request: web.Request, user: str, form: TaskForm, status: int = 200) -> web.Response:
    params = parse_query(request, m.MyTasksParams)
    app = request.app
    common = _common(request, user, "tareas")
    page = units.look(app[DB], task_lists.list_my_tasks, gating(request), user_id=user, query=params.to_query(),
                      today=common["today"], now=app[CLOCK].now())
    links = {"prev": _link(params, page=params.page - 1) if params.page > 1 else None,
             "next": _link(params, page=params.page + 1) if page.has_more else None,
             "open": _link(params, status="open", page=1), "recent": _link(params, status="recent", page=1)}
    mine = units.look(app[DB], task_lists.list_my_groups, gating(request), user_id=user)
    return render(request, "tasks.html", status=status, **common, **form_context(request, form), page=page,
                  params=params, links=links, soon_days=SOON_DAYS, form_groups=[g for g in mine if g.active])


async def add_my_task(request: web.Request) -> web.Response:
    """POST /: the "Mis tareas" form; a task in a group chosen there is the user's own; 303 back to /."""
    user = _signed_in(request)
    form = await read_form(request, user)
    form = replace(form, assignees=(request.app[PUBLIC_IDS].of(user),) if form.group_id else ())
    try:
        await create(request, user, form)
    except ValidationError as exc:
        return _my_tasks(request, user, refused(form, exc), status=422)
    raise web.HTTPSeeOther("/")


def _signed_in(request: web.Request) -> str:
    user: str | None = request.get(USER)
    if user is None:
        raise web.HTTPSeeOther("/")
    return user


async def groups(request: web.Request) -> web.Response:
    """GET /grupos: my groups with open and unassigned counts."""
    user = _signed_in(request)
    found = units.look(request.app[DB], task_lists.list_my_groups, gating(request), user_id=user)
    return render(request, "groups.html", **_common(request, user, "grupos"), groups=found)


async def group(request: web.Request) -> web.Response:
    """GET /grupos/{id}: one group's open tasks, unassigned first, and the form to add one."""
    return _group(request, _signed_in(request), TaskForm())


def _group(request: web.Request, user: str, form: TaskForm, status: int = 200) -> web.Response:
    group_id = request.match_info["id"]
    mine = units.look(request.app[DB], task_lists.list_my_groups, gating(request), user_id=user)
    summary = next((item for item in mine if item.id == group_id), None)
    if summary is None:
        raise Forbidden("the group is not available to this user")
    page = units.look(request.app[DB], task_lists.list_group_tasks, gating(request), user_id=user, group_id=group_id,
                      unassigned_first=True, limit=100)
    people = units.look(request.app[DB], task_lists.list_group_members, gating(request), user_id=user,
                        group_id=group_id)
    zone = units.look(request.app[DB], zones.group_zone, group_id=group_id) or units.look(
        request.app[DB], zones.user_zone, user_id=user, fallback=request.app[SETTINGS].zone).zone
    week = units.look(request.app[DB], summaries.group_week, group_id=group_id, now=request.app[CLOCK].now(),
                      zone=zone)  # the group's week and overdue, in its zone (SPEC section 39), never the server's
    return render(request, "group.html", status=status, **_common(request, user, "grupos"),
                  **form_context(request, form), group=summary, page=page, members=people, week=week)


async def add_group_task(request: web.Request) -> web.Response:
    """POST /grupos/{id}: the group page's form (for the members ticked, or nobody yet); 303 back to the page."""
    user = _signed_in(request)
    group_id = request.match_info["id"]
    form = replace(await read_form(request, user), group_id=group_id)
    try:
        await create(request, user, form)
    except ValidationError as exc:
        return _group(request, user, refused(form, exc), status=422)
    raise web.HTTPSeeOther(f"/grupos/{quote(group_id, safe='@')}")


async def reminders(request: web.Request) -> web.Response:
    """GET /recordatorios: the reminder preference form."""
    user = _signed_in(request)
    db, settings = request.app[DB], request.app[SETTINGS]
    saved = units.look(db, prefs.get_preference, user_id=user)
    zone = units.look(db, zones.user_zone, user_id=user, fallback=settings.zone)
    lang, source = units.look(db, languages.user_language, user_id=user, default=settings.default_language)
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
    app.router.add_post("/", add_my_task)
    app.router.add_post("/grupos/{id}", add_group_task)
    app.router.add_get("/recordatorios", reminders)
    add_reward_pages(app)
