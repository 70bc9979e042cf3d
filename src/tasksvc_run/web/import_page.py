"""The group's import page (SPEC section 35): choose a CSV file, see what it would create and its errors, confirm.

A plain HTML form, no script needed. The file goes up as multipart/form-data, read here with the import's own size
cap (the app's cap is for JSON bodies); the preview page carries the file's text in a hidden field of its confirm
form, so confirming creates exactly what was previewed without choosing the file again. Both forms carry the page
forms' token and are refused from another site, as the task form is (``task_form``); each post takes a write from
the person's rate-limit bucket."""

from __future__ import annotations

import hmac
from typing import Any
from urllib.parse import quote

from aiohttp import BodyPartReader, web

from taskcore.csvfiles.reading import MAX_BYTES
from taskcore.errors import Forbidden, RateLimited, ValidationError
from taskcore.services import task_lists
from tasksvc_run import units
from tasksvc_run.i18n import _
from tasksvc_run.keys import CLOCK, DB, LIMITER, USER
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.parsing import group_id_of
from tasksvc_run.web.task_files import gating, run_import, too_big
from tasksvc_run.web.task_form import STALE_FORM, form_token, same_origin
from tasksvc_run.web.templating import render

_FIELD_LIMIT = 256  # bytes of a field that is not the file (the token, the step)


def _signed_in(request: web.Request) -> str:
    user: str | None = request.get(USER)
    if user is None:
        raise web.HTTPSeeOther("/")
    return user


def _page(request: web.Request, user: str, group_id: str, *, status: int = 200, **context: Any) -> web.Response:
    mine = units.look(request.app[DB], task_lists.list_my_groups, gating(request), user_id=user)
    group = next((item for item in mine if item.id == group_id), None)
    if group is None:
        raise Forbidden("the group is not available to this user")
    values = {"preview": None, "refusal": "", "csv": "", **context}
    return render(request, "import.html", status=status, user=user, section="grupos", group=group,
                  form_check=form_token(request), **values)


async def import_page(request: web.Request) -> web.Response:
    """GET /grupos/{id}/importar: the form to choose a file."""
    return _page(request, _signed_in(request), group_id_of(request))


async def _fields(request: web.Request) -> dict[str, bytes]:
    """The multipart form's fields (the file's bytes under ``file``), each read up to its cap (413 beyond)."""
    found: dict[str, bytes] = {}
    try:
        reader = await request.multipart()
    except (AssertionError, ValueError, KeyError):  # not multipart: like an empty form
        return found
    while (part := await reader.next()) is not None:
        if not isinstance(part, BodyPartReader) or part.name is None:
            continue
        limit = MAX_BYTES if part.name in ("file", "csv") else _FIELD_LIMIT
        data = bytearray()
        while chunk := await part.read_chunk():
            data += chunk
            if len(data) > limit:
                raise too_big(limit)
        found[part.name] = bytes(data)
    return found


async def post_import(request: web.Request) -> web.Response:
    """POST /grupos/{id}/importar: ``step=preview`` shows the file's lines and errors; ``step=confirm`` creates them
    and goes back to the group's page (303)."""
    user = _signed_in(request)
    group_id = group_id_of(request)
    decision = request.app[LIMITER].check(user, request.app[CLOCK].monotonic())
    if not decision.allowed:
        raise RateLimited(decision.retry_after)
    fields = await _fields(request)
    token = fields.get("form_check", b"").decode("utf-8", "replace")
    if not hmac.compare_digest(token, form_token(request)) or not same_origin(request):
        raise RequestProblem(403, "forbidden", STALE_FORM)
    confirming = fields.get("step") == b"confirm"
    raw = fields.get("csv" if confirming else "file", b"")
    try:
        answer = await run_import(request, group_id, raw, dry_run=not confirming)
    except RequestProblem as problem:
        return _refused(request, user, group_id, problem)
    except ValidationError as exc:
        return _page(request, user, group_id, status=422, refusal=_sentence(str(exc)))
    if confirming:
        raise web.HTTPSeeOther(f"/grupos/{quote(group_id, safe='@')}")
    text = raw.decode("utf-8-sig")
    return _page(request, user, group_id, preview=answer, csv=text)


def _refused(request: web.Request, user: str, group_id: str, problem: RequestProblem) -> web.Response:
    if problem.status == 422 and problem.errors:  # no valid line: the lines and why
        errors = [{"line": error["field"].removeprefix("line "), "message": error["message"]}
                  for error in problem.errors]
        return _page(request, user, group_id, status=422, refusal=_(problem.detail),
                     preview={"rows": [], "errors": errors})
    return _page(request, user, group_id, status=problem.status, refusal=_(problem.detail))


def _sentence(message: str) -> str:
    return message[:1].upper() + message[1:].rstrip(".") + "."


def add_import_routes(app: web.Application) -> None:
    """The import page."""
    app.router.add_get("/grupos/{id}/importar", import_page)
    app.router.add_post("/grupos/{id}/importar", post_import)
