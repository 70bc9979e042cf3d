"""Rewards and approvals in the API (SPEC section 34): a group's rewards with my balance, redeeming one, my requests,
what waits for my approval, and approving or refusing a request (a group admin; the person who asked may withdraw
their own). A request or decision made here is told in its group by the bot, queued with the change.

A request over what I have, or an approval over what the requester has, is a 409 whose detail and ``errors``
(field ``balance``) name the balance: the request is well formed, the points are what refuse it (SPEC 28).
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Literal

import orjson
from aiohttp import web
from pydantic import BaseModel, ConfigDict, Field

from taskcore.access import GatingMode
from taskcore.chores import reward_texts as texts
from taskcore.chores.proof import PendingPhoto
from taskcore.chores.rewards import MAX_REWARD_NAME, MAX_REWARD_POINTS, RewardRequest
from taskcore.chores.witness import HeldPoints
from taskcore.errors import NotFound
from taskcore.services import reward_requests as requests
from taskcore.services import rewards
from taskcore.shown import shown_name
from tasksvc_run import units
from tasksvc_run.keys import CLOCK, DB, SETTINGS, USER
from tasksvc_run.web.errors import RequestProblem
from tasksvc_run.web.me import ids
from tasksvc_run.web.models import PUBLIC_ID
from tasksvc_run.web.openapi import ApiRoute
from tasksvc_run.web.parsing import group_id_of, parse_body
from tasksvc_run.web.penalties import MissedItem, missed_item

_MAX_ID = 2**63 - 1
MAX_REASON = requests.MAX_REASON


class RewardItem(BaseModel):
    """A reward on offer in the group."""

    id: int = Field(ge=1)
    name: str = Field(max_length=MAX_REWARD_NAME)
    points: int = Field(ge=1, le=MAX_REWARD_POINTS, description="Its price in points.")


class RewardList(BaseModel):
    """The group's rewards and my balance there."""

    items: list[RewardItem]
    balance: int = Field(ge=0, description="My points in this group: my completions' points less what I redeemed.")
    reserved: int = Field(ge=0, description="Points my pending requests hold; a new request must fit in the rest.")


class Named(BaseModel):
    """Something named: a reward, a group."""

    id: int | str
    name: str | None


class Requester(BaseModel):
    """Who asked, by public id and name."""

    id: str = PUBLIC_ID
    name: str


class RewardRequestItem(BaseModel):
    """A request for a reward, at the price it had when asked for."""

    id: int = Field(ge=1)
    reward: Named
    group: Named
    requester: Requester
    points: int = Field(ge=1)
    state: Literal["requested", "approved", "refused"]
    requested_at: datetime
    decided_at: datetime | None
    reason: str | None


class RequestList(BaseModel):
    """Reward requests, newest first."""

    items: list[RewardRequestItem]


class PhotoItem(BaseModel):
    """A task's photo waiting for my approval."""

    task_id: int
    group_id: str
    group_name: str
    description: str
    assignee_name: str
    at: datetime


class HeldPointsItem(BaseModel):
    """A task's points waiting for my approval: whoever completed it had created it and held it alone (SPEC 38)."""

    task_id: int
    group_id: str
    group_name: str | None
    description: str
    completer_name: str
    points: int = Field(ge=1)
    since: datetime


class Approvals(BaseModel):
    """What waits for my approval: reward requests and missed chores of groups I administer, photos, and points
    people gave themselves."""

    requests: list[RewardRequestItem]
    photos: list[PhotoItem]
    points: list[HeldPointsItem]
    missed: list[MissedItem] = Field(description="Missed chores waiting to be applied or excused (SPEC section 41)")


