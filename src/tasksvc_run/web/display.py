"""The kitchen display on the web (SPEC section 41): ``/pantalla/<token>`` without a session, read-only, in the
group's language, large, refreshing itself once a minute (a meta refresh: no script, within the pages' CSP); and the
API that makes or revokes a group's address (its admins), as ``/api/me/calendar`` does a person's feed.

It shows the chores by their text and the people by their names: no task number, no member id, no phone number
(its template receives none). A revoked, replaced or unknown token answers 404 alike."""

from __future__ import annotations

import asyncio

from aiohttp import web
from pydantic import BaseModel, Field

from taskcore.access import GatingMode
from taskcore.errors import NotFound
from taskcore.i18n import speaking
from taskcore.model import Task
from taskcore.services import display as svc
from taskcore.shown import shown_name
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web.api import gating, ok
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import group_id_of
from tasksvc_run.web.templating import render
from tasksvc_run.web.tokens import public_base

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


class DisplayOut(BaseModel):
    """The secret address of a group's kitchen display; shown once, when it is made."""

    url: str = Field(description="<WEB_BASE_URL>/pantalla/<token>; the group's previous address stops working.")


async def create_display(request: web.Request) -> web.Response:
    """POST /api/groups/{id}/display: 201 with a new address (a group admin); the previous one stops working."""
    app, group_id = request.app, group_id_of(request)
    token = await asyncio.to_thread(units.run, app[DB], svc.issue_display, gating(request), group_id=group_id,
                                    user_id=request[USER], now=app[CLOCK].now())
    return ok({"url": svc.display_url(public_base(request), token)}, status=201)


async def delete_display(request: web.Request) -> web.Response:
    """DELETE /api/groups/{id}/display: 204; the address answers 404 from now on (revoking none is no error)."""
    await asyncio.to_thread(units.run, request.app[DB], svc.revoke_display, gating(request),
                            group_id=group_id_of(request), user_id=request[USER])
    return web.Response(status=204)


_GROUP = {"id": {"type": "string", "pattern": r"^[0-9]+(-[0-9]+)?@g\.us$"}}
DISPLAY_ROUTES = (
    ApiRoute("POST", "/api/groups/{id}/display", create_display, "createGroupDisplay",
             "Make the group's kitchen display address, or a new one (a group admin; the old one stops working)",
             DisplayOut, path_schemas=_GROUP, errors=(403, 415, 429), status=201),
    ApiRoute("DELETE", "/api/groups/{id}/display", delete_display, "deleteGroupDisplay",
             "Revoke the group's kitchen display (a group admin; its address answers 404)", None,
             path_schemas=_GROUP, errors=(403, 415, 429), status=204),
)


def add_display_routes(app: web.Application) -> None:
    """The display's page (made and revoked from the chat: ``/t pantalla``)."""
    app.router.add_get("/pantalla/{token}", display_page)
