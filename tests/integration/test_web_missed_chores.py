"""Missed chores on the web (SPEC section 41): ``/api/me/approvals`` lists them for a group admin, the API applies
or excuses one (checked against the OpenAPI document), and the "Aprobaciones" page does the same with plain forms;
the person is told in the group, and an applied one lowers their balance."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import update

from taskcore.services import penalties, rewards
from taskcore.services import tasks as task_service
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import NOW
from tests.chat_support import queued
from tests.integration.test_web_rewards import ADMIN, call, earn, rewards_web
from tests.integration.test_web_task_form import browser
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    async with rewards_web(db) as env:
        yield env


def missed(db: Database, count: int = 1) -> None:
    """``count`` daily chores of Ana's (ME), left undone, found by the chores tick; a penalty of 2."""
    units.run(db, penalties.set_penalty, group_id=GROUP, user_id=ADMIN, points=2, now=NOW)
    for n in range(count):
        units.run(db, task_service.create_task, creator=ADMIN, description=f"regar {n}", group_id=GROUP,
                  assignees=(ME,), now=NOW, due=NOW.date())
        with db.write() as conn:  # a recurring occurrence: what the tick looks at
            conn.execute(update(schema.tasks).where(schema.tasks.c.description == f"regar {n}")
                         .values(recurrence_rule="FREQ=DAILY", recurrence_text="cada día"))
    later = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
    assert units.run_batched(db, penalties.MissedTick(now=later, zone=ZoneInfo("Europe/Madrid"))) == count


async def test_an_admin_sees_and_applies_a_missed_chore_through_the_api(web: WebEnv) -> None:
    earn(web.db, 5)
    missed(web.db)
    status, body = await call(web, "GET", "/api/me/approvals", "/api/me/approvals", user=ADMIN)
    assert status == 200
    [item] = body["missed"]  # type: ignore[index]
    assert (item["id"], item["description"], item["due_date"], item["points"], item["state"]) == (
        1, "regar 0", "2026-11-22", 2, "waiting")
    assert item["person"] == {"id": web.pid(ME), "name": "Ana"}
    assert (await web.call("GET", "/api/me/approvals", user=ME))[1]["missed"] == []
    status, _ = await call(web, "POST", "/api/missed-chores/1/apply", "/api/missed-chores/{id}/apply", user=OTHER)
    assert status == 403
    status, done = await call(web, "POST", "/api/missed-chores/1/apply", "/api/missed-chores/{id}/apply",
                              user=ADMIN)
    assert (status, done["state"]) == (200, "applied")  # type: ignore[index]
    assert queued(web.db)[-1].text == f"@{ME}, se aplicó la penalización por no hacer #2 «regar 0» (22/11): −2 puntos."
    assert units.look(web.db, rewards.balance, user_id=ME, group_id=GROUP).points == 3
    status, again = await call(web, "POST", "/api/missed-chores/1/apply", "/api/missed-chores/{id}/apply",
                               user=ADMIN)
    assert (status, again["detail"]) == (409, "La falta 1 ya estaba aplicada.")  # type: ignore[index]


async def test_an_excuse_through_the_api_takes_a_reason(web: WebEnv) -> None:
    missed(web.db)
    status, done = await call(web, "POST", "/api/missed-chores/1/excuse", "/api/missed-chores/{id}/excuse",
                              user=ADMIN, json={"reason": "estaba de viaje"})
    assert (status, done["state"], done["reason"]) == (200, "excused", "estaba de viaje")  # type: ignore[index]
    assert queued(web.db)[-1].text.endswith("no se te quita ningún punto. Motivo: estaba de viaje")
    status, _ = await call(web, "POST", "/api/missed-chores/99/excuse", "/api/missed-chores/{id}/excuse",
                           user=ADMIN, json={})
    assert status == 404


async def test_the_approvals_page_applies_and_excuses_with_its_forms(web: WebEnv) -> None:
    missed(web.db, 2)
    admin = browser(web, ADMIN)
    status, page = await admin.get("/aprobaciones")
    assert status == 200
    assert "Tareas no hechas" in page
    assert re.search(r"Ana no hizo «regar 0» \(22/11\)", page)
    assert 'action="/aprobaciones/faltas/1/aplicar"' in page
    check = await admin.check("/aprobaciones")
    status, _, location = await admin.post("/aprobaciones/faltas/1/aplicar", [("form_check", check)])
    assert (status, location) == (303, "/aprobaciones")
    status, _, location = await admin.post("/aprobaciones/faltas/2/excusar",
                                           [("form_check", check), ("reason", "enferma")])
    assert (status, location) == (303, "/aprobaciones")
    _, page = await admin.get("/aprobaciones")
    assert "Tareas no hechas" not in page
    status, page, _ = await admin.post("/aprobaciones/faltas/1/aplicar", [("form_check", check)])
    assert status == 409
    assert "La falta 1 ya estaba aplicada." in page
