"""Claim, unassign, complete and edit through the API; problem details; rate limit; reactions (SPEC section 6)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.model import Origin
from taskcore.services import tasks as svc
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW, make_group, make_task
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

PENDING_GROUP = "120363000000000002@g.us"
THEIR_GROUP = "120363000000000003@g.us"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, members=(ME, OTHER))
    async with web_env(db) as env:
        yield env


def assignee_ids(body: dict[str, Any]) -> list[str]:
    return [person["id"] for person in body["assignees"]]


class TestClaimAndUnassign:
    async def test_claim_adds_me_once_however_often_it_is_called(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(OTHER,))
        first = await web.call("POST", f"/api/tasks/{task.id}/claim")
        second = await web.call("POST", f"/api/tasks/{task.id}/claim")
        assert first[0] == second[0] == 200
        both = sorted([web.pid(OTHER), web.pid(ME)])
        assert sorted(assignee_ids(first[1])) == sorted(assignee_ids(second[1])) == both

    async def test_unassign_removes_me_and_repeating_it_is_harmless(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME, OTHER))
        first = await web.call("POST", f"/api/tasks/{task.id}/unassign")
        second = await web.call("POST", f"/api/tasks/{task.id}/unassign")
        assert first[0] == second[0] == 200
        assert assignee_ids(first[1]) == assignee_ids(second[1]) == [web.pid(OTHER)]


class TestComplete:
    async def test_complete_answers_the_task_with_completed_and_completed_at(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,))
        status, body = await web.call("POST", f"/api/tasks/{task.id}/complete")
        assert status == 200
        assert (body["completed"], body["completed_at"], body["completed_by"]) == (
            True, "2026-11-22T10:00:00Z", web.pid(ME))

    async def test_completing_twice_is_idempotent(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,))
        _, first = await web.call("POST", f"/api/tasks/{task.id}/complete")
        web.clock.advance(timedelta(minutes=5))
        status, second = await web.call("POST", f"/api/tasks/{task.id}/complete")
        assert (status, second) == (200, first)

    async def test_completing_an_unassigned_group_task_assigns_me_first(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP)
        _, body = await web.call("POST", f"/api/tasks/{task.id}/complete")
        assert assignee_ids(body) == [web.pid(ME)]

    async def test_any_active_member_may_complete_a_task_assigned_to_someone_else(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(OTHER,))
        status, body = await web.call("POST", f"/api/tasks/{task.id}/complete")
        assert (status, assignee_ids(body), body["completed_by"]) == (200, [web.pid(OTHER)], web.pid(ME))

    async def test_completing_a_personal_task_i_am_not_assigned_to_is_forbidden(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None)
        await web.call("POST", f"/api/tasks/{task.id}/unassign")
        status, body = await web.call("POST", f"/api/tasks/{task.id}/complete")
        assert (status, body["status"]) == (403, 403)


class TestEdit:
    async def test_patch_sets_the_due_date_and_keeps_the_description(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None, description="Pan")
        status, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"due_date": "2026-12-24"})
        assert (status, body["due_date"], body["description"]) == (200, "2026-12-24", "Pan")

    async def test_a_null_due_date_clears_it(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None, due="2026-12-24")
        _, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"due_date": None})
        assert body["due_date"] is None

    async def test_the_description_is_sanitised_to_plain_text(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None, due="2026-12-24")
        _, body = await web.call("PATCH", f"/api/tasks/{task.id}", json={"description": " <b>Leche</b>\n\n fresca "})
        assert (body["description"], body["due_date"]) == ("Leche fresca", "2026-12-24")

    @pytest.mark.parametrize(("body", "field"), [
        ({"due_date": "24/12/2026"}, "due_date"), ({"due_date": "2026-02-30"}, "due_date"),
        ({"due_date": 20261224}, "due_date"), ({"description": "<br>"}, "description"),
        ({"description": "x" * 1001}, "description"), ({"description": None}, "description"),
        ({"title": "x"}, "title")])
    async def test_an_invalid_field_is_a_422_naming_it(self, web: WebEnv, body: dict[str, Any], field: str) -> None:
        task = make_task(web.db, creator=ME, group_id=None)
        status, problem = await web.call("PATCH", f"/api/tasks/{task.id}", json=body)
        assert (status, [e["field"] for e in problem["errors"]]) == (422, [field])


ACTIONS = [("POST", "/claim", None), ("POST", "/unassign", None), ("POST", "/complete", None),
           ("PATCH", "", {"due_date": None})]


class TestGatingAndState:
    @pytest.mark.parametrize(("method", "suffix", "body"), ACTIONS)
    async def test_another_users_personal_task_does_not_exist_for_me(
        self, web: WebEnv, method: str, suffix: str, body: Any,
    ) -> None:
        task = make_task(web.db, creator=OTHER, group_id=None)
        status, problem = await web.call(method, f"/api/tasks/{task.id}{suffix}", json=body)
        assert (status, problem["status"]) == (404, 404)

    @pytest.mark.parametrize(("method", "suffix", "body"), ACTIONS)
    async def test_a_task_of_a_group_that_is_not_allowed_is_not_found(
        self, web: WebEnv, method: str, suffix: str, body: Any,
    ) -> None:
        make_group(web.db, PENDING_GROUP, status="pending", members=(ME, OTHER))
        task = make_task(web.db, creator=OTHER, group_id=PENDING_GROUP, assignees=(ME,))
        status, _ = await web.call(method, f"/api/tasks/{task.id}{suffix}", json=body)
        assert status == 404

    @pytest.mark.parametrize(("method", "suffix", "body"), ACTIONS)
    async def test_a_task_of_a_group_i_am_not_in_is_not_found(
        self, web: WebEnv, method: str, suffix: str, body: Any,
    ) -> None:
        make_group(web.db, THEIR_GROUP, members=(OTHER,), inactive=(ME,))
        task = make_task(web.db, creator=OTHER, group_id=THEIR_GROUP)
        status, _ = await web.call(method, f"/api/tasks/{task.id}{suffix}", json=body)
        assert status == 404

    @pytest.mark.parametrize(("method", "suffix", "body"), ACTIONS[:2] + ACTIONS[3:])
    async def test_changing_a_completed_task_is_a_conflict(self, web: WebEnv, method: str, suffix: str,
                                                           body: Any) -> None:
        task = make_task(web.db, creator=OTHER, group_id=GROUP, assignees=(ME,))
        units.run(web.db, svc.complete_task, GatingMode.ENFORCE, user_id=ME, task_id=task.id, now=NOW)
        status, problem = await web.call(method, f"/api/tasks/{task.id}{suffix}", json=body)
        assert (status, problem["status"]) == (409, 409)

    @pytest.mark.parametrize("task_id", ["999", "abc", "99999999999999999999999", "-1", "١"])
    async def test_a_task_that_does_not_exist_is_a_404_problem(self, web: WebEnv, task_id: str) -> None:
        status, problem = await web.call("POST", f"/api/tasks/{task_id}/claim")
        assert (status, problem["status"], problem["title"]) == (404, 404, "No encontrado")


class TestMalformedRequests:
    async def test_malformed_json_is_a_400(self, web: WebEnv) -> None:
        task = make_task(web.db, creator=ME, group_id=None)
        status, problem = await web.call("PATCH", f"/api/tasks/{task.id}", data=b"{nope",
                                         headers={"Content-Type": "application/json"})
        assert (status, problem["status"]) == (400, 400)

    @pytest.mark.parametrize("raw", [b"[]", b'"text"', b"42", b"null", b""])
    async def test_a_body_that_is_not_an_object_is_a_400(self, web: WebEnv, raw: bytes) -> None:
        status, _ = await web.call("POST", "/api/me/preferences", data=raw,
                                   headers={"Content-Type": "application/json"})
        assert status == 400

    @pytest.mark.parametrize("path", ["/api/me/preferences", "/api/tasks/1/complete"])
    async def test_a_body_that_is_not_json_is_a_415(self, web: WebEnv, path: str) -> None:
        status, problem = await web.call("POST", path, data="freq=daily",
                                         headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert (status, problem["status"]) == (415, 415)

    async def test_a_json_body_with_a_charset_is_accepted(self, web: WebEnv) -> None:
        status, _ = await web.call("POST", "/api/me/preferences", data=b'{"freq":"daily"}',
                                   headers={"Content-Type": "application/json; charset=utf-8"})
        assert status == 200

    async def test_problems_are_rfc_9457_problem_json(self, web: WebEnv) -> None:
        async with web.client.get("/api/me/tasks?page=x", headers=web.session_for()) as response:
            body = await response.json(content_type="application/problem+json")
        assert response.content_type == "application/problem+json"
        assert set(body) == {"type", "title", "status", "detail", "errors"}
        assert body["errors"] == [{"field": "page", "message": "debe ser un número entero"}]

    async def test_a_method_the_path_does_not_have_is_a_405_problem(self, web: WebEnv) -> None:
        status, problem = await web.call("DELETE", "/api/me/preferences")
        assert (status, problem["status"]) == (405, 405)


class TestRateLimit:
    async def test_writes_beyond_the_burst_get_429_with_retry_after(self, db: Database) -> None:
        make_group(db, GROUP, members=(ME,))
        async with web_env(db, RATE_LIMIT_PER_MIN="2") as web:
            headers = web.session_for()
            statuses = []
            for _ in range(3):
                async with web.client.post("/api/me/preferences", json={"freq": "off"}, headers=headers) as r:
                    statuses.append(r.status)
                    problem = await r.json(content_type=None)
            assert statuses == [200, 200, 429]
            assert r.headers["Retry-After"] == "30"
            assert problem["status"] == 429

    async def test_reads_take_no_token_and_each_user_has_a_bucket(self, db: Database) -> None:
        async with web_env(db, RATE_LIMIT_PER_MIN="1") as web:
            mine, theirs = web.session_for(ME), web.session_for(OTHER)
            for _ in range(3):
                async with web.client.get("/api/me/preferences", headers=mine) as r:
                    assert r.status == 200
            async with web.client.post("/api/me/preferences", json={"freq": "off"}, headers=mine) as r:
                assert r.status == 200
            async with web.client.post("/api/me/preferences", json={"freq": "off"}, headers=theirs) as r:
                assert r.status == 200

    async def test_a_refused_write_changes_nothing(self, db: Database) -> None:
        make_group(db, GROUP, members=(ME,))
        task = make_task(db, creator=ME, group_id=GROUP)
        async with web_env(db, RATE_LIMIT_PER_MIN="1") as web:
            await web.call("POST", "/api/me/preferences", json={"freq": "off"})
            status, _ = await web.call("POST", f"/api/tasks/{task.id}/complete")
        assert status == 429
        assert not units.look(db, svc.get_task, GatingMode.ENFORCE, user_id=ME, task_id=task.id).completed


def _reactions(db: Database) -> list[tuple[str, str | None]]:
    q = schema.outbound_queue
    with db.read() as conn:
        return [(row.kind, row.label) for row in conn.execute(select(q.c.kind, q.c.label))]


def _task_from_chat(db: Database, sent_days_ago: float) -> int:
    origin = Origin(GROUP, "MSG1", OTHER + "@s.whatsapp.net", NOW - timedelta(days=sent_days_ago))
    task = units.run(db, svc.create_task, creator=OTHER, description="Pan", group_id=GROUP, assignees=(ME,),
                     origin=origin,
                     now=NOW - timedelta(days=sent_days_ago))
    return task.id


class TestCompletionReaction:
    async def test_completing_queues_a_check_reaction_on_a_young_origin_message(self, db: Database) -> None:
        make_group(db, GROUP, members=(ME, OTHER))
        task_id = _task_from_chat(db, sent_days_ago=3)
        async with web_env(db, REACTIONS_ENABLED="true") as web:
            await web.call("POST", f"/api/tasks/{task_id}/complete")
            await web.call("POST", f"/api/tasks/{task_id}/complete")
        assert _reactions(db) == [("reaction", "check")]

    @pytest.mark.parametrize(("enabled", "days"), [("false", 3), ("true", 15)])
    async def test_no_reaction_when_disabled_or_the_message_is_too_old(self, db: Database, enabled: str,
                                                                       days: float) -> None:
        make_group(db, GROUP, members=(ME, OTHER))
        task_id = _task_from_chat(db, sent_days_ago=days)
        async with web_env(db, REACTIONS_ENABLED=enabled) as web:
            status, _ = await web.call("POST", f"/api/tasks/{task_id}/complete")
        assert (status, _reactions(db)) == (200, [])
