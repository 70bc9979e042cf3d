"""Chores in and out (SPEC section 35): GET /api/me/tasks.csv, GET /api/groups/{id}/tasks.csv and
POST /api/groups/{id}/tasks/import; parse, call one use case, render."""

from __future__ import annotations

import asyncio
from datetime import date
from typing import Any, Literal

import orjson
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from taskcore.access import GatingMode
from taskcore.csvfiles.dates import date_warning, order_note
from taskcore.csvfiles.reading import MAX_BYTES, Row, Sheet, TooManyLines, UnreadableFile
from taskcore.csvfiles.writing import MEDIA_TYPE
from taskcore.i18n import month_first
from taskcore.recurrence import rule_text
from taskcore.services import task_export, task_import, zones
from taskcore.services.web_tasks import Announcing
from tasksvc_run import units
from tasksvc_run.i18n import N_, _
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web.crosssite import media_type
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.models import QueryBool
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import group_id_of, parse_query

TOO_BIG = N_("El archivo es demasiado grande: caben {limit} KiB como mucho.")
NOT_CSV = N_("El cuerpo debe ser un archivo CSV (Content-Type: text/csv).")
NOTHING_VALID = N_("Ninguna línea del archivo se puede importar.")
_READ_CHUNK = 64 * 1024


class ImportParams(BaseModel):
    """Query of POST /api/groups/{id}/tasks/import."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    dry_run: QueryBool = Field(False, description="true: only preview the lines and their errors (true, false, 1 or "
                                                  "0).")


class ExportParams(BaseModel):
    """Query of the CSV exports."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    sep: Literal["comma", "semicolon"] = Field("comma", description="semicolon: cells separated by ';' and a first "
                                                                    "line 'sep=;', for spreadsheets set to a comma "
                                                                    "decimal.")


class ImportLine(BaseModel):
    """A line that makes a task: its description, date and assignees by name."""

    line: int = Field(description="The file's line it starts on (the header is line 1).")
    description: str
    due_date: str | None = Field(description="YYYY-MM-DD.")
    assignees: list[str] = Field(description="Members' names, never numbers.")
    recurrence: str | None = Field(description="The rule in words of the reader's language.")
    points: int
    warning: str | None = Field(None, description="A date before today or more than a year ahead, flagged in the "
                                                  "reader's language (the line is still imported).")
    items: list[str] = Field(default_factory=list, description="Its checklist (SPEC section 41), in order.")


class ImportLineError(BaseModel):
    """A line that makes no task, and why, in the reader's language."""

    line: int
    message: str


class ImportPreview(BaseModel):
    """A dry run: what the file would create, and its errors; nothing is created."""

    rows: list[ImportLine]
    errors: list[ImportLineError]
    date_order: Literal["day_first", "month_first"] = Field(
        description="How dates like 12/01/2026 were read: as the file tells, else as the uploader's language writes "
                    "them (month first for English of the United States).")
    notes: list[str] = Field(description="Sentences for the reader about how the file was read (which order a date "
                                         "that reads both ways took).")


class CreatedLine(BaseModel):
    """A line created, and its task's id."""

    line: int
    id: int


class ImportCreated(BaseModel):
    """The lines created (in one go, announced in the group as one message), and those that were not."""

    created: list[CreatedLine]
    errors: list[ImportLineError]


def gating(request: web.Request) -> GatingMode:
    return GatingMode(request.app[SETTINGS].group_gating_mode)


def _today(request: web.Request) -> date:
    app = request.app
    return units.look(app[DB], zones.user_today, user_id=request[USER], fallback=app[SETTINGS].zone,
                      now=app[CLOCK].now())


def csv_file(body: bytes, name: str) -> web.Response:
    """200 with a CSV file the browser saves as ``name``."""
    return web.Response(body=body, content_type=MEDIA_TYPE, charset="utf-8",
                        headers={"Content-Disposition": f'attachment; filename="{name}"'})


async def my_tasks_csv(request: web.Request) -> web.Response:
    """GET /api/me/tasks.csv."""
    params = parse_query(request, ExportParams)
    body = await asyncio.to_thread(units.look, request.app[DB], task_export.my_csv, gating(request),
                                   user_id=request[USER], fallback=request.app[SETTINGS].zone,
                                   semicolon=params.sep == "semicolon")
    return csv_file(body, task_export.file_name(_today(request), group=False))


async def group_tasks_csv(request: web.Request) -> web.Response:
    """GET /api/groups/{id}/tasks.csv."""
    group_id = group_id_of(request)
    params = parse_query(request, ExportParams)
    body = await asyncio.to_thread(units.look, request.app[DB], task_export.group_csv, gating(request),
                                   user_id=request[USER], group_id=group_id, fallback=request.app[SETTINGS].zone,
                                   semicolon=params.sep == "semicolon")
    return csv_file(body, task_export.file_name(_today(request), group=True))


