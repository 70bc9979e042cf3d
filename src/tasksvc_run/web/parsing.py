"""Reading requests: path ids, query strings and JSON bodies, rejected with 400, 415 or 422 (SPEC section 6)."""

from __future__ import annotations

import json
from typing import Any, TypeVar

import pydantic
from aiohttp import web

from taskcore.errors import Forbidden, NotFound
from taskcore.identity import normalize_group_id
from tasksvc_run.i18n import N_
from tasksvc_run.web.crosssite import declares_json
from tasksvc_run.web.errors import RequestProblem, invalid_fields

M = TypeVar("M", bound=pydantic.BaseModel)
JSON_TYPE = "application/json"
_MAX_ID = 2**63 - 1


def task_id_of(request: web.Request) -> int:
    """The {id} of a task path; anything that cannot be a task id is a task that does not exist."""
    raw = request.match_info["id"]
    if not (raw.isascii() and raw.isdigit()) or int(raw) > _MAX_ID:
        raise NotFound("no such task")
    return int(raw)


def group_id_of(request: web.Request) -> str:
    """The {id} of a group path (URL-encoded or not); a malformed id fails gating like an unknown group."""
    try:
        return normalize_group_id(request.match_info["id"])
    except ValueError as exc:
        raise Forbidden("the group is not available to this user") from exc


def parse_query(request: web.Request, model: type[M]) -> M:
    """The query string through ``model`` (first value of a repeated key); 422 naming each bad field."""
    values = {key: request.query.getone(key) for key in request.query}
    try:
        return model.model_validate(values)
    except pydantic.ValidationError as exc:
        raise invalid_fields(exc) from exc


def require_json_type(request: web.Request) -> None:
    """415 for a body that is not application/json (with SameSite=Lax, this keeps cross-site forms out)."""
    if request.body_exists and not declares_json(request):
        raise RequestProblem(415, "unsupported-media-type",
                             N_("El cuerpo debe ser JSON (Content-Type: application/json)."))


async def json_object(request: web.Request) -> dict[str, Any]:
    """The body as a JSON object: 415 for another media type, 400 when absent, malformed or not an object."""
    require_json_type(request)
    raw = await request.read()
    if not raw.strip():
        raise RequestProblem(400, "malformed-body", N_("Falta el cuerpo JSON."))
    try:
        body = json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise RequestProblem(400, "malformed-body", N_("El cuerpo no es JSON válido.")) from exc
    if not isinstance(body, dict):
        raise RequestProblem(400, "malformed-body", N_("El cuerpo debe ser un objeto JSON."))
    return body


async def parse_body(request: web.Request, model: type[M]) -> tuple[M, frozenset[str]]:
    """The JSON object through ``model``, with the keys that were sent; 422 naming each bad field."""
    body = await json_object(request)
    try:
        parsed = model.model_validate(body)
    except pydantic.ValidationError as exc:
        raise invalid_fields(exc) from exc
    return parsed, frozenset(parsed.model_fields_set)