class RefuseBody(BaseModel):
    """Body of a refusal: an optional reason, told to the group."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    reason: str | None = Field(default=None, max_length=MAX_REASON)


def ok(body: Any, *, status: int = 200) -> web.Response:
    """``status`` with the JSON body (as the API's other answers)."""
    return web.Response(status=status, body=orjson.dumps(body), content_type="application/json", charset="utf-8")


def gating(request: web.Request) -> GatingMode:
    """GROUP_GATING_MODE."""
    return GatingMode(request.app[SETTINGS].group_gating_mode)


def _stamp(moment: datetime | None) -> str | None:
    return None if moment is None else moment.isoformat().replace("+00:00", "Z")


def request_item(request: RewardRequest, request_ids: Any) -> dict[str, Any]:
    """One request as the API shows it."""
    return {"id": request.id, "reward": {"id": request.reward_id, "name": request.reward_name},
            "group": {"id": request.group_id, "name": request.group_name},
            "requester": {"id": request_ids(request.requester), "name": shown_name(request.requester_name)},
            "points": request.points, "state": request.state.value, "requested_at": _stamp(request.requested_at),
            "decided_at": _stamp(request.decided_at), "reason": request.reason}


def photo_item(photo: PendingPhoto) -> dict[str, Any]:
    """One waiting photo as the API shows it."""
    return {"task_id": photo.task_id, "group_id": photo.group_id, "group_name": photo.group_name,
            "description": photo.description, "assignee_name": photo.assignee_name, "at": _stamp(photo.at)}


def points_item(held: HeldPoints) -> dict[str, Any]:
    """One task's held points as the API shows them (the completer by name, never a number)."""
    return {"task_id": held.task_id, "group_id": held.group_id, "group_name": held.group_name,
            "description": held.description, "completer_name": shown_name(held.completer_name),
            "points": held.points, "since": _stamp(held.since)}


def _number(request: web.Request, name: str) -> int:
    raw = request.match_info[name]
    if not (raw.isascii() and raw.isdigit()) or not 0 < int(raw) <= _MAX_ID:
        raise NotFound("no such reward or request")
    return int(raw)


def telling(request: web.Request) -> requests.Telling:
    """How the group is told of what the web did."""
    settings = request.app[SETTINGS]
    return requests.Telling(settings.rq_max_attempts, settings.default_language)


async def group_rewards(request: web.Request) -> web.Response:
    """GET /api/groups/{id}/rewards."""
    group_id = group_id_of(request)
    found = units.look(request.app[DB], rewards.group_rewards, gating(request), user_id=request[USER],
                       group_id=group_id)
    return ok({"items": [{"id": r.id, "name": r.name, "points": r.points} for r in found.items],
               "balance": found.balance.points, "reserved": found.balance.reserved})


def short_balance(exc: requests.ShortBalance | requests.CannotApprove) -> RequestProblem:
    """The 409 that names the balance."""
    if isinstance(exc, requests.ShortBalance):
        detail = texts.too_few(exc.balance, exc.price, exc.reward)
    else:
        detail = texts.cannot_approve(exc.request, shown_name(exc.request.requester_name), exc.balance)
    return RequestProblem(409, "insufficient-points", detail,
                          [{"field": "balance", "message": texts.balance_text(exc.balance)}])


def already(exc: requests.AlreadyDecided) -> RequestProblem:
    """The 409 of a request decided already."""
    return RequestProblem(409, "conflict", texts.already_decided(exc.request),
                          [{"field": "state", "message": exc.request.state.value}])


async def redeem(request: web.Request) -> web.Response:
    """POST /api/groups/{id}/rewards/{rid}/redeem: 201 with the request, the group told."""
    group_id, reward_id = group_id_of(request), _number(request, "rid")
    app = request.app
    try:
        made = await asyncio.to_thread(units.run, app[DB], requests.redeem, gating(request), user_id=request[USER],
                                       reward_id=reward_id, group_id=group_id, now=app[CLOCK].now(),
                                       tell=telling(request))
    except requests.ShortBalance as exc:
        raise short_balance(exc) from exc
    return ok(request_item(made.request, ids(request)), status=201)


async def my_reward_requests(request: web.Request) -> web.Response:
    """GET /api/me/reward-requests."""
    found = units.look(request.app[DB], requests.my_requests, user_id=request[USER])
    return ok({"items": [request_item(item, ids(request)) for item in found]})


async def my_approvals(request: web.Request) -> web.Response:
    """GET /api/me/approvals."""
    found = units.look(request.app[DB], requests.waiting, gating(request), user_id=request[USER])
    return ok({"requests": [request_item(item, ids(request)) for item in found.requests],
               "photos": [photo_item(photo) for photo in found.photos],
               "points": [points_item(held) for held in found.points],
               "missed": [missed_item(item, ids(request)) for item in found.missed]})


async def decide(request: web.Request, *, approve: bool, reason: str | None = None) -> requests.Outcome:
    """Approve or refuse request {id} as the signed-in person (the pages' forms call this too)."""
    app, request_id = request.app, _number(request, "id")
    user, now, tell = request[USER], app[CLOCK].now(), telling(request)
    try:
        if approve:
            return await asyncio.to_thread(units.run, app[DB], requests.approve, gating(request), user_id=user,
                                           request_id=request_id, now=now, tell=tell)
        return await asyncio.to_thread(units.run, app[DB], requests.refuse, gating(request), user_id=user,
                                       request_id=request_id, reason=reason, now=now, tell=tell)
    except requests.CannotApprove as exc:
        raise short_balance(exc) from exc
    except requests.AlreadyDecided as exc:
        raise already(exc) from exc


async def approve_request(request: web.Request) -> web.Response:
    """POST /api/reward-requests/{id}/approve."""
    done = await decide(request, approve=True)
    return ok(request_item(done.request, ids(request)))


async def refuse_request(request: web.Request) -> web.Response:
    """POST /api/reward-requests/{id}/refuse with {"reason": ...}."""
    body, _ = await parse_body(request, RefuseBody)
    done = await decide(request, approve=False, reason=body.reason)
    return ok(request_item(done.request, ids(request)))


_GROUP = {"id": {"type": "string", "pattern": r"^[0-9]+(-[0-9]+)?@g\.us$"}}
_ID = {"type": "integer", "minimum": 1}
REWARD_ROUTES = (
    ApiRoute("GET", "/api/groups/{id}/rewards", group_rewards, "listGroupRewards",
             "A group's rewards and my balance there", RewardList, path_schemas=_GROUP, errors=(403,)),
    ApiRoute("POST", "/api/groups/{id}/rewards/{rid}/redeem", redeem, "redeemReward",
             "Ask for a reward (the group is told; a group admin approves); 409 naming my balance when short",
             RewardRequestItem, path_schemas={**_GROUP, "rid": _ID}, errors=(403, 404, 409, 415, 429), status=201),
    ApiRoute("GET", "/api/me/reward-requests", my_reward_requests, "listMyRewardRequests",
             "My reward requests, newest first", RequestList),
    ApiRoute("GET", "/api/me/approvals", my_approvals, "listMyApprovals",
             "What waits for my approval: reward requests and missed chores of groups I administer, photos, and points "
             "people gave themselves", Approvals),
    ApiRoute("POST", "/api/reward-requests/{id}/approve", approve_request, "approveRewardRequest",
             "Approve a reward request (a group admin); 409 naming the balance when the requester is short",
             RewardRequestItem, path_schemas={"id": _ID}, errors=(403, 404, 409, 415, 429)),
    ApiRoute("POST", "/api/reward-requests/{id}/refuse", refuse_request, "refuseRewardRequest",
             "Refuse a reward request (a group admin), or withdraw my own", RewardRequestItem, body=RefuseBody,
             path_schemas={"id": _ID}, errors=(400, 403, 404, 409, 415, 422, 429)),
)
