"""The pages of rewards and approvals (SPEC section 34): a group's rewards with my balance and a button to ask for
each, and "Aprobaciones", what waits for my approval (reward requests with approve and refuse buttons, and photos).

Plain HTML forms posted to the page they are on (no script needed), checked as the task form is (``task_form``:
a token derived from the session cookie, the browser's word that the form is from this site, the rate limit); they
call the API's use cases, so the group is told by the bot as when the API is used.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import quote

from aiohttp import web

from taskcore.errors import Forbidden, NotFound
from taskcore.services import reward_requests as requests
from taskcore.services import rewards
from tasksvc_run import units
from tasksvc_run.i18n import N_, _
from tasksvc_run.keys import CLOCK, DB, USER
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.rewards import decide, gating, short_balance, telling
from tasksvc_run.web.task_form import checked_form, form_token
from tasksvc_run.web.templating import render

STATES = {"requested": N_("Pendiente"), "approved": N_("Aprobado"), "refused": N_("Rechazado")}
NOT_AVAILABLE = N_("Ese premio ya no está disponible.")
GONE = N_("Ese canje ya no existe o no es de tus grupos.")
ONLY_ADMINS = N_("Solo un administrador del grupo (de WhatsApp) puede aprobar o rechazar canjes.")


def signed_in(request: web.Request) -> str:
    user: str | None = request.get(USER)
    if user is None:
        raise web.HTTPSeeOther("/")
    return user


def _common(request: web.Request, user: str, section: str) -> dict[str, Any]:
    return {"user": user, "section": section, "form_check": form_token(request),
            "states": {key: _(label) for key, label in STATES.items()}}


async def group_rewards(request: web.Request) -> web.Response:
    """GET /grupos/{id}/premios."""
    return _rewards_page(request, signed_in(request))


def _rewards_page(request: web.Request, user: str, *, error: str = "", status: int = 200) -> web.Response:
    group_id = request.match_info["id"]
    found = units.look(request.app[DB], rewards.group_rewards, gating(request), user_id=user, group_id=group_id)
    mine = [item for item in units.look(request.app[DB], requests.my_requests,
                                        user_id=user) if item.group_id == group_id]
    return render(request, "rewards.html", status=status, **_common(request, user, "grupos"), found=found,
                  requests=mine, error=error)


async def redeem(request: web.Request) -> web.Response:
    """POST /grupos/{id}/premios/{rid}/canjear: ask for the reward; 303 back, or the page with why not."""
    user = signed_in(request)
    await checked_form(request, user)
    group_id, raw = request.match_info["id"], request.match_info["rid"]
    app = request.app
    try:
        if not raw.isascii() or not raw.isdigit():
            raise NotFound("no such reward")
        await asyncio.to_thread(units.run, app[DB], requests.redeem, gating(request), user_id=user, reward_id=int(raw),
                                group_id=group_id, now=app[CLOCK].now(), tell=telling(request))
    except requests.ShortBalance as exc:
        return _rewards_page(request, user, error=short_balance(exc).detail, status=409)
    except NotFound:
        return _rewards_page(request, user, error=_(NOT_AVAILABLE), status=404)
    raise web.HTTPSeeOther(f"/grupos/{quote(group_id, safe='@')}/premios")


async def approvals(request: web.Request) -> web.Response:
    """GET /aprobaciones: what waits for my approval."""
    return approvals_page(request, signed_in(request))


def approvals_page(request: web.Request, user: str, *, error: str = "", status: int = 200) -> web.Response:
    found = units.look(request.app[DB], requests.waiting, gating(request), user_id=user)
    return render(request, "approvals.html", status=status, **_common(request, user, "aprobaciones"),
                  waiting=found, error=error)


async def approve(request: web.Request) -> web.Response:
    """POST /aprobaciones/canjes/{id}/aprobar."""
    return await _decided(request, approve=True)


async def refuse(request: web.Request) -> web.Response:
    """POST /aprobaciones/canjes/{id}/rechazar (with an optional reason)."""
    return await _decided(request, approve=False)


async def _decided(request: web.Request, *, approve: bool) -> web.Response:
    return await decided_on_page(request, lambda sent: decide(request, approve=approve, reason=reason_in(sent)),
                                 gone=GONE, only_admins=ONLY_ADMINS)


def reason_in(sent: Mapping[str, str]) -> str | None:
    """The optional reason a form sent (blank: none)."""
    return sent.get("reason", "").strip() or None


async def decided_on_page(request: web.Request, decision: Callable[[Mapping[str, str]], Awaitable[object]], *,
                          gone: str, only_admins: str) -> web.Response:
    """A decision made with a form of the approvals page (a reward request's, a missed chore's): 303 back to the
    page, or the page again saying why not; ``gone`` and ``only_admins`` are the message ids of its 404 and 403."""
    user = signed_in(request)
    sent = await checked_form(request, user)
    try:
        await decision(sent)
    except RequestProblem as exc:  # a balance too low, something decided already: said on the page
        return approvals_page(request, user, error=exc.detail, status=exc.status)
    except NotFound:
        return approvals_page(request, user, error=_(gone), status=404)
    except Forbidden:
        return approvals_page(request, user, error=_(only_admins), status=403)
    raise web.HTTPSeeOther("/aprobaciones")


def add_reward_pages(app: web.Application) -> None:
    """The pages of rewards and approvals."""
    app.router.add_get("/grupos/{id}/premios", group_rewards)
    app.router.add_post("/grupos/{id}/premios/{rid}/canjear", redeem)
    app.router.add_get("/aprobaciones", approvals)
    app.router.add_post("/aprobaciones/canjes/{id}/aprobar", approve)
    app.router.add_post("/aprobaciones/canjes/{id}/rechazar", refuse)
