"""Every failure becomes RFC 9457 problem details under /api, or an HTML error page elsewhere: one middleware.

Errors are raised as taskcore types (or ``RequestProblem`` for malformed requests) and translated only here.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from typing import Any

import pydantic
from aiohttp import web
from aiohttp.typedefs import Handler

from taskcore.errors import (
    Conflict,
    Forbidden,
    LimitReached,
    NotFound,
    PhotoRequired,
    RateLimited,
    TaskcoreError,
    Unauthorized,
    ValidationError,
)
from taskcore.i18n import speaking
from taskcore.services import is_schema_error, is_unavailable, unavailable_reason
from tasksvc_run.i18n import N_, _
from tasksvc_run.keys import FATAL, USER
from tasksvc_run.problems import problem
from tasksvc_run.web.language import request_language
from tasksvc_run.web.templating import render

log = logging.getLogger(__name__)

# status, kind, detail shown to the person (the pages display it)
_TRANSLATION: tuple[tuple[type[TaskcoreError], int, str, str], ...] = (
    (Unauthorized, 401, "unauthorized", N_("Necesitas iniciar sesión: escribe /t web en un chat con el bot.")),
    (Forbidden, 403, "forbidden", N_("No puedes hacer esto.")),
    (NotFound, 404, "not-found", N_("No existe o no la puedes ver.")),
    (PhotoRequired, 409, "photo-required", N_("Esta tarea se completa con una foto en el chat, que aprueba quien la "
                                              "creó o un administrador del grupo.")),
    (Conflict, 409, "conflict", N_("La tarea ya no está abierta.")),
)
_HTTP_DETAILS = {404: N_("Esta dirección no existe."), 405: N_("Método no permitido."),
                 413: N_("La petición es demasiado grande.")}
_HEADINGS = {401: N_("Necesitas entrar"), 403: N_("No tienes acceso"), 404: N_("No encontrado"),
             405: N_("Método no permitido"), 422: N_("Datos no válidos"), 429: N_("Demasiadas acciones"),
             503: N_("No disponible ahora")}
RETRY_AFTER_UNAVAILABLE = "30"
_PYDANTIC_MESSAGES = {
    "missing": N_("falta este campo"),
    "extra_forbidden": N_("campo no admitido"),
    "string_type": N_("debe ser texto"),
    "int_parsing": N_("debe ser un número entero"),
    "int_type": N_("debe ser un número entero"),
    "int_from_float": N_("debe ser un número entero"),
    "model_type": N_("debe ser un objeto JSON"),
    "dict_type": N_("debe ser un objeto JSON"),
    "list_type": N_("debe ser una lista"),
    "bool_type": N_("debe ser true o false"),
    "bool_parsing": N_("debe ser true o false"),
    "string_pattern_mismatch": N_("no tiene la forma esperada"),
    "too_long": N_("tiene demasiados elementos"),
    "string_too_long": N_("es demasiado largo"),
}
INVALID = N_("Hay datos no válidos.")


class RequestProblem(Exception):
    """A request the shell rejects before any use case runs (400, 415, 422). ``detail`` is a message id (marked
    with ``N_``) or a text already composed; it is translated when the answer is written, in the request's
    language (which a problem raised before the session is known could not know yet)."""

    def __init__(self, status: int, kind: str, detail: str, errors: Sequence[Mapping[str, str]] = (),
                 headers: Mapping[str, str] | None = None) -> None:
        super().__init__(detail)
        self.status, self.kind, self.detail, self.errors = status, kind, detail, list(errors)
        self.headers = dict(headers or {})


def invalid_fields(exc: pydantic.ValidationError) -> RequestProblem:
    """A 422 naming each rejected field, with a short message in the language in force."""
    errors = [{"field": ".".join(str(part) for part in error["loc"]) or "body", "message": _message(error)}
              for error in exc.errors(include_url=False)]
    return RequestProblem(422, "validation", INVALID, errors)


def _message(error: Any) -> str:
    kind, ctx = error["type"], error.get("ctx") or {}
    if kind in _PYDANTIC_MESSAGES:
        return _(_PYDANTIC_MESSAGES[kind])
    if kind == "value_error":
        return _(str(ctx.get("error", error["msg"])))
    if kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace(" or ", _(" o "))
        return _("valor no admitido; se espera {expected}", expected=expected)
    if kind in ("greater_than_equal", "less_than_equal"):
        limit = f"{'>=' if kind == 'greater_than_equal' else '<='} {ctx.get('ge', ctx.get('le'))}"
        return _("debe ser {limit}", limit=limit)
    return _("valor no válido")  # a kind no model here produces today: still a sentence in the person's language


def loggable_path(path: str) -> str:
    """The path as a log line may show it: a calendar feed's or a display's path is its secret token, cut off."""
    for secret in ("/cal/", "/pantalla/"):
        if path.startswith(secret):
            return f"{secret}…"
    return path


def is_api(request: web.Request) -> bool:
    """True for the JSON API, whose failures are problem details."""
    return request.path == "/api" or request.path.startswith("/api/")


def _from_taskcore(exc: TaskcoreError) -> RequestProblem:
    if isinstance(exc, ValidationError):
        errors = [{"field": exc.field, "message": str(exc)}] if exc.field else []
        return RequestProblem(422, "validation", str(exc) if not errors else INVALID, errors)
    if isinstance(exc, LimitReached):
        return RequestProblem(409, "limit-reached", str(exc).capitalize() + ".")
    if isinstance(exc, RateLimited):
        return RequestProblem(429, "rate-limited",
                              _("Demasiadas acciones seguidas; espera {seconds} s.", seconds=exc.retry_after))
    for kind_of, status, kind, detail in _TRANSLATION:
        if isinstance(exc, kind_of):
            return RequestProblem(status, kind, detail)
    raise exc


def _render(request: web.Request, found: RequestProblem, headers: Mapping[str, str] | None = None) -> web.Response:
    detail = _(found.detail)
    if is_api(request):
        return problem(found.status, detail, errors=found.errors, kind=found.kind, headers=headers)
    heading = _(_HEADINGS.get(found.status, N_("Algo ha fallado")))
    page = render(request, "error.html", status=found.status, heading=heading, detail=detail,
                  errors=found.errors, user=request.get(USER), section="error")
    page.headers.update(headers or {})
    return page


@web.middleware
async def problem_middleware(request: web.Request, handler: Handler) -> web.StreamResponse:
    """Translate taskcore errors, malformed requests and aiohttp's own 4xx, in the request's language; log and hide
    anything unexpected."""
    try:
        return await handler(request)
    except Exception as exc:
        with speaking(request_language(request)):
            return _failure(request, exc)


def _failure(request: web.Request, exc: Exception) -> web.Response:
    """The answer to a failure (an HTTPException below 400, a redirect, is raised again)."""
    if isinstance(exc, RequestProblem):
        return _render(request, exc, exc.headers)
    if isinstance(exc, RateLimited):
        return _render(request, _from_taskcore(exc), {"Retry-After": str(exc.retry_after)})
    if isinstance(exc, ValidationError | Unauthorized | Forbidden | NotFound | Conflict):
        return _render(request, _from_taskcore(exc))
    if isinstance(exc, web.HTTPException):
        if exc.status < 400:
            raise exc
        detail = _HTTP_DETAILS.get(exc.status, exc.reason)
        kept = {name: value for name, value in exc.headers.items() if name.lower() == "allow"}
        return _render(request, RequestProblem(exc.status, "http", detail), kept)
    return _unexpected(request, exc)


def _unexpected(request: web.Request, exc: Exception) -> web.Response:
    """503 when the database cannot do the work now (a full or read-only disk...), named in one log line; else a
    500 whose traceback goes to the log only."""
    where = {"path": loggable_path(request.path), "method": request.method}
    if is_schema_error(exc):
        request.app[FATAL](exc, where="web")
        return _render(request, RequestProblem(503, "storage-unavailable", N_("El servicio se está reiniciando.")))
    if is_unavailable(exc):
        log.error("database unavailable: %s", unavailable_reason(exc), extra=where)
        found = RequestProblem(503, "storage-unavailable",
                               N_("No se puede guardar ahora; inténtalo de nuevo en un rato."))
        return _render(request, found, {"Retry-After": RETRY_AFTER_UNAVAILABLE})
    log.error("unexpected error", exc_info=exc, extra=where)
    return _render(request, RequestProblem(500, "internal", N_("Algo ha fallado; inténtalo de nuevo.")))
