"""The JSON API (seed section 4, SPEC section 6): parse, call one use case, render. Writes run off the loop."""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Callable
from datetime import date, datetime
from functools import cache, partial
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import orjson
from aiohttp import web

from taskcore.access import GatingMode
from taskcore.completion import CompletionMode, InvalidCompletion
from taskcore.errors import InvalidChoreSetting
from taskcore.model import Completion, Task
from taskcore.reactions import ReactionPolicy
from taskcore.services import Database, languages, task_lists, web_tasks, zones
from taskcore.services import preferences as prefs
from taskcore.services import tasks as svc
from taskcore.services.reactions import react_to_completion
from taskcore.zones import UserZone
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, LANGUAGE_CACHE, PUBLIC_IDS, SETTINGS, USER
from tasksvc_run.web import access_models as am
from tasksvc_run.web import calendar, chores, me, proof, render, rewards, task_files, tokens
from tasksvc_run.web import creation_models as cm
from tasksvc_run.web import models as m
from tasksvc_run.web import problem_models as pm
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.me import ids
from tasksvc_run.web.openapi import ApiRoute, build_document
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
    page = units.look_prepared(app[DB], task_lists.list_my_task_items, gating(request), user_id=user, query=query,
                               today=today, now=now)
    return ok(render.item_page(page, ids(request)))


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
        await _react(request, Completion(task, newly_completed=True), now)
    return ok(render.task_item(task, ids(request)))


async def complete(request: web.Request) -> web.Response:
    """POST /api/tasks/{id}/complete; a new completion queues the check reaction on the origin message."""
    task_id = task_id_of(request)
    app, now, user = request.app, request.app[CLOCK].now(), request[USER]
    done = await asyncio.to_thread(units.run, app[DB], svc.complete_task, gating(request), user_id=user,
                                   task_id=task_id,
                                   now=now, today=user_today(request, user))
    await _react(request, done, now)
    return ok(render.completed_item(done.task, done.next_task, ids(request)))


async def _react(request: web.Request, done: Completion, now: datetime) -> None:
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
                            None if body.nag is None else body.nag.every_hours)
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


async def openapi(request: web.Request) -> web.Response:
    """GET /api/openapi.json."""
    return ok(document())


def _package_version() -> str:
    try:
        return version("tasksvc")
    except PackageNotFoundError:  # pragma: no cover - running from a tree that was never installed
        return "0"


_TASK_ID = {"id": {"type": "integer", "minimum": 1}}
_GROUP_ID = {"id": {"type": "string", "pattern": r"^[0-9]+(-[0-9]+)?@g\.us$"}}
_TASK_ERRORS = (404, 409, 403, 415, 429)
ROUTES: tuple[ApiRoute, ...] = (
    ApiRoute("GET", "/api/me/tasks", my_tasks, "listMyTasks", "My open or recently completed tasks",
             m.TaskList, query=m.MyTasksParams, errors=(422,)),
    ApiRoute("GET", "/api/me/groups", my_groups, "listMyGroups", "My groups with counts", m.GroupList),
    ApiRoute("GET", "/api/groups/{id}/tasks", group_tasks, "listGroupTasks", "A group's open tasks",
             m.TaskList, query=m.GroupTasksParams, path_schemas=_GROUP_ID, errors=(403, 422)),
    ApiRoute("GET", "/api/me/preferences", get_preferences, "getPreferences", "My reminder preference and language",
             m.PreferencesOut),
    ApiRoute("POST", "/api/me/preferences", set_preferences, "setPreferences",
             "Save my reminder preference and language", m.PreferencesOut, body=m.PreferencesBody,
             errors=(400, 415, 422, 429)),
    ApiRoute("POST", "/api/tasks/{id}/claim", claim, "claimTask", "Become an assignee", m.TaskItem,
             path_schemas=_TASK_ID, errors=_TASK_ERRORS),
    ApiRoute("POST", "/api/tasks/{id}/unassign", unassign, "unassignTask", "Stop being an assignee", m.TaskItem,
             path_schemas=_TASK_ID, errors=_TASK_ERRORS),
    ApiRoute("POST", "/api/tasks/{id}/complete", complete, "completeTask",
             "Complete a task (a recurring one: and create its next occurrence)", m.CompletedTask,
             path_schemas=_TASK_ID, errors=_TASK_ERRORS),
    ApiRoute("PATCH", "/api/tasks/{id}", edit, "editTask",
             "Change the due date, description, completion mode, points or nagging, or end the series "
             "(recurrence: null)",
             m.TaskItem, body=m.TaskPatch, path_schemas=_TASK_ID, errors=(*_TASK_ERRORS, 400, 422)),
    ApiRoute("GET", "/api/openapi.json", openapi, "getOpenApi", "This document", pm.OpenApiDocument),
    # Calendars and API tokens (SPEC section 22).
    ApiRoute("POST", "/api/me/calendar", calendar.create_calendar, "createCalendar",
             "Make my calendar feed's address, or a new one (the old one stops working)", am.CalendarOut,
             errors=(415, 429), status=201),
    ApiRoute("DELETE", "/api/me/calendar", calendar.delete_calendar, "deleteCalendar",
             "Revoke my calendar feed (its address answers 404)", None, errors=(415, 429), status=204),
    ApiRoute("POST", "/api/me/tokens", tokens.create_token, "createToken", "Create a personal API token (shown once)",
             am.TokenCreated, body=am.TokenBody, errors=(409, 415, 422, 429), status=201),
    ApiRoute("GET", "/api/me/tokens", tokens.list_tokens, "listTokens", "My API tokens (never the secret)",
             am.TokenList),
    ApiRoute("DELETE", "/api/me/tokens/{id}", tokens.delete_token, "deleteToken", "Revoke one of my API tokens",
             None, path_schemas=_TASK_ID, errors=(404, 415, 429), status=204),
    # Creating from the web (SPEC section 23).
    ApiRoute("POST", "/api/tasks", create, "createTask",
             "Create a personal task, or a task of one of my groups (announced there by the bot)", m.TaskItem,
             body=cm.TaskCreate, errors=(403, 415, 422, 429), status=201),
    ApiRoute("GET", "/api/groups/{id}/members", group_members, "listGroupMembers",
             "A group's active members, by public id (never the bot)", cm.MemberList, path_schemas=_GROUP_ID,
             errors=(403,)),
    *me.ME_ROUTES, *proof.PROOF_ROUTES, *rewards.REWARD_ROUTES,  # SPEC section 34
    *task_files.FILE_ROUTES,  # CSV export and import (SPEC section 35)
)


@cache
def document() -> dict[str, Any]:
    """The OpenAPI document of ROUTES, built once."""
    return build_document(ROUTES, version=_package_version())


def add_api_routes(app: web.Application) -> None:
    """Register exactly the operations of ROUTES; a path parameter takes any characters but "/"."""
    for route in ROUTES:
        path = re.sub(r"\{(\w+)\}", r"{\1:[^/]+}", route.path)  # aiohttp's default refuses "{" and "}"
        app.router.add_route(route.method, path, route.handler, name=route.operation_id)
