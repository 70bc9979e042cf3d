"""The web's ticking of a checklist's item (SPEC section 41): ``POST /api/tasks/{id}/items/{n}/tick``, the same use
case as the chat's ``/t x 12.2``; like the other task actions it is a JSON write (no cross-site form reaches it)."""

from __future__ import annotations

import asyncio

from aiohttp import web

from taskcore.checklists import InvalidItem
from taskcore.errors import NotFound
from taskcore.services import checklists as svc
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, USER
from tasksvc_run.web import answer_models as out
from tasksvc_run.web import render
from tasksvc_run.web.api import gating, ok, react, user_today
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.me import ids
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import task_id_of

__all__ = ["CHECKLIST_ROUTES", "tick_item"]

_PATH = {"id": {"type": "integer", "minimum": 1}, "n": {"type": "integer", "minimum": 1, "maximum": 20}}


def _item_number(request: web.Request) -> int:
    """The {n} of an item's path; anything that cannot be one is an item that does not exist."""
    raw = request.match_info["n"]
    if not (raw.isascii() and raw.isdigit()) or not 1 <= int(raw) <= 99:
        raise NotFound("no such item")
    return int(raw)


async def tick_item(request: web.Request) -> web.Response:
    """POST /api/tasks/{id}/items/{n}/tick: the task with the item ticked; the last one completes it (then ``next``
    is the occurrence a recurring task's completion created)."""
    task_id, n = task_id_of(request), _item_number(request)
    app, now, user = request.app, request.app[CLOCK].now(), request[USER]
    try:
        done = await asyncio.to_thread(units.run, app[DB], svc.tick_items, gating(request), user_id=user,
                                       task_id=task_id, numbers=(n,), now=now, today=user_today(request, user))
    except InvalidItem as exc:  # the task has no item {n}: the path names nothing (404, as past 20), said why
        raise RequestProblem(404, "not-found", str(exc)) from exc
    if done.completion is not None:
        await react(request, done.completion, now)
    following = done.completion.next_task if done.completion else None
    return ok(render.completed_item(done.task, following, ids(request)))


CHECKLIST_ROUTES: tuple[ApiRoute, ...] = (
    ApiRoute("POST", "/api/tasks/{id}/items/{n}/tick", tick_item, "tickTaskItem",
             "Tick one item of a task's checklist (SPEC section 41); the last one completes the task, and a "
             "recurring task's completion creates its next occurrence (next)", out.CompletedTask,
             path_schemas=_PATH, errors=(404, 409, 403, 415, 422, 429)),
)
