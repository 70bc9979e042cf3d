"""Rewards and approvals in the API (SPEC section 34): every answer as the OpenAPI document describes it, the group
gating, a redeem over the balance refused naming it, an approval lowering it, the group told by the bot."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.services import rewards
from taskcore.services import tasks as task_service
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group
from tests.chat_support import queued
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

ADMIN = "34600000009"
STRANGER_GROUP = "120363000000000077@g.us"


@asynccontextmanager
async def rewards_web(db: Database) -> AsyncIterator[WebEnv]:
    """The web app over a group "Familia" of Ana (ME), OTHER and its admin, and another group of OTHER's."""
    make_group(db, GROUP, name="Familia", members=(ME, OTHER, ADMIN))
    make_group(db, STRANGER_GROUP, name="Otro", members=(OTHER,))
    gm = schema.group_members
    with db.write() as conn:
        conn.execute(update(gm).where(gm.c.user_id == ADMIN).values(is_admin=True))
        conn.execute(update(schema.users).where(schema.users.c.id == ME).values(display_name="Ana"))
    async with web_env(db) as env:
        yield env


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with rewards_web(db) as env:
        yield env


def earn(db: Database, points: int, user: str = ME) -> None:
    """``user`` completes a task worth ``points`` someone else gave them (SPEC section 38)."""
    task = units.run(db, task_service.create_task, creator=OTHER if user == ME else ME, description="tarea",
                     group_id=GROUP, assignees=(user,), now=NOW, points=points)
    units.run(db, task_service.complete_task, GatingMode.OFF, user_id=user, task_id=task.id, now=NOW)


def offer(db: Database, points: int, name: str = "Cine", group: str = GROUP) -> int:
    if group != GROUP:
        gm = schema.group_members
        with db.write() as conn:
            conn.execute(update(gm).where(gm.c.group_id == group, gm.c.user_id == OTHER).values(is_admin=True))
        return units.run(db, rewards.create_reward, group_id=group, user_id=OTHER, name=name, points=points, now=NOW).id
    return units.run(db, rewards.create_reward, group_id=GROUP, user_id=ADMIN, name=name, points=points, now=NOW).id


async def call(web: WebEnv, method: str, url: str, path: str, user: str = ME, **kw: object) -> tuple[int, object]:
    """Call and check the answer against the document."""
    status, body = await web.call(method, url, user=user, **kw)  # type: ignore[arg-type]
    check_documented(document(), path, method, status, body)
    return status, body


async def test_the_group_s_rewards_with_my_balance(web: WebEnv) -> None:
    offer(web.db, 50)
    offer(web.db, 10, "Helado")
    earn(web.db, 7)
    status, body = await call(web, "GET", f"/api/groups/{GROUP}/rewards", "/api/groups/{id}/rewards")
    assert (status, body) == (200, {"items": [{"id": 2, "name": "Helado", "points": 10},
                                              {"id": 1, "name": "Cine", "points": 50}],
                                    "balance": 7, "reserved": 0})


async def test_the_rewards_of_a_group_i_am_not_in_are_forbidden(web: WebEnv) -> None:
    status, _ = await call(web, "GET", f"/api/groups/{STRANGER_GROUP}/rewards", "/api/groups/{id}/rewards")
    assert status == 403
    status, _ = await call(web, "GET", "/api/groups/nonsense/rewards", "/api/groups/{id}/rewards")
    assert status == 403
    assert (await web.call("GET", f"/api/groups/{GROUP}/rewards", user=None))[0] == 401


async def test_a_redeem_over_the_balance_is_a_409_naming_the_balance(web: WebEnv) -> None:
    reward = offer(web.db, 10)
    earn(web.db, 4)
    path = "/api/groups/{id}/rewards/{rid}/redeem"
    status, body = await call(web, "POST", f"/api/groups/{GROUP}/rewards/{reward}/redeem", path)
    assert status == 409
    assert isinstance(body, dict)
    assert body["detail"] == "No te llega: «Cine» cuesta 10 puntos y tienes 4 puntos."
    assert body["errors"] == [{"field": "balance", "message": "4 puntos"}]
    status, body = await call(web, "POST", f"/api/groups/{GROUP}/rewards/{reward}/redeem", path,
                              headers={"Accept-Language": "en"}, user=OTHER)
    assert status == 409


