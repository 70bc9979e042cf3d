"""Personal API tokens over HTTP (SPEC section 22): made and revoked with the session, then ``Authorization: Bearer``
on every /api endpoint as that user, under the same rate limit; never both credentials at once."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from taskcore.access import GatingMode
from taskcore.services import penalties, reward_requests, rewards
from taskcore.services import tasks as task_service
from taskcore.services.tokens import MAX_TOKENS, create_api_token
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web.routes import ROUTES, document
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

OTHER_GROUP = "120363000000000002@g.us"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER))
    make_group(db, OTHER_GROUP, name="Trabajo", members=(OTHER,))
    async with web_env(db, WEB_BASE_URL="https://tareas.example") as env:
        yield env


async def new_token(web: WebEnv, user: str = ME, name: str = "Home Assistant") -> dict[str, Any]:
    status, body = await web.call("POST", "/api/me/tokens", user=user, json={"name": name})
    assert status == 201, body
    return dict(body)


async def bearer(web: WebEnv, method: str, path: str, token: str, **kwargs: Any) -> tuple[int, Any, Any]:
    """A request carrying only the token (no cookie, no Content-Type unless a JSON body goes with it)."""
    headers = {"Authorization": f"Bearer {token}", **kwargs.pop("headers", {})}
    async with web.client.request(method, path, headers=headers, **kwargs) as response:
        raw = await response.read()
        if response.content_type == "text/csv":  # an export (SPEC section 35)
            return response.status, raw.decode("utf-8-sig"), response.headers
        return response.status, json.loads(raw) if raw else None, response.headers


class TestMakingTokens:
    async def test_a_token_is_shown_once_then_listed_by_name_without_the_secret(self, web: WebEnv) -> None:
        made = await new_token(web)
        check_documented(document(), "/api/me/tokens", "POST", 201, made)
        assert (made["name"], made["created_at"]) == ("Home Assistant", "2026-11-22T10:00:00Z")
        status, listed = await web.call("GET", "/api/me/tokens")
        assert status == 200
        check_documented(document(), "/api/me/tokens", "GET", 200, listed)
        assert listed == {"items": [{"id": made["id"], "name": "Home Assistant",
                                     "created_at": "2026-11-22T10:00:00Z", "last_used_at": None}]}
        assert made["token"] not in json.dumps(listed)

    async def test_the_twenty_first_token_is_a_409_naming_the_limit_and_all_twenty_are_listed(
            self, web: WebEnv) -> None:
        for n in range(MAX_TOKENS):
            units.run(web.db, create_api_token, user_id=ME, name=f"script {n}", now=NOW)
        status, problem = await web.call("POST", "/api/me/tokens", json={"name": "one more"})
        assert (status, problem["status"], problem["type"]) == (409, 409, "about:blank#limit-reached")
        assert "20" in problem["detail"]
        check_documented(document(), "/api/me/tokens", "POST", 409, problem)
        status, listed = await web.call("GET", "/api/me/tokens")
        assert (status, len(listed["items"])) == (200, 20)

    async def test_each_use_is_recorded_as_the_last_use(self, web: WebEnv) -> None:
        made = await new_token(web)
        await bearer(web, "GET", "/api/me/tasks", made["token"])
        _, listed = await web.call("GET", "/api/me/tokens")
        assert listed["items"][0]["last_used_at"] == "2026-11-22T10:00:00Z"

    @pytest.mark.parametrize(("body", "field"), [
        ({"name": ""}, "name"), ({"name": "x" * 61}, "name"), ({}, "name"), ({"name": 3}, "name"),
        ({"name": "a", "scope": "all"}, "scope")])
    async def test_a_bad_name_is_a_422_naming_the_field(self, web: WebEnv, body: Any, field: str) -> None:
        status, problem = await web.call("POST", "/api/me/tokens", json=body)
        assert status == 422
        assert [error["field"] for error in problem["errors"]] == [field]

    async def test_revoking_answers_204_and_the_token_stops_working_at_once(self, web: WebEnv) -> None:
        made = await new_token(web)
        assert (await bearer(web, "GET", "/api/me/tasks", made["token"]))[0] == 200
        assert await web.call("DELETE", f"/api/me/tokens/{made['id']}") == (204, None)
        status, problem, headers = await bearer(web, "GET", "/api/me/tasks", made["token"])
        assert (status, problem["type"]) == (401, "about:blank#invalid-token")
        assert headers["WWW-Authenticate"] == 'Bearer realm="tasksvc", error="invalid_token"'
        assert headers["Content-Type"].startswith("application/problem+json")
        assert (await web.call("GET", "/api/me/tokens"))[1] == {"items": []}

    @pytest.mark.parametrize("token_id", ["999999", "abc", "0", "9" * 30])
    async def test_revoking_a_token_that_is_not_mine_is_404(self, web: WebEnv, token_id: str) -> None:
        assert (await web.call("DELETE", f"/api/me/tokens/{token_id}"))[0] == 404

    async def test_the_tokens_page_lists_names_and_needs_a_session(self, web: WebEnv) -> None:
        made = await new_token(web, name="<b>Atajo</b> del móvil")
        async with web.client.get("/tokens", headers=web.session_for(ME)) as response:
            page = await response.text()
        assert response.status == 200
        assert "Atajo del móvil" in page
        assert made["token"] not in page
        assert 'curl -H "Authorization: Bearer TU_TOKEN" https://tareas.example/api/me/tasks' in page
        async with web.client.get("/tokens", allow_redirects=False) as response:
            assert response.status == 303


# One sample request per operation: the test below fails when an operation is added without one.
SAMPLES: dict[str, tuple[str, str, Any]] = {
    "listMyTasks": ("GET", "/api/me/tasks", None),
    "listMyGroups": ("GET", "/api/me/groups", None),
    "listGroupTasks": ("GET", f"/api/groups/{GROUP}/tasks", None),
    "getPreferences": ("GET", "/api/me/preferences", None),
    "setPreferences": ("POST", "/api/me/preferences", {"freq": "daily", "time": "7:30"}),
    "claimTask": ("POST", "/api/tasks/{task}/claim", None),
    "unassignTask": ("POST", "/api/tasks/{task}/unassign", None),
    "completeTask": ("POST", "/api/tasks/{task}/complete", None),
    "editTask": ("PATCH", "/api/tasks/{task}", {"description": "Otra"}),
    "getOpenApi": ("GET", "/api/openapi.json", None),
    "createCalendar": ("POST", "/api/me/calendar", None),
    "deleteCalendar": ("DELETE", "/api/me/calendar", None),
    "createToken": ("POST", "/api/me/tokens", {"name": "otro"}),
    "listTokens": ("GET", "/api/me/tokens", None),
    "deleteToken": ("DELETE", "/api/me/tokens/{token}", None),
    "createTask": ("POST", "/api/tasks", {"description": "Pan", "group_id": GROUP, "assignees": ["{other}"]}),
    "listGroupMembers": ("GET", f"/api/groups/{GROUP}/members", None),
    "getMe": ("GET", "/api/me", None),
    "exportMe": ("GET", "/api/me/export", None),
    "forgetMe": ("DELETE", "/api/me", {"confirm": True}),
    # An image, through its item's signed address: tests/integration/test_web_proof.py opens it with a token.
    "getTaskProof": ("GET", "/api/tasks/{task}/proof", None),
    # Rewards (SPEC section 34): on a group where I am admin, with a reward and a pending request of mine (rewarded).
    "listGroupRewards": ("GET", f"/api/groups/{GROUP}/rewards", None),
    "redeemReward": ("POST", f"/api/groups/{GROUP}/rewards/1/redeem", None),
    "listMyRewardRequests": ("GET", "/api/me/reward-requests", None),
    "listMyApprovals": ("GET", "/api/me/approvals", None),
    "approveRewardRequest": ("POST", "/api/reward-requests/1/approve", None),
    "refuseRewardRequest": ("POST", "/api/reward-requests/1/refuse", {"reason": "hoy no"}),
    "exportMyTasks": ("GET", "/api/me/tasks.csv", None),
    "exportGroupTasks": ("GET", f"/api/groups/{GROUP}/tasks.csv", None),
    "importGroupTasks": ("POST", f"/api/groups/{GROUP}/tasks/import", b"description\nPan\n"),  # a CSV file
    # Chores as households run them (SPEC section 41): as the group's admin, with a chore of the other's missed.
    "createGroupDisplay": ("POST", f"/api/groups/{GROUP}/display", None),
    "deleteGroupDisplay": ("DELETE", f"/api/groups/{GROUP}/display", None),
    "applyMissedChore": ("POST", "/api/missed-chores/1/apply", None),
    "excuseMissedChore": ("POST", "/api/missed-chores/1/excuse", {"reason": "estaba de viaje"}),
    "tickTaskItem": ("POST", "/api/tasks/{task}/items/1/tick", None),  # the sample task has a checklist
}


def rewarded(db: Database) -> None:
    """I am the group's admin, with 5 points earned, a reward of 1 on offer and a pending request for it."""
    gm = schema.group_members
    with db.write() as conn:
        conn.execute(update(gm).where(gm.c.group_id == GROUP, gm.c.user_id == ME).values(is_admin=True))
    done = units.run(db, task_service.create_task, creator=OTHER, description="Fregar", group_id=GROUP, assignees=(ME,),
                     now=NOW,
                     points=5)
    units.run(db, task_service.complete_task, GatingMode.OFF, user_id=ME, task_id=done.id, now=NOW)
    units.run(db, rewards.create_reward, group_id=GROUP, user_id=ME, name="Cine", points=1, now=NOW)
    units.run(db, reward_requests.redeem, GatingMode.OFF, user_id=ME, reward_id=1, group_id=GROUP, now=NOW)


