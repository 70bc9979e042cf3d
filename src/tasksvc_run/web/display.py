"""The kitchen display on the web (SPEC section 41): ``/pantalla/<token>`` without a session, read-only, in the
group's language, large, refreshing itself once a minute (a meta refresh: no script, within the pages' CSP).

It shows the chores by their text and the people by their names: no task number, no member id, no phone number
(its template receives none). A revoked, replaced or unknown token answers 404 alike."""

from __future__ import annotations

from aiohttp import web

from taskcore.access import GatingMode
from taskcore.errors import NotFound
from taskcore.i18n import speaking
from taskcore.model import Task
from taskcore.services import display as svc
from taskcore.shown import shown_name
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, SETTINGS
from tasksvc_run.web.templating import render

REFRESH_SECONDS = 60
"""How often the page loads itself again: a minute keeps a kitchen's screen current for one read a minute."""


def _people(task: Task) -> list[tuple[str, bool]]:
    """Whose turn it is: each assignee's shown name, and whether their part is done (a shared chore's)."""
    return [(shown_name(person.name), task.each and person.done) for person in task.assignees]


async def display_page(request: web.Request) -> web.Response:
    """GET /pantalla/{token}: today's and this week's chores, whose turn, and this week's points."""
    app = request.app
    settings = app[SETTINGS]
    try:
        found = units.look(app[DB], svc.read_display, GatingMode(settings.group_gating_mode),
                           token=request.match_info["token"], now=app[CLOCK].now(), zone=settings.zone,
                           default_language=settings.default_language)
    except NotFound:
        raise web.HTTPNotFound(text="404", headers={"Cache-Control": "no-store"}) from None
    with speaking(found.lang):
        response = render(request, "display.html", shown=found, people=_people, refresh=REFRESH_SECONDS)
    response.headers["Content-Language"] = found.lang
    response.headers["Cache-Control"] = "no-store"
    return response


def add_display_routes(app: web.Application) -> None:
    """The display's page (made and revoked from the chat: ``/t pantalla``)."""
    app.router.add_get("/pantalla/{token}", display_page)