async def read_capped(request: web.Request, limit: int = MAX_BYTES) -> bytes:
    """The body, read from the stream; 413 once it passes ``limit`` bytes (the app's 64 KiB cap is for JSON)."""
    if (request.content_length or 0) > limit:
        raise too_big(limit)
    chunks: list[bytes] = []
    size = 0
    while chunk := await request.content.read(_READ_CHUNK):
        size += len(chunk)
        if size > limit:
            raise too_big(limit)
        chunks.append(chunk)
    return b"".join(chunks)


def too_big(limit: int) -> RequestProblem:
    detail = _(TOO_BIG, limit=limit // 1024)
    return RequestProblem(413, "too-large", detail, [{"field": "body", "message": detail}])


def refusal(exc: UnreadableFile | TooManyLines) -> RequestProblem:
    """The problem of a file refused whole: 400 when it cannot be read, 413 when it has too many lines."""
    status, kind = (400, "malformed-body") if isinstance(exc, UnreadableFile) else (413, "too-large")
    message = str(exc)
    return RequestProblem(status, kind, message[:1].upper() + message[1:] + ".", [{"field": "body",
                                                                                  "message": message}])


def preview_body(sheet: Sheet, today: date) -> dict[str, Any]:
    """A dry run's answer (``today``: the uploader's, for the dates that look wrong)."""
    note = order_note(sheet.dates)
    return {"rows": [{"line": row.line, "description": row.description,
                      "due_date": row.due.isoformat() if row.due else None, "assignees": list(row.names),
                      "recurrence": _rule(row), "points": row.points, "warning": date_warning(row.due, today),
                      "items": list(row.items)}
                     for row in sheet.rows],
            "errors": [{"line": error.line, "message": error.message} for error in sheet.errors],
            "date_order": sheet.dates.order.value, "notes": [note] if note else []}


def _rule(row: Row) -> str | None:
    return None if row.recurrence is None else rule_text(row.recurrence)


async def run_import(request: web.Request, group_id: str, raw: bytes, *, dry_run: bool) -> dict[str, Any]:
    """The import's use case on ``raw``: a dry run's preview, or what was created (RequestProblem for a refusal)."""
    app, user = request.app, request[USER]
    try:
        if dry_run:
            sheet = await asyncio.to_thread(units.look, app[DB], task_import.preview_import, gating(request),
                                            user_id=user, group_id=group_id, raw=raw, month_first=month_first())
            return preview_body(sheet, _today(request))
        announcing = Announcing(app[SETTINGS].rq_max_attempts, app[SETTINGS].default_language)
        done = await asyncio.to_thread(units.run, app[DB], task_import.import_tasks, gating(request), user_id=user,
                                       group_id=group_id, raw=raw, now=app[CLOCK].now(), today=_today(request),
                                       announcing=announcing, month_first=month_first())
    except (UnreadableFile, TooManyLines) as exc:
        raise refusal(exc) from exc
    errors = [{"line": error.line, "message": error.message} for error in done.errors]
    if not done.created:
        raise RequestProblem(422, "validation", NOTHING_VALID,
                             [{"field": f"line {e['line']}", "message": str(e["message"])} for e in errors])
    return {"created": [{"line": line, "id": task} for line, task in done.created], "errors": errors}


async def import_file(request: web.Request) -> web.Response:
    """POST /api/groups/{id}/tasks/import: a text/csv body; 200 with the preview on a dry run, else 201."""
    group_id = group_id_of(request)
    params = parse_query(request, ImportParams)
    if media_type(request) != MEDIA_TYPE:
        raise RequestProblem(415, "unsupported-media-type", NOT_CSV)
    answer = await run_import(request, group_id, await read_capped(request), dry_run=params.dry_run)
    return web.Response(status=200 if params.dry_run else 201, body=orjson.dumps(answer),
                        content_type="application/json", charset="utf-8")


_GROUP_ID = {"id": {"type": "string", "pattern": r"^[0-9]+(-[0-9]+)?@g\.us$"}}
FILE_ROUTES: tuple[ApiRoute, ...] = (
    ApiRoute("GET", "/api/me/tasks.csv", my_tasks_csv, "exportMyTasks",
             "My tasks, open and completed, as a CSV file (UTF-8 with a byte-order mark; names, never numbers)",
             None, query=ExportParams, errors=(422,), media=MEDIA_TYPE),
    ApiRoute("GET", "/api/groups/{id}/tasks.csv", group_tasks_csv, "exportGroupTasks",
             "A group's tasks, open and completed, as a CSV file (UTF-8 with a byte-order mark; names, never numbers)",
             None, query=ExportParams, path_schemas=_GROUP_ID, errors=(403, 422), media=MEDIA_TYPE),
    ApiRoute("POST", "/api/groups/{id}/tasks/import", import_file, "importGroupTasks",
             "Create a group's tasks from a CSV file (at most 500 lines), announced there as one message; "
             "dry_run=true only previews", ImportCreated, query=ImportParams, path_schemas=_GROUP_ID,
             errors=(403, 413, 415, 422, 429), status=201, body_media=MEDIA_TYPE, also=((200, ImportPreview),)),
)