def missed_by_the_other(db: Database) -> None:
    """As well as ``rewarded``: a penalty of 2 in the group, and a daily chore of the other's left undone, found."""
    units.run(db, penalties.set_penalty, group_id=GROUP, user_id=ME, points=2, now=NOW)
    chore = units.run(db, task_service.create_task, creator=ME, description="Regar", group_id=GROUP,
                      assignees=(OTHER,), now=NOW, due=NOW.date())
    with db.write() as conn:  # a recurring occurrence: what the chores tick looks at
        conn.execute(update(schema.tasks).where(schema.tasks.c.id == chore.id)
                     .values(recurrence_rule="FREQ=DAILY", recurrence_text="cada día"))
    later = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    assert units.run_batched(db, penalties.MissedTick(now=later, zone=ZoneInfo("Europe/Madrid"))) == 1


def test_every_operation_has_a_sample() -> None:
    assert set(SAMPLES) == {route.operation_id for route in ROUTES}


SAMPLED_ROUTES = [route for route in ROUTES if not route.media.startswith("image/")]  # the photo: its own test


@pytest.mark.parametrize("route", SAMPLED_ROUTES, ids=lambda route: route.operation_id)
async def test_a_token_authenticates_each_endpoint_as_its_user(web: WebEnv, route: Any) -> None:
    made = await new_token(web)
    spare = await new_token(web, name="de sobra")
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,), due="2026-11-30")
    if route.operation_id == "tickTaskItem":  # a checklist to tick (SPEC section 41)
        task = units.run(web.db, task_service.create_task, creator=OTHER, description="Limpiar", group_id=GROUP,
                         assignees=(ME,), now=NOW, items=("horno", "nevera"))
    if route.path.startswith(("/api/groups/{id}/rewards", "/api/me/reward", "/api/me/approvals", "/api/reward",
                              "/api/groups/{id}/display", "/api/missed-chores")):
        rewarded(web.db)
    if route.path.startswith("/api/missed-chores"):
        missed_by_the_other(web.db)
    method, path, body = SAMPLES[route.operation_id]
    url = path.replace("{task}", str(task.id)).replace("{token}", str(spare["id"]))
    if isinstance(body, dict) and body.get("assignees"):
        body = body | {"assignees": [web.pid(OTHER)]}  # people by public id (SPEC section 32)
    sent = {"data": body, "headers": {"Content-Type": "text/csv"}} if isinstance(body, bytes) else {"json": body}
    status, answer, _ = await bearer(web, method, url, made["token"], **sent)
    assert status == route.status, answer
    if route.response is not None:
        check_documented(document(), route.path, method, status, answer)


