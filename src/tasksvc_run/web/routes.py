"""The JSON API's operations (seed section 4, SPEC sections 6 and 22-35): each route's method, path, handler, name
and schemas in one table, the OpenAPI document made from it, and the router registering exactly those operations."""

from __future__ import annotations

import re
from functools import cache
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from aiohttp import web

from tasksvc_run.web import access_models as am
from tasksvc_run.web import answer_models as out
from tasksvc_run.web import calendar, checklists, display, me, penalties, proof, rewards, task_files, tokens
from tasksvc_run.web import creation_models as cm
from tasksvc_run.web import models as m
from tasksvc_run.web import problem_models as pm
from tasksvc_run.web.api import (
    claim,
    complete,
    create,
    edit,
    get_preferences,
    group_members,
    group_tasks,
    my_groups,
    my_tasks,
    ok,
    set_preferences,
    unassign,
)
from tasksvc_run.web.openapi import ApiRoute, build_document


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
             out.TaskList, query=m.MyTasksParams, errors=(422,)),
    ApiRoute("GET", "/api/me/groups", my_groups, "listMyGroups", "My groups with counts", out.GroupList),
    ApiRoute("GET", "/api/groups/{id}/tasks", group_tasks, "listGroupTasks", "A group's open tasks",
             out.TaskList, query=m.GroupTasksParams, path_schemas=_GROUP_ID, errors=(403, 422)),
    ApiRoute("GET", "/api/me/preferences", get_preferences, "getPreferences", "My reminder preference and language",
             out.PreferencesOut),
    ApiRoute("POST", "/api/me/preferences", set_preferences, "setPreferences",
             "Save my reminder preference and language", out.PreferencesOut, body=m.PreferencesBody,
             errors=(400, 415, 422, 429)),
    ApiRoute("POST", "/api/tasks/{id}/claim", claim, "claimTask", "Become an assignee", out.TaskItem,
             path_schemas=_TASK_ID, errors=_TASK_ERRORS),
    ApiRoute("POST", "/api/tasks/{id}/unassign", unassign, "unassignTask", "Stop being an assignee", out.TaskItem,
             path_schemas=_TASK_ID, errors=_TASK_ERRORS),
    ApiRoute("POST", "/api/tasks/{id}/complete", complete, "completeTask",
             "Complete a task (a recurring one: and create its next occurrence)", out.CompletedTask,
             path_schemas=_TASK_ID, errors=_TASK_ERRORS),
    ApiRoute("PATCH", "/api/tasks/{id}", edit, "editTask",
             "Change the due date, description, completion mode, points or nagging, or end the series "
             "(recurrence: null)",
             out.TaskItem, body=m.TaskPatch, path_schemas=_TASK_ID, errors=(*_TASK_ERRORS, 400, 422)),
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
             "Create a personal task, or a task of one of my groups (announced there by the bot)", out.TaskItem,
             body=cm.TaskCreate, errors=(403, 415, 422, 429), status=201),
    ApiRoute("GET", "/api/groups/{id}/members", group_members, "listGroupMembers",
             "A group's active members, by public id (never the bot)", cm.MemberList, path_schemas=_GROUP_ID,
             errors=(403,)),
    *me.ME_ROUTES, *proof.PROOF_ROUTES, *rewards.REWARD_ROUTES,  # SPEC section 34
    *penalties.PENALTY_ROUTES, *display.DISPLAY_ROUTES,  # SPEC section 41
    *task_files.FILE_ROUTES,  # CSV export and import (SPEC section 35)
    *checklists.CHECKLIST_ROUTES,  # a checklist's item ticked (SPEC section 41)
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
