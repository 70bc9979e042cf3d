"""The JSON API's task, group and preference handlers (seed section 4, SPEC section 6): parse, call one use case,
render. Writes run off the loop; short reads run on it (``tasksvc_run.units.look``). Their routes and the OpenAPI
document are ``web.routes``."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from datetime import date, datetime
from functools import partial
from typing import Any

import orjson
from aiohttp import web

from taskcore.access import GatingMode
from taskcore.completion import CompletionMode, InvalidCompletion
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import current_language
from taskcore.model import Completion, Task
from taskcore.reactions import ReactionPolicy
from taskcore.services import Database, languages, task_lists, web_tasks, zones
from taskcore.services import preferences as prefs
from taskcore.services import tasks as svc
from taskcore.services.reactions import react_to_completion
from taskcore.zones import UserZone
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, LANGUAGE_CACHE, LIST_CACHE, PUBLIC_IDS, SETTINGS, USER
from tasksvc_run.web import chores, render
from tasksvc_run.web import creation_models as cm
from tasksvc_run.web import models as m
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.me import ids
from tasksvc_run.web.parsing import group_id_of, parse_body, parse_query, task_id_of

log = logging.getLogger(__name__)


def ok(body: Any, *, status: int = 200) -> web.Response:
    """200 (or ``status``) with a compact UTF-8 JSON body (orjson: the bytes compact ``json.dumps`` would write, ~10x
    faster)."""
    return web.Response(status=status, body=orjson.dumps(body), content_type="application/json", charset="utf-8")


def gating(request: web.Request) -> GatingMode:
    """GROUP_GATING_MODE."""
    return GatingMode(request.app[SETTINGS].group_gating_mode)


def user_today(request: web.Request, user: str) -> date:
    """Today in the signed-in user's zone (SPEC section 21)."""
    app = request.app
    return units.look(app[DB], zones.user_today, user_id=user, fallback=app[SETTINGS].zone, now=app[CLOCK].now())


async def my_tasks(request: web.Request) -> web.Response:
    """GET /api/me/tasks."""
    query = parse_query(request, m.MyTasksParams).to_query()
    app, user = request.app, request[USER]
    now = app[CLOCK].now()
    today = now.date() if query.soon_days is None else user_today(request, user)  # read only when it counts
    cache, mode = app[LIST_CACHE], gating(request)
    key = (user, mode, query, today if query.soon_days is not None else None, current_language())  # texts read
    found = units.look_prepared(app[DB], task_lists.my_task_items_since, mode, user_id=user, query=query,
                                today=today, now=now, known=cache.stamp_of(key))
    if found.page is None:  # the answer kept at this stamp (SPEC section 42: web/list_cache.py)
        return _json_body(cache.body(key))
    return _json_body(cache.answer(key, found.stamp, found.page, partial(render.item_page, ids=ids(request))))


def _json_body(body: bytes) -> web.Response:
    return web.Response(body=body, content_type="application/json", charset="utf-8")


async def my_groups(request: web.Request) -> web.Response:
    """GET /api/me/groups."""
    groups = units.look(request.app[DB], task_lists.list_my_groups, gating(request), user_id=request[USER])
    return ok(render.group_list(groups))


async def group_tasks(request: web.Request) -> web.Response:
    """GET /api/groups/{id}/tasks."""
    group_id = group_id_of(request)
    params = parse_query(request, m.GroupTasksParams)
    page = units.look(request.app[DB], task_lists.list_group_tasks, gating(request), user_id=request[USER],
                      group_id=group_id,
                      unassigned_first=params.unassigned_first, only_unassigned=params.only_unassigned,
                      limit=params.limit)
    return ok(render.task_page(page, ids(request)))


def _zone(request: web.Request) -> UserZone:
    return units.look(request.app[DB], zones.user_zone, user_id=request[USER], fallback=request.app[SETTINGS].zone)


def _language(request: web.Request) -> str:
    return units.look(request.app[DB], languages.user_language, user_id=request[USER],
                      default=request.app[SETTINGS].default_language)[0]


async def get_preferences(request: web.Request) -> web.Response:
    """GET /api/me/preferences."""
    saved = units.look(request.app[DB], prefs.get_preference, user_id=request[USER])
    return ok(render.preference(saved, _zone(request), _language(request)) | _chores(request))


def _chores(request: web.Request) -> dict[str, Any]:
    user = request[USER]
    return chores.chore_fields(request.app[DB], user_id=user, today=user_today(request, user))


async def set_preferences(request: web.Request) -> web.Response:
    """POST /api/me/preferences; an absent tz or lang keeps it, a null one goes back to the default."""
    body, sent = await parse_body(request, m.PreferencesBody)
    zone: Any = body.tz if "tz" in sent else svc.UNSET
    app, user = request.app, request[USER]
    checked = chores.checked_chores(body, sent, today=user_today(request, user))
    saved = await asyncio.to_thread(units.run, app[DB], prefs.set_preference, user_id=user, freq=body.freq,
                                    time=body.time, tz=zone, now=app[CLOCK].now())
    if "lang" in sent:
        await asyncio.to_thread(units.run, app[DB], languages.choose_language, user_id=user, lang=body.lang,
                                default=app[SETTINGS].default_language, now=app[CLOCK].now())
        app[LANGUAGE_CACHE].forget(user)
    await asyncio.to_thread(chores.save_chores, app[DB], user_id=user, checked=checked,
                            today=user_today(request, user), now=app[CLOCK].now())
    return ok(render.preference(saved, _zone(request), _language(request)) | _chores(request))