async def test_a_token_acts_as_its_user_in_writes(web: WebEnv) -> None:
    made = await new_token(web)
    task = make_task(web.db, creator=OTHER, group_id=GROUP, due="2026-11-30")
    status, item, _ = await bearer(web, "POST", f"/api/tasks/{task.id}/complete", made["token"])
    assert (status, item["completed_by"], [p["id"] for p in item["assignees"]]) == (200, web.pid(ME), [web.pid(ME)])


async def test_a_token_switches_a_task_to_parts_and_completes_only_its_users_part(web: WebEnv) -> None:
    made = await new_token(web)
    task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME, OTHER), due="2026-11-30")
    status, item, _ = await bearer(web, "PATCH", f"/api/tasks/{task.id}", made["token"], json={"completion": "each"})
    assert (status, item["completion"]) == (200, "each")
    status, item, _ = await bearer(web, "POST", f"/api/tasks/{task.id}/complete", made["token"])
    parts = {p["id"]: p["done"] for p in item["assignees"]}
    assert (status, item["completed"], parts) == (200, False, {web.pid(ME): True, web.pid(OTHER): False})


class TestIsolation:
    async def test_a_token_of_one_user_never_reaches_anothers_tasks(self, web: WebEnv) -> None:
        mine = await new_token(web, ME)
        theirs = make_task(web.db, creator=OTHER, group_id=None, due="2026-11-30", description="Privada de otro")
        work = make_task(web.db, creator=OTHER, group_id=OTHER_GROUP, due="2026-11-30", description="Del trabajo")
        own = make_task(web.db, creator=ME, group_id=None, due="2026-11-30", description="Mía")
        _, listed, _ = await bearer(web, "GET", "/api/me/tasks", mine["token"])
        assert [item["id"] for item in listed["items"]] == [own.id]
        for task_id in (theirs.id, work.id):
            for action in ("claim", "complete", "unassign"):
                assert (await bearer(web, "POST", f"/api/tasks/{task_id}/{action}", mine["token"]))[0] == 404
            assert (await bearer(web, "PATCH", f"/api/tasks/{task_id}", mine["token"], json={"description": "x"})
                    )[0] == 404
        assert (await bearer(web, "GET", f"/api/groups/{OTHER_GROUP}/tasks", mine["token"]))[0] == 403

    async def test_a_token_cannot_revoke_or_see_another_users_tokens(self, web: WebEnv) -> None:
        mine, theirs = await new_token(web, ME), await new_token(web, OTHER, "suyo")
        assert (await bearer(web, "DELETE", f"/api/me/tokens/{theirs['id']}", mine["token"]))[0] == 404
        _, listed, _ = await bearer(web, "GET", "/api/me/tokens", mine["token"])
        assert [item["name"] for item in listed["items"]] == ["Home Assistant"]
        assert (await bearer(web, "GET", "/api/me/tasks", theirs["token"]))[0] == 200


