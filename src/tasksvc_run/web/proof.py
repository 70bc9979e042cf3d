"""GET /api/tasks/{id}/proof (SPEC section 34): a task's photo, through the signed address its task item gives.

It answers the image's bytes (its content type by its content) only to a request with a session or an API token of
a member of the task's group, and only until the address expires: 403 for an address that is not the photo's or has
expired, 404 for a task the person cannot see or without a photo.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from taskcore.access import GatingMode
from taskcore.chores.proof import image_kind
from taskcore.errors import NotFound
from taskcore.services import proof as svc
from tasksvc_run import units
from tasksvc_run.i18n import N_
from tasksvc_run.keys import DB, PROOF_LINKS, SETTINGS, USER
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import parse_query, task_id_of
from tasksvc_run.web.proof_models import ProofQuery

__all__ = ["PROOF_ROUTES", "task_proof"]

_TASK_ID = {"id": {"type": "integer", "minimum": 1}}
EXPIRED = N_("Esta dirección de la foto no es válida o ha caducado; vuelve a abrir la tarea.")


async def task_proof(request: web.Request) -> web.Response:
    """GET /api/tasks/{id}/proof?exp=&sig=: the photo's bytes."""
    task_id = task_id_of(request)
    query = parse_query(request, ProofQuery)
    app = request.app
    found = await asyncio.to_thread(units.look, app[DB], svc.proof_of, task_id)
    if found is None or not found.file_name:
        raise NotFound(f"task {task_id} has no photo")
    links = app[PROOF_LINKS]
    if not await asyncio.to_thread(links.valid, task_id, found.file_name, query.exp, query.sig):
        raise RequestProblem(403, "forbidden", EXPIRED)
    files = svc.photo_files(app[SETTINGS].data_dir)
    if files is None:  # pragma: no cover - DATA_DIR always has a value
        raise NotFound("no photo folder")
    mode = GatingMode(app[SETTINGS].group_gating_mode)
    data = await asyncio.to_thread(units.look, app[DB], svc.photo_file, mode, files, user_id=request[USER],
                                   task_id=task_id,
                                   file_name=found.file_name)
    kind = image_kind(data)
    if kind is None:  # pragma: no cover - only checked images are kept
        raise NotFound("the kept file is no image")
    return web.Response(body=data, content_type=kind.content_type,
                        headers={"Cache-Control": "private, max-age=600", "Content-Disposition": "inline"})


PROOF_ROUTES: tuple[ApiRoute, ...] = (
    ApiRoute("GET", "/api/tasks/{id}/proof", task_proof, "getTaskProof",
             "A task's photo (SPEC section 34), through the signed address of its item's proof.url; only for members "
             "of the task's group, until the address expires", None, query=ProofQuery, path_schemas=_TASK_ID,
             errors=(403, 404, 422), media="image/*"),
)