async def test_a_redeem_is_told_in_the_group_and_an_approval_lowers_the_balance(web: WebEnv) -> None:
    reward = offer(web.db, 3)
    earn(web.db, 5)
    path = "/api/groups/{id}/rewards/{rid}/redeem"
    status, made = await call(web, "POST", f"/api/groups/{GROUP}/rewards/{reward}/redeem", path)
    assert status == 201
    assert isinstance(made, dict)
    assert (made["state"], made["points"], made["requester"]) == ("requested", 3, {"id": web.pid(ME), "name": "Ana"})
    (notice,) = queued(web.db)
    assert notice.chat_id == GROUP
    assert notice.text.endswith("Un administrador del grupo lo aprueba con: /t aprobar canje 1")
    assert ME not in notice.text.replace(f"@{ME}", "")  # the requester is mentioned, not named by number
    _, mine = await web.call("GET", f"/api/groups/{GROUP}/rewards")
    assert (mine["balance"], mine["reserved"]) == (5, 3)
    status, approvals = await call(web, "GET", "/api/me/approvals", "/api/me/approvals", user=ADMIN)
    assert isinstance(approvals, dict)
    assert ([item["id"] for item in approvals["requests"]], approvals["photos"]) == ([made["id"]], [])
    status, done = await call(web, "POST", f"/api/reward-requests/{made['id']}/approve",
                              "/api/reward-requests/{id}/approve", user=ADMIN)
    assert (status, done["state"]) == (200, "approved")  # type: ignore[index]
    assert queued(web.db)[-1].text == f"✅ Canje #1 aprobado: «Cine» para @{ME}. Le quedan 2 puntos."
    _, mine = await web.call("GET", f"/api/groups/{GROUP}/rewards")
    assert (mine["balance"], mine["reserved"]) == (2, 0)
    status, again = await call(web, "POST", f"/api/reward-requests/{made['id']}/approve",
                               "/api/reward-requests/{id}/approve", user=ADMIN)
    assert (status, again["detail"]) == (409, "El canje #1 ya estaba aprobado.")  # type: ignore[index]
    status, listed = await call(web, "GET", "/api/me/reward-requests", "/api/me/reward-requests")
    assert [item["state"] for item in listed["items"]] == ["approved"]  # type: ignore[index]


async def test_only_a_group_admin_approves_and_anyone_else_is_refused(web: WebEnv) -> None:
    reward = offer(web.db, 3)
    earn(web.db, 5)
    _, made = await web.call("POST", f"/api/groups/{GROUP}/rewards/{reward}/redeem")
    url = f"/api/reward-requests/{made['id']}/approve"
    assert (await call(web, "POST", url, "/api/reward-requests/{id}/approve", user=OTHER))[0] == 403
    assert (await call(web, "POST", "/api/reward-requests/999/approve", "/api/reward-requests/{id}/approve",
                       user=ADMIN))[0] == 404
    assert (await web.call("POST", "/api/reward-requests/abc/approve", user=ADMIN))[0] == 404


async def test_a_refusal_with_its_reason_and_a_withdrawal(web: WebEnv) -> None:
    reward = offer(web.db, 1)
    earn(web.db, 5)
    path = "/api/reward-requests/{id}/refuse"
    _, first = await web.call("POST", f"/api/groups/{GROUP}/rewards/{reward}/redeem")
    status, refused = await call(web, "POST", f"/api/reward-requests/{first['id']}/refuse", path, user=ADMIN,
                                 json={"reason": "hoy no"})
    assert (status, refused["state"], refused["reason"]) == (200, "refused", "hoy no")  # type: ignore[index]
    assert queued(web.db)[-1].text == f"❌ Canje #1 rechazado: «Cine» para @{ME}. Motivo: hoy no"
    _, second = await web.call("POST", f"/api/groups/{GROUP}/rewards/{reward}/redeem")
    status, withdrawn = await call(web, "POST", f"/api/reward-requests/{second['id']}/refuse", path, json={})
    assert (status, withdrawn["state"]) == (200, "refused")  # type: ignore[index]
    assert queued(web.db)[-1].text == f"↩️ @{ME} retira el canje #2 («Cine»)."
    status, body = await call(web, "POST", f"/api/reward-requests/{second['id']}/refuse", path, json={"x": 1})
    assert (status, body["errors"][0]["field"]) == (422, "x")  # type: ignore[index]


async def test_a_reward_of_another_group_is_not_redeemed_through_this_one(web: WebEnv) -> None:
    elsewhere = offer(web.db, 1, group=STRANGER_GROUP)
    earn(web.db, 5)
    path = "/api/groups/{id}/rewards/{rid}/redeem"
    assert (await call(web, "POST", f"/api/groups/{GROUP}/rewards/{elsewhere}/redeem", path))[0] == 404
    assert (await call(web, "POST", f"/api/groups/{STRANGER_GROUP}/rewards/{elsewhere}/redeem", path))[0] == 403
    assert (await web.call("POST", f"/api/groups/{GROUP}/rewards/0/redeem"))[0] == 404


async def test_writes_need_json_and_our_site(web: WebEnv) -> None:
    reward = offer(web.db, 1)
    earn(web.db, 5)
    url = f"/api/groups/{GROUP}/rewards/{reward}/redeem"
    assert (await web.call("POST", url, headers={"Content-Type": "text/plain"}))[0] == 415
    assert (await web.call("POST", url, headers={"Origin": "https://evil.example"}))[0] == 403
    assert queued(web.db) == []
