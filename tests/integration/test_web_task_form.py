"""The pages' form to add a task, without script (SPEC section 23): "Mis tareas" and a group page post to themselves,
the use case of POST /api/tasks runs, 303 back to the page; a refusal is the page again with the reason, in the
person's language; a form without the page's check, or from another site, changes nothing."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.services.languages import choose_language
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tests.builders import NOW, make_group
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, web_env

ENGLISH = "34600000009"
THEIR_GROUP = "120363000000000003@g.us"
CHECK = re.compile(r'name="form_check" value="([0-9a-f]{64})"')


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Familia", members=(ME, OTHER, ENGLISH))
    make_group(db, THEIR_GROUP, name="Vecinos", members=(OTHER,))
    with db.write() as conn:
        ensure_user(conn, ME, NOW, name="Ana")
        ensure_user(conn, OTHER, NOW, name="Bruno")
    units.run(db, choose_language, user_id=ENGLISH, lang="en", default="es", now=NOW)
    async with web_env(db) as env:
        yield env


@dataclass
class Browser:
    """One signed-in session: the page's check read from the page, as a browser would submit it."""

    web: WebEnv
    cookie: dict[str, str]

    async def get(self, path: str) -> tuple[int, str]:
        async with self.web.client.get(path, headers=self.cookie, allow_redirects=False) as response:
            return response.status, await response.text()

    async def check(self, path: str) -> str:
        found = CHECK.search((await self.get(path))[1])
        assert found is not None, "the page has no form check"
        return found.group(1)

    async def post(self, path: str, fields: Any, **headers: str) -> tuple[int, str, str | None]:
        async with self.web.client.post(path, data=fields, headers={**self.cookie, **headers},
                                        allow_redirects=False) as response:
            return response.status, await response.text(), response.headers.get("Location")

    async def submit(self, path: str, **fields: Any) -> tuple[int, str, str | None]:
        sent = [("form_check", await self.check(path))]
        for name, value in fields.items():
            sent += [(name, item) for item in value] if isinstance(value, list) else [(name, value)]
        return await self.post(path, sent)


def browser(web: WebEnv, user: str = ME) -> Browser:
    return Browser(web, web.session_for(user))


def tasks(db: Database) -> list[dict[str, Any]]:
    t, ta = schema.tasks, schema.task_assignments
    with db.read() as conn:
        rows = conn.execute(select(t.c.id, t.c.description, t.c.group_id, t.c.due_date).order_by(t.c.id)).all()
        people = conn.execute(select(ta.c.task_id, ta.c.user_id)).all()
    return [{"description": r.description, "group_id": r.group_id, "due": str(r.due_date) if r.due_date else None,
             "assignees": sorted(p.user_id for p in people if p.task_id == r.id)} for r in rows]


def announcements(db: Database) -> list[str]:
    q = schema.outbound_queue
    with db.read() as conn:
        return [row.chat_id for row in conn.execute(select(q.c.chat_id)).all()]


class TestMisTareas:
    async def test_a_personal_task_is_created_and_shown_back_on_the_page(self, web: WebEnv) -> None:
        me = browser(web)
        status, _, location = await me.submit("/", description="  Pedir cita al <b>dentista</b> ",
                                              due_date="2026-11-30", group="")
        assert (status, location) == (303, "/")
        assert tasks(web.db) == [{"description": "Pedir cita al dentista", "group_id": None, "due": "2026-11-30",
                                  "assignees": [ME]}]
        assert announcements(web.db) == []
        html = (await me.get("/"))[1]
        assert "Pedir cita al dentista" in html
        assert "Vence el 30/11" in html

    async def test_a_task_in_a_chosen_group_is_mine_and_announced_there(self, web: WebEnv) -> None:
        me = browser(web)
        status, _, location = await me.submit("/", description="Sacar la basura", due_date="", group=GROUP)
        assert (status, location) == (303, "/")
        assert tasks(web.db) == [{"description": "Sacar la basura", "group_id": GROUP, "due": None,
                                  "assignees": [ME]}]
        assert announcements(web.db) == [GROUP]
        assert "Sacar la basura" in (await me.get("/"))[1]

    async def test_the_group_select_offers_my_groups_only(self, web: WebEnv) -> None:
        html = (await browser(web).get("/"))[1]
        assert f'<option value="{GROUP}">Familia</option>' in html
        assert THEIR_GROUP not in html

    async def test_an_empty_description_is_the_page_again_with_the_reason(self, web: WebEnv) -> None:
        status, html, _ = await browser(web).submit("/", description="   ", due_date="2026-11-30")
        assert status == 422
        assert "<h1>Mis tareas</h1>" in html
        assert '<details class="new-task" open>' in html
        assert 'role="alert">La descripción está vacía.</p>' in html
        assert 'value="2026-11-30"' in html  # what was typed stays
        assert "application/problem+json" not in html
        assert tasks(web.db) == []

    @pytest.mark.parametrize("due", ["2026-02-30", "30/11/2026", "mañana"])
    async def test_a_bad_date_is_refused_on_the_page(self, web: WebEnv, due: str) -> None:
        status, html, _ = await browser(web).submit("/", description="Llamar", due_date=due)
        assert status == 422
        assert "La fecha no es válida: elígela en el calendario (AAAA-MM-DD)." in html
        assert ">Llamar</textarea>" in html
        assert tasks(web.db) == []

    async def test_the_reason_is_in_the_persons_language(self, web: WebEnv) -> None:
        status, html, _ = await browser(web, ENGLISH).submit("/", description="", due_date="")
        assert status == 422
        assert "<h1>My tasks</h1>" in html
        assert ">New task</summary>" in html
        assert "La descripción" not in html
        assert 'role="alert">The description is empty.</p>' in html

    async def test_a_group_i_am_not_in_is_forbidden(self, web: WebEnv) -> None:
        status, _, _ = await browser(web).submit("/", description="Colarme", group=THEIR_GROUP)
        assert status == 403
        assert tasks(web.db) == []