TaskChange = Callable[[Database, GatingMode, str, int, datetime], Task]


async def _change(request: web.Request, change: TaskChange) -> web.Response:
    task_id = task_id_of(request)
    app = request.app
    task = await asyncio.to_thread(change, app[DB], gating(request), request[USER], task_id, app[CLOCK].now())
    return ok(render.task_item(task, ids(request)))


async def claim(request: web.Request) -> web.Response:
    """POST /api/tasks/{id}/claim."""
    return await _change(request, lambda db, mode, user, task_id, now: units.run(
        db, svc.claim_task, mode, user_id=user, task_id=task_id, now=now))


async def unassign(request: web.Request) -> web.Response:
    """POST /api/tasks/{id}/unassign; when that completes a shared task (every part left was done), the check
    reaction goes on its origin message as for a completion."""
    task_id = task_id_of(request)
    app, now = request.app, request.app[CLOCK].now()
    task = await asyncio.to_thread(units.run, app[DB], svc.unassign_task, gating(request), user_id=request[USER],
                                   task_id=task_id, now=now)
    if task.completed:
        await react(request, Completion(task, newly_completed=True), now)
    return ok(render.task_item(task, ids(request)))


async def complete(request: web.Request) -> web.Response:
    """POST /api/tasks/{id}/complete; a new completion queues the check reaction on the origin message."""
    task_id = task_id_of(request)
    app, now, user = request.app, request.app[CLOCK].now(), request[USER]
    done = await asyncio.to_thread(units.run, app[DB], svc.complete_task, gating(request), user_id=user,
                                   task_id=task_id,
                                   now=now, today=user_today(request, user))
    await react(request, done, now)
    return ok(render.completed_item(done.task, done.next_task, ids(request)))


async def react(request: web.Request, done: Completion, now: datetime) -> None:
    policy = ReactionPolicy.from_settings(request.app[SETTINGS])
    try:
        await asyncio.to_thread(units.run, request.app[DB], react_to_completion, policy, done, now=now)
    except Exception:  # the completion is committed; a lost check mark must not turn it into an error
        log.exception("could not queue the completion reaction", extra={"task": done.task.id})


async def edit(request: web.Request) -> web.Response:
    """PATCH /api/tasks/{id}: absent keys stay as they are; a null due_date clears it, a null recurrence ends the
    series, a null nag stops it."""
    task_id = task_id_of(request)
    body, sent = await parse_body(request, m.TaskPatch)
    keys = ("due_date", "description", "recurrence", "points")
    changes: dict[str, Any] = {key: getattr(body, key) for key in keys if key in sent}
    if "completion" in sent:
        changes["completion"] = CompletionMode(str(body.completion))
    if "due_date" in changes:
        changes["due"] = changes.pop("due_date")
    if "nag" in sent:
        changes["nag"] = None if body.nag is None else body.nag.every_hours
    return ok(render.task_item(await _edited(request, task_id, changes), ids(request)))


async def _edited(request: web.Request, task_id: int, changes: dict[str, Any]) -> Task:
    """The edit use case; parts or nagging asked of a task that cannot take them (personal, or undated) are a valid
    value this task cannot take: 403, not 422 (SPEC 6 and 28: a request the document allows gets no 422 for the state
    of its task)."""
    try:
        return await asyncio.to_thread(partial(units.run, request.app[DB], svc.edit_task, gating(request),
                                               user_id=request[USER], task_id=task_id,
                                               zone=request.app[SETTINGS].zone, **changes))
    except InvalidCompletion as exc:
        raise _refused("completion", str(exc)) from exc
    except InvalidChoreSetting as exc:
        if exc.field not in NAG_STATE:
            raise
        raise _refused("nag", str(exc)) from exc


NAG_STATE = ("nag_group", "nag_due")  # the fields of nagging.start_nagging's refusals: the state of the task


def _refused(field: str, message: str) -> RequestProblem:
    """A 403 naming the field whose value this task cannot take."""
    return RequestProblem(403, "forbidden", f"{message.capitalize()}.", [{"field": field, "message": message}])


async def create(request: web.Request) -> web.Response:
    """POST /api/tasks: 201 with the task item; a group task is announced in its group (SPEC section 23)."""
    body, _ = await parse_body(request, cm.TaskCreate)
    app = request.app
    new = web_tasks.NewTask(body.description, body.due_date, body.group_id, tuple(body.assignees), body.points,
                            None if body.nag is None else body.nag.every_hours, tuple(body.items))
    announcing = web_tasks.Announcing(app[SETTINGS].rq_max_attempts, app[SETTINGS].default_language)
    key = await asyncio.to_thread(app[PUBLIC_IDS].key)
    task = await asyncio.to_thread(units.run, app[DB], web_tasks.create_from_web, gating(request),
                                   user_id=request[USER],
                                   new=new, now=app[CLOCK].now(), announcing=announcing, zone=app[SETTINGS].zone,
                                   key=key)
    return ok(render.task_item(task, ids(request)), status=201)


async def group_members(request: web.Request) -> web.Response:
    """GET /api/groups/{id}/members."""
    people = units.look(request.app[DB], task_lists.list_group_members, gating(request), user_id=request[USER],
                        group_id=group_id_of(request))
    return ok(render.member_list(people, ids(request)))