class TestOneCredential:
    async def test_a_cookie_and_a_token_together_are_refused_with_400(self, web: WebEnv) -> None:
        made = await new_token(web)
        for token in (made["token"], "tsk_nonsense"):
            status, problem = await web.call("GET", "/api/me/tasks", headers={"Authorization": f"Bearer {token}"})
            assert (status, problem["type"]) == (400, "about:blank#ambiguous-credentials")
            assert "no los dos" in problem["detail"]

    @pytest.mark.parametrize("header", ["Basic dXNlcjpwYXNz", "Bearer", "Bearer   ", "tsk_abc", "Token x"])
    async def test_another_scheme_or_an_empty_token_is_401(self, web: WebEnv, header: str) -> None:
        async with web.client.get("/api/me/tasks", headers={"Authorization": header}) as response:
            assert (response.status, response.headers["WWW-Authenticate"][:6]) == (401, "Bearer")

    async def test_an_unknown_token_is_401(self, web: WebEnv) -> None:
        status, problem, _ = await bearer(web, "GET", "/api/me/tasks", "tsk_" + "Q" * 43)
        assert (status, problem["detail"]) == (401, "El token no es válido o se ha revocado.")

    async def test_the_pages_ignore_a_token(self, web: WebEnv) -> None:
        made = await new_token(web)
        async with web.client.get("/", headers={"Authorization": f"Bearer {made['token']}"}) as response:
            assert "Tus tareas, en el móvil" in await response.text()  # the sign-in help: pages need the cookie


class TestWritesByToken:
    async def test_the_token_shares_its_users_rate_limit_with_the_session(self, db: Database) -> None:
        make_group(db, GROUP, members=(ME,))
        async with web_env(db, RATE_LIMIT_PER_MIN="2") as web:
            made = await new_token(web)  # the session's write takes the first token of the bucket
            task = make_task(db, creator=ME, group_id=GROUP)
            assert (await bearer(web, "POST", f"/api/tasks/{task.id}/claim", made["token"]))[0] == 200
            status, problem, headers = await bearer(web, "POST", f"/api/tasks/{task.id}/claim", made["token"])
            assert (status, problem["type"], "Retry-After" in headers) == (429, "about:blank#rate-limited", True)
            assert (await web.call("POST", f"/api/tasks/{task.id}/claim"))[0] == 429

    async def test_a_body_sent_with_a_token_must_still_be_json(self, web: WebEnv) -> None:
        made = await new_token(web)
        status, problem, _ = await bearer(web, "POST", "/api/me/preferences", made["token"], data=b"freq=daily",
                                          headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert (status, problem["type"]) == (415, "about:blank#unsupported-media-type")


def test_the_openapi_document_declares_the_cookie_and_the_bearer_scheme() -> None:
    schemes = document()["components"]["securitySchemes"]
    assert schemes["session"] == {"type": "apiKey", "in": "cookie", "name": "tasksvc_session"}
    assert (schemes["bearer"]["type"], schemes["bearer"]["scheme"]) == ("http", "bearer")
    assert document()["security"] == [{"session": []}, {"bearer": []}]
    for item in document()["paths"].values():
        for operation in item.values():
            assert {"400", "401"} <= set(operation["responses"])
