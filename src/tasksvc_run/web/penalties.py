"""Missed chores on the web (SPEC section 41): what ``/api/me/approvals`` and the "Aprobaciones" page show of them,
and applying or excusing one from the API or the page's forms (a group admin). The person is told in the group by
the bot, queued with the decision, as when it is decided in the chat."""

from __future__ import annotations

import asyncio
from datetime import date, datetime
from typing import Any, Literal

from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from taskcore.chores import missed_texts as texts
from taskcore.chores.missed import MAX_REASON, Missed
from taskcore.errors import NotFound
from taskcore.services import penalties
from taskcore.shown import shown_name
from tasksvc_run import units
from tasksvc_run.i18n import N_
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web.api import gating, ok
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.me import ids
from tasksvc_run.web.models import PUBLIC_ID
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import parse_body

_MAX_ID = 2**63 - 1
GONE = N_("Esa tarea no hecha ya no existe o no es de tus grupos.")
ONLY_ADMINS = N_("Solo un administrador del grupo (de WhatsApp) puede aplicar o excusar una tarea no hecha.")


class Someone(BaseModel):
    """A person by public id and name."""

    id: str = PUBLIC_ID
    name: str


class GroupRef(BaseModel):
    """A group by id and name."""

    id: str
    name: str | None


class MissedItem(BaseModel):
    """One person's missed occurrence of a recurring chore, at the penalty it had when it was found."""

    id: int = Field(ge=1, description="The missed chore's own number (/t aplicar <id>), not the task's.")
    task_id: int = Field(ge=1)
    description: str
    due_date: date
    group: GroupRef
    person: Someone
    points: int = Field(ge=1)
    state: Literal["waiting", "applied", "excused"]
    found_at: datetime
    reason: str | None


class ExcuseBody(BaseModel):
    """Body of an excuse: an optional reason, told to the person in the group."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str | None = Field(default=None, max_length=MAX_REASON)


def missed_item(missed: Missed, public: Any) -> dict[str, Any]:
    """One missed chore as the API shows it."""
    return {"id": missed.id, "task_id": missed.task_id, "description": missed.description,
            "due_date": missed.due_date.isoformat(), "group": {"id": missed.group_id, "name": missed.group_name},
            "person": {"id": public(missed.user_id), "name": shown_name(missed.user_name)}, "points": missed.points,
            "state": missed.state.value, "found_at": missed.found_at.isoformat().replace("+00:00", "Z"),
            "reason": missed.reason}


def _number(request: web.Request) -> int:
    raw = request.match_info["id"]
    if not (raw.isascii() and raw.isdigit()) or not 0 < int(raw) <= _MAX_ID:
        raise NotFound("no such missed chore")
    return int(raw)


async def decide(request: web.Request, *, apply: bool, reason: str | None = None) -> Missed:
    """Apply or excuse missed chore {id} as the signed-in person (the page's forms call this too)."""
    app, settings = request.app, request.app[SETTINGS]
    try:
        return await asyncio.to_thread(
            units.run, app[DB], penalties.decide_and_tell, gating(request), user_id=request[USER],
            missed_id=_number(request), apply=apply, reason=reason, now=app[CLOCK].now(),
            max_attempts=settings.rq_max_attempts, default_language=settings.default_language)
    except penalties.AlreadyDecided as exc:
        raise RequestProblem(409, "conflict", texts.already_decided(exc.missed),
                             [{"field": "state", "message": exc.missed.state.value}]) from exc


async def apply_missed(request: web.Request) -> web.Response:
    """POST /api/missed-chores/{id}/apply."""
    return ok(missed_item(await decide(request, apply=True), ids(request)))


async def excuse_missed(request: web.Request) -> web.Response:
    """POST /api/missed-chores/{id}/excuse with {"reason": ...} (optional)."""
    body, _ = await parse_body(request, ExcuseBody)
    return ok(missed_item(await decide(request, apply=False, reason=body.reason), ids(request)))


async def _page_decision(request: web.Request, *, apply: bool) -> web.Response:
    """POST /aprobaciones/faltas/{id}/aplicar|excusar: 303 back to the page, or the page with why not."""
    from tasksvc_run.web.reward_pages import decided_on_page, reason_in  # noqa: PLC0415 - the page imports this

    return await decided_on_page(
        request, lambda sent: decide(request, apply=apply, reason=None if apply else reason_in(sent)),
        gone=GONE, only_admins=ONLY_ADMINS)


async def apply_on_page(request: web.Request) -> web.Response:
    """POST /aprobaciones/faltas/{id}/aplicar."""
    return await _page_decision(request, apply=True)


async def excuse_on_page(request: web.Request) -> web.Response:
    """POST /aprobaciones/faltas/{id}/excusar (with an optional reason)."""
    return await _page_decision(request, apply=False)


def add_penalty_pages(app: web.Application) -> None:
    """The approvals page's forms for missed chores."""
    app.router.add_post("/aprobaciones/faltas/{id}/aplicar", apply_on_page)
    app.router.add_post("/aprobaciones/faltas/{id}/excusar", excuse_on_page)


_ID = {"id": {"type": "integer", "minimum": 1}}
PENALTY_ROUTES = (
    ApiRoute("POST", "/api/missed-chores/{id}/apply", apply_missed, "applyMissedChore",
             "Apply a missed chore's penalty (a group admin): its points are deducted from the person's balance; "
             "the person is told in the group", MissedItem, path_schemas=_ID, errors=(403, 404, 409, 415, 429)),
    ApiRoute("POST", "/api/missed-chores/{id}/excuse", excuse_missed, "excuseMissedChore",
             "Excuse a missed chore (a group admin), with an optional reason; the person is told in the group",
             MissedItem, body=ExcuseBody, path_schemas=_ID, errors=(400, 403, 404, 409, 415, 422, 429)),
)