class TestGroupPage:
    async def test_a_task_for_the_members_ticked_goes_back_to_the_group(self, web: WebEnv) -> None:
        me = browser(web)
        status, _, location = await me.submit(f"/grupos/{GROUP}", description="Regar",
                                            assignee=[web.pid(OTHER), web.pid(ME)])
        assert (status, location) == (303, f"/grupos/{GROUP}")
        assert tasks(web.db) == [{"description": "Regar", "group_id": GROUP, "due": None,
                                  "assignees": sorted([ME, OTHER])}]
        assert announcements(web.db) == [GROUP]
        assert "Regar" in (await me.get(f"/grupos/{GROUP}"))[1]

    async def test_nobody_ticked_leaves_it_unassigned(self, web: WebEnv) -> None:
        status, _, _ = await browser(web).submit(f"/grupos/{GROUP}", description="Pintar la valla")
        assert status == 303
        assert tasks(web.db)[0]["assignees"] == []

    async def test_the_members_are_offered_by_name(self, web: WebEnv) -> None:
        html = (await browser(web).get(f"/grupos/{GROUP}"))[1]
        assert f'name="assignee" value="{web.pid(OTHER)}"> Bruno</label>' in html
        assert f'name="assignee" value="{web.pid(ME)}"> Ana</label>' in html

    async def test_someone_outside_the_group_is_refused_on_the_page(self, web: WebEnv) -> None:
        status, html, _ = await browser(web).submit(f"/grupos/{GROUP}", description="Regar",
                                                    assignee="34699999999")
        assert status == 422
        assert "<h1>Familia</h1>" in html
        assert "No es miembro activo del grupo: 34699999999." in html
        assert tasks(web.db) == []

    async def test_a_group_page_i_am_not_in_cannot_post(self, web: WebEnv) -> None:
        me = browser(web)
        status, _, _ = await me.post(f"/grupos/{THEIR_GROUP}", {"form_check": await me.check("/"),
                                                                 "description": "Colarme"})
        assert status == 403
        assert tasks(web.db) == []


class TestForgery:
    async def test_a_form_without_the_pages_check_changes_nothing(self, web: WebEnv) -> None:
        status, html, _ = await browser(web).post("/", {"description": "De otro sitio"})
        assert status == 403
        assert "recarga la página" in html
        assert tasks(web.db) == []

    async def test_another_sessions_check_does_not_pass(self, web: WebEnv) -> None:
        theirs = await browser(web, OTHER).check("/")
        status, _, _ = await browser(web).post("/", {"form_check": theirs, "description": "De otro sitio"})
        assert status == 403
        assert tasks(web.db) == []

    async def test_a_form_sent_from_another_origin_changes_nothing(self, web: WebEnv) -> None:
        me = browser(web)
        fields = {"form_check": await me.check("/"), "description": "De otro sitio"}
        status, _, _ = await me.post("/", fields, Origin="https://evil.example")
        assert status == 403
        assert (await me.post("/", fields, **{"Sec-Fetch-Site": "cross-site"}))[0] == 403
        assert (await me.post("/", fields, **{"Sec-Fetch-Site": "same-site"}))[0] == 403
        assert tasks(web.db) == []
        host = f"{web.client.host}:{web.client.port}"
        assert (await me.post("/", fields, Origin=f"http://{host}"))[0] == 303
        assert (await me.post("/", fields, Origin="null"))[0] == 303  # as under Referrer-Policy: no-referrer
        assert (await me.post("/", fields, Origin="null", **{"Sec-Fetch-Site": "same-origin"}))[0] == 303
        assert len(tasks(web.db)) == 3

    async def test_a_visitor_is_sent_home(self, web: WebEnv) -> None:
        async with web.client.post("/", data={"description": "x"}, allow_redirects=False) as response:
            assert (response.status, response.headers["Location"]) == (303, "/")
        assert tasks(web.db) == []
