"""The pages' form to add a task (SPEC section 23): a plain HTML form, no script needed, posted to the page it is on.

It calls the use case of POST /api/tasks. A page form cannot declare JSON, so the cross-site rule of the API
(``crosssite``) is replaced here by two checks: the form carries a token derived from the session cookie (another
site can neither read the cookie nor the page), and the browser must not say the form came from another site
(``Sec-Fetch-Site``, else ``Origin``). The session cookie is SameSite=Lax besides. Writes take from the user's
rate-limit bucket as the API's do."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
from dataclasses import dataclass
from datetime import date
from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from multidict import MultiDict, MultiDictProxy

from taskcore.dates import parse_iso_date
from taskcore.errors import RateLimited, ValidationError
from taskcore.model import Task
from taskcore.services import web_tasks
from tasksvc_run import units
from tasksvc_run.i18n import N_, _
from tasksvc_run.keys import CLOCK, DB, LIMITER, PUBLIC_IDS, SETTINGS
from tasksvc_run.web.api import gating
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.session import COOKIE

CHECK_FIELD = "form_check"
STALE_FORM = N_("El formulario ha caducado o viene de otro sitio: recarga la página e inténtalo de nuevo.")


@dataclass(frozen=True, slots=True)
class TaskForm:
    """What the form shows: empty, or what was sent with the error that kept it from being saved."""

    description: str = ""
    due: str = ""
    group_id: str = ""
    assignees: tuple[str, ...] = ()
    error: str = ""


def form_token(request: web.Request) -> str:
    """The token the page forms carry: a digest of the session cookie (empty without one, as in development)."""
    session = request.cookies.get(COOKIE, "")
    return hashlib.sha256(f"tasksvc-page-form:{session}".encode()).hexdigest()


def _same_origin(request: web.Request) -> bool:
    """True when the browser says the form came from this site: ``Sec-Fetch-Site`` when sent, else an ``Origin``
    naming this site as the browser saw it. Neither (an older browser, a script) or ``Origin: null`` (what a
    browser sends under this site's Referrer-Policy: no-referrer) leaves it to the token."""
    fetch_site = request.headers.get("Sec-Fetch-Site")
    if fetch_site is not None:
        return fetch_site == "same-origin"
    origin = request.headers.get("Origin", "null")
    base = request.app[SETTINGS].web_base_url or ""
    ours = {request.host, request.headers.get("X-Forwarded-Host"), urlsplit(str(base)).netloc or None}
    return origin == "null" or urlsplit(origin).netloc in ours


same_origin = _same_origin
"""Whether the browser says a page form came from this site (the import page's forms ask it too)."""


async def checked_form(request: web.Request, user: str) -> MultiDictProxy[str]:
    """A page form's fields, once its token and origin are checked (403 otherwise) and the user's bucket allows a
    write (every page form that writes goes through here)."""
    decision = request.app[LIMITER].check(user, request.app[CLOCK].monotonic())
    if not decision.allowed:
        raise RateLimited(decision.retry_after)
    sent = await _posted(request)
    if not hmac.compare_digest(sent.get(CHECK_FIELD, ""), form_token(request)) or not _same_origin(request):
        raise RequestProblem(403, "forbidden", STALE_FORM)
    return sent


async def read_form(request: web.Request, user: str) -> TaskForm:
    """The sent task form, checked by ``checked_form``."""
    sent = await checked_form(request, user)
    return TaskForm(sent.get("description", ""), sent.get("due_date", "").strip(), sent.get("group", "").strip(),
                    tuple(sent.getall("assignee", [])))


async def _posted(request: web.Request) -> MultiDictProxy[str]:
    try:
        raw = await request.post()
    except ValueError:  # a malformed body: like an empty form
        return MultiDictProxy(MultiDict())
    return MultiDictProxy(MultiDict((key, value) for key, value in raw.items() if isinstance(value, str)))


def due_date(raw: str) -> date | None:
    """The date field's value (YYYY-MM-DD, what <input type="date"> sends), None when empty."""
    if not raw:
        return None
    try:
        return parse_iso_date(raw)
    except ValidationError:
        pass
    raise ValidationError(_("La fecha no es válida: elígela en el calendario (AAAA-MM-DD)."), field="due_date")


async def create(request: web.Request, user: str, form: TaskForm) -> Task:
    """Create the form's task with POST /api/tasks' use case (ValidationError, Forbidden as it raises them)."""
    app = request.app
    new = web_tasks.NewTask(form.description, due_date(form.due), form.group_id or None, form.assignees)
    announcing = web_tasks.Announcing(app[SETTINGS].rq_max_attempts, app[SETTINGS].default_language)
    key = await asyncio.to_thread(app[PUBLIC_IDS].key)  # the form's assignees are public ids (SPEC section 32)
    return await asyncio.to_thread(units.run, app[DB], web_tasks.create_from_web, gating(request), user_id=user,
                                   new=new,
                                   now=app[CLOCK].now(), announcing=announcing, key=key)


def refused(form: TaskForm, exc: ValidationError) -> TaskForm:
    """The form again with the reason it was not saved, as a sentence."""
    message = str(exc)
    return TaskForm(form.description, form.due, form.group_id, form.assignees,
                    message[:1].upper() + message[1:].rstrip(".") + ".")


def form_context(request: web.Request, form: TaskForm) -> dict[str, Any]:
    """What a page's template needs to show the form."""
    return {"form": form, "form_check": form_token(request)}
