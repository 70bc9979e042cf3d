"""The OpenAPI 3.1 document, generated from the API's route table and its pydantic models.

The app registers exactly the routes of that table, so the document cannot list a path the app lacks or miss one
it has; a test checks both directions against the live router anyway.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import JsonSchemaMode, models_json_schema

from tasksvc_run.web.problem_models import Problem

Handler = Callable[..., Awaitable[Any]]
REF = "#/components/schemas/{model}"
# The session cookie of the pages, or a personal API token (SPEC section 22).
SECURITY_SCHEMES = {
    "session": {"type": "apiKey", "in": "cookie", "name": "tasksvc_session"},
    "bearer": {"type": "http", "scheme": "bearer", "description": "A personal API token (tsk_...) created on the "
               "Tokens page; a request must not carry the session cookie as well (400)."},
}
_ATTACHMENT = {"Content-Disposition": {"description": "attachment, with the file's name.",
                                       "schema": {"type": "string"}}}
_PATH_PARAM = re.compile(r"\{(\w+)\}")
WRITES = frozenset({"POST", "PATCH", "PUT", "DELETE"})
# SPEC 16: a write under /api that the session cookie authenticates declares JSON, with a body or without one (415
# otherwise); one a bearer token authenticates need not. A write with a body declares it through its requestBody
# either way; for one without, the declaration is part of what the session needs, so it is a scheme of its own.
JSON_WRITE_SCHEME = {"type": "apiKey", "in": "header", "name": "Content-Type",
                     "description": "Not a secret: with the session cookie, a write without a body still sends "
                                    "`Content-Type: application/json` (415 otherwise); a bearer token needs no such "
                                    "header."}
BODYLESS_WRITE_SECURITY: list[dict[str, list[str]]] = [{"session": [], "jsonWrite": []}, {"bearer": []}]
_RETRY_AFTER = {"Retry-After": {"description": "Seconds until the bucket holds a token again.",
                                "schema": {"type": "integer", "minimum": 1}}}


@dataclass(frozen=True)
class ApiRoute:
    """One API operation: how the app serves it and how the document describes it."""

    method: str
    path: str
    handler: Handler
    operation_id: str
    summary: str
    response: type[BaseModel] | None  # None: an empty answer (204)
    query: type[BaseModel] | None = None
    body: type[BaseModel] | None = None
    path_schemas: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)
    errors: tuple[int, ...] = ()
    status: int = 200
    media: str = "application/json"  # the answer's media type; another one (text/csv, an image) is a string of it
    body_media: str | None = None  # a body that is not JSON (text/csv): a string of that type
    also: tuple[tuple[int, type[BaseModel]], ...] = ()  # other successful answers (a dry run's 200)


def _components(routes: Iterable[ApiRoute]) -> dict[str, Any]:
    models: dict[type[BaseModel], JsonSchemaMode] = {Problem: "serialization"}
    for route in routes:
        if route.response is not None:
            models[route.response] = "serialization"
        if route.body is not None:
            models[route.body] = "validation"
        models.update({model: "serialization" for _status, model in route.also})
    _, top = models_json_schema(list(models.items()), ref_template=REF)
    return dict(top.get("$defs", {}))


def _parameters(route: ApiRoute) -> list[dict[str, Any]]:
    params = [{"name": name, "in": "path", "required": True, "schema": dict(route.path_schemas.get(name, {}))}
              for name in _PATH_PARAM.findall(route.path)]
    if route.query is not None:
        schema = route.query.model_json_schema(ref_template=REF, mode="validation")
        required = set(schema.get("required", ()))
        for name, prop in schema["properties"].items():
            kept = {key: value for key, value in prop.items() if key not in ("title", "description")}
            param = {"name": name, "in": "query", "required": name in required, "schema": kept}
            params.append(param | ({"description": prop["description"]} if "description" in prop else {}))
    return params


def _success(status: int, model: type[BaseModel] | None, media: str) -> dict[str, Any]:
    ok: dict[str, Any] = {"description": HTTPStatus(status).phrase}
    if model is not None:
        ok["content"] = {media: {"schema": {"$ref": REF.format(model=model.__name__)}}}
    elif media.startswith("image/"):  # a task's photo (SPEC section 34), shown in the page
        ok["content"] = {media: {"schema": {"type": "string", "contentMediaType": media}}}
    elif media != "application/json":  # a file to keep (text/csv)
        ok["content"] = {media: {"schema": {"type": "string"}}}
        ok["headers"] = _ATTACHMENT
    return ok


def _responses(route: ApiRoute) -> dict[str, Any]:
    responses: dict[str, Any] = {str(route.status): _success(route.status, route.response, route.media)}
    responses.update({str(status): _success(status, model, "application/json") for status, model in route.also})
    # 400: a session cookie and a bearer token in one request; 503: the database refuses writes (full or read-only disk)
    for status in sorted({400, 401, 503, *route.errors}):
        entry: dict[str, Any] = {"description": HTTPStatus(status).phrase, "content": {
            "application/problem+json": {"schema": {"$ref": REF.format(model="Problem")}}}}
        if status in (429, 503):
            entry["headers"] = _RETRY_AFTER
        responses[str(status)] = entry
    return responses


def _operation(route: ApiRoute) -> dict[str, Any]:
    operation: dict[str, Any] = {"operationId": route.operation_id, "summary": route.summary,
                                 "parameters": _parameters(route), "responses": _responses(route)}
    if route.body is not None:
        schema = {"$ref": REF.format(model=route.body.__name__)}
        operation["requestBody"] = {"required": True, "content": {"application/json": {"schema": schema}}}
    elif route.body_media is not None:
        operation["requestBody"] = {"required": True, "content": {route.body_media: {"schema": {"type": "string"}}}}
    elif route.method in WRITES:
        operation["security"] = BODYLESS_WRITE_SECURITY
    return operation


def build_document(routes: Iterable[ApiRoute], *, version: str) -> dict[str, Any]:
    """The whole API as an OpenAPI 3.1 document."""
    routes = list(routes)
    paths: dict[str, dict[str, Any]] = {}
    for route in routes:
        paths.setdefault(route.path, {})[route.method.lower()] = _operation(route)
    return {
        "openapi": "3.1.0",
        "info": {"title": "tasksvc web API", "version": version,
                 "description": "Tasks, groups and reminder preferences of the signed-in user. Errors are RFC 9457 "
                                "problem details. Writes (POST, PATCH, DELETE) are rate limited per user. "
                                "Authenticate with the session cookie or with `Authorization: Bearer <token>`."},
        "paths": paths,
        "components": {"schemas": _components(routes),
                       "securitySchemes": {**SECURITY_SCHEMES, "jsonWrite": JSON_WRITE_SCHEME}},
        "security": [{"session": []}, {"bearer": []}],  # either one; both in one request is a 400
    }
