"""Creating tasks from the web and listing a group's members, through the real app (SPEC section 23)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tests.builders import NOW, make_group
from tests.fakes.gateway import FakeGateway
from tests.integration.test_queue_worker import FAST, run_until_drained
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

THIRD = "34600000003"
PENDING_GROUP = "120363000000000002@g.us"
THEIR_GROUP = "120363000000000003@g.us"


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER), inactive=(THIRD,))
    with db.write() as conn:
        ensure_user(conn, ME, NOW, name="Ana")
        ensure_user(conn, OTHER, NOW, name="Bruno")
    async with web_env(db) as env:
        yield env


def queued(db: Database) -> list[dict[str, Any]]:
    q = schema.outbound_queue
    with db.read() as conn:
        rows = conn.execute(select(q.c.chat_id, q.c.label, q.c.task_id, q.c.payload).order_by(q.c.id)).all()
    return [{"chat_id": r.chat_id, "label": r.label, "task_id": r.task_id, "payload": json.loads(r.payload)}
            for r in rows]


def task_count(db: Database) -> int:
    with db.read() as conn:
        return len(conn.execute(select(schema.tasks.c.id)).all())


class TestPersonalTask:
    async def test_answers_201_with_the_item_assigned_to_its_creator_and_announces_nothing(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks", json={"description": "  Llamar\tal <b>médico</b> ",
                                                                  "due_date": "2026-11-30"})
        assert status == 201
        assert body == {
            "id": body["id"], "description": "Llamar al médico", "due_date": "2026-11-30", "group_id": None,
            "group_name": None, "completion": "any",
            "assignees": [{"id": web.pid(ME), "name": "Ana", "done": False, "done_at": None}],
            "created_by": web.pid(ME),
            "created_at": "2026-11-22T10:00:00Z", "completed": False, "completed_at": None, "completed_by": None,
            "recurrence": None, "points": 1, "nag": None, "photo_required": False, "proof": None,
            "items": []}
        assert queued(web.db) == []
        _, mine = await web.call("GET", "/api/me/tasks")
        assert [item["id"] for item in mine["items"]] == [body["id"]]

    @pytest.mark.parametrize("extra", [{}, {"group_id": None, "due_date": None, "assignees": []}])
    async def test_absent_or_null_fields_make_an_undated_personal_task(self, web: WebEnv,
                                                                       extra: dict[str, Any]) -> None:
        status, body = await web.call("POST", "/api/tasks", json={"description": "Pan", **extra})
        assert (status, body["group_id"], body["due_date"]) == (201, None, None)

    async def test_the_length_counts_once_sanitised_as_in_the_chat(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks", json={"description": "Pan" + " " * 2000 + "y leche"})
        assert (status, body["description"]) == (201, "Pan y leche")

    async def test_assignees_on_a_personal_task_are_a_422_naming_them(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks", json={"description": "Pan", "assignees": [web.pid(OTHER)]})
        assert status == 422
        assert [error["field"] for error in body["errors"]] == ["assignees"]
        assert task_count(web.db) == 0


class TestGroupTask:
    async def test_is_made_for_the_chosen_members_and_announced_in_the_group(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks", json={
            "description": "Sacar la basura", "due_date": "2026-11-25", "group_id": GROUP,
            "assignees": [web.pid(OTHER)]})
        assert status == 201
        assert (body["group_id"], body["group_name"], body["created_by"]) == (GROUP, "Familia", web.pid(ME))
        assert [person["id"] for person in body["assignees"]] == [web.pid(OTHER)]
        (job,) = queued(web.db)
        assert (job["chat_id"], job["label"], job["task_id"]) == (GROUP, "notice", body["id"])
        assert job["payload"]["text"] == (f"Ana ha creado la tarea #{body['id']} desde la web: Sacar la basura\n"
                                          f"Vence el 25/11. Para @{OTHER}.")
        assert job["payload"]["mentioned"] == [f"{OTHER}@s.whatsapp.net"]

    async def test_without_assignees_it_is_unassigned(self, web: WebEnv) -> None:
        status, body = await web.call("POST", "/api/tasks", json={"description": "Regar", "group_id": GROUP})
        assert (status, body["assignees"]) == (201, [])
        assert queued(web.db)[0]["payload"]["text"].endswith("desde la web: Regar\nSin asignar.")

    async def test_the_announcement_is_sent_and_linked_to_the_task(self, web: WebEnv, gateway: FakeGateway,
                                                                 client: EvolutionGateway) -> None:
        _, body = await web.call("POST", "/api/tasks", json={"description": "Regar", "group_id": GROUP})
        worker = QueueWorker(web.db, client, clock=SystemClock(), metrics=Metrics(), config=FAST)
        await run_until_drained(worker, web.db)
        assert gateway.sent_texts() == [f"Ana ha creado la tarea #{body['id']} desde la web: Regar\nSin asignar."]
        links = schema.task_messages
        with web.db.read() as conn:
            linked = conn.execute(select(links.c.task_id, links.c.chat_id)).all()
        assert [tuple(row) for row in linked] == [(body["id"], GROUP)]

    @pytest.mark.parametrize("who", [THIRD, "34699999999"])
    async def test_an_assignee_who_is_not_an_active_member_is_a_422(self, web: WebEnv, who: str) -> None:
        status, body = await web.call("POST", "/api/tasks", json={
            "description": "Pan", "group_id": GROUP, "assignees": [web.pid(OTHER), web.pid(who)]})
        assert status == 422
        assert [error["field"] for error in body["errors"]] == ["assignees"]
        assert (task_count(web.db), queued(web.db)) == (0, [])

    async def test_a_group_that_is_not_allowed_or_not_mine_is_a_403(self, web: WebEnv) -> None:
        make_group(web.db, PENDING_GROUP, status="pending", members=(ME,))
        make_group(web.db, THEIR_GROUP, members=(OTHER,), inactive=(ME,))
        for group in (PENDING_GROUP, THEIR_GROUP, "120363000000000009@g.us"):
            status, body = await web.call("POST", "/api/tasks", json={"description": "Pan", "group_id": group,
                                                                      "assignees": [web.pid(OTHER)]})
            assert (status, body["type"]) == (403, "about:blank#forbidden")
        assert task_count(web.db) == 0


class TestRefused:
    @pytest.mark.parametrize(("body", "field"), [
        ({"description": "Pan", "due_date": "30/11/2026"}, "due_date"),
        ({"description": "Pan", "due_date": "2026-02-30"}, "due_date"),
        ({"description": "   "}, "description"),
        ({"description": "<b></b>\u200b"}, "description"),
        ({"description": "x" * 1001}, "description"),
        ({}, "description"),
        ({"description": "Pan", "group_id": "familia"}, "group_id"),
        ({"description": "Pan", "group_id": GROUP, "assignees": ["+34 600 00 00 02"]}, "assignees.0"),
        ({"description": "Pan", "group_id": GROUP, "assignees": [OTHER]}, "assignees.0"),  # digits: not an id
        ({"description": "Pan", "colour": "red"}, "colour"),
    ])
    async def test_an_invalid_field_is_a_422_naming_it(self, web: WebEnv, body: dict[str, Any], field: str) -> None:
        status, answer = await web.call("POST", "/api/tasks", json=body)
        assert status == 422
        assert [error["field"] for error in answer["errors"]] == [field]
        assert task_count(web.db) == 0

    async def test_it_needs_a_session_and_json(self, web: WebEnv) -> None:
        assert (await web.call("POST", "/api/tasks", user=None, json={"description": "Pan"}))[0] == 401
        status, _ = await web.call("POST", "/api/tasks", data="description=Pan",
                                   headers={"Content-Type": "application/x-www-form-urlencoded"})
        assert status == 415
        assert task_count(web.db) == 0

    async def test_it_takes_a_token_from_the_write_bucket(self, db: Database) -> None:
        make_group(db, GROUP, members=(ME,))
        async with web_env(db, RATE_LIMIT_PER_MIN="1") as web:
            first = await web.call("POST", "/api/tasks", json={"description": "Uno"})
            second = await web.call("POST", "/api/tasks", json={"description": "Dos"})
        assert (first[0], second[0]) == (201, 429)
        assert task_count(db) == 1


class TestMembers:
    async def test_a_group_s_active_members_by_name(self, web: WebEnv) -> None:
        make_group(web.db, GROUP, members=("34600000004",))  # nameless: after the named ones
        status, body = await web.call("GET", f"/api/groups/{GROUP}/members")
        assert status == 200
        assert body == {"items": [{"id": web.pid(ME), "name": "Ana"}, {"id": web.pid(OTHER), "name": "Bruno"},
                                  {"id": web.pid("34600000004"), "name": None}]}

    async def test_are_gated_like_the_group_s_tasks(self, web: WebEnv) -> None:
        make_group(web.db, PENDING_GROUP, status="pending", members=(ME,))
        make_group(web.db, THEIR_GROUP, members=(OTHER,), inactive=(ME,))
        for group in (PENDING_GROUP, THEIR_GROUP, "nada"):
            assert (await web.call("GET", f"/api/groups/{group}/members"))[0] == 403
        assert (await web.call("GET", f"/api/groups/{GROUP}/members", user=None))[0] == 401
