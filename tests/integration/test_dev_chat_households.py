"""The simulator plays every household (SPEC section 39), over each local gateway (`tasksvc dev`, `--gateway waha`):
it creates a group (its name, members, phone or LID addressing) the bot joins as the gateway tells it, makes a member
a group admin, adds someone to a group, writes as a person known only by a LID, and speaks the writer's language."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from typing import Any

from sqlalchemy import select

from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run.devgateway.households import lid_of
from tests.builders import GROUP
from tests.integration.test_dev_chat_conversation import ANA, BEA, Page, page

__all__ = ["page"]  # the fixture, over each gateway

BRUNA, KIM_LID = "5521987654321", "123456789012345"


async def call(page: Page, action: str, body: dict[str, Any]) -> tuple[int, dict[str, Any]]:
    async with page.session.post(f"{page.local.url}/dev/chat/api/{action}", json=body) as answer:
        return answer.status, await answer.json()


async def state(page: Page) -> dict[str, Any]:
    async with page.session.get(f"{page.local.url}/dev/chat/api/state") as answer:
        return dict(await answer.json())


async def until(check: Callable[[], bool]) -> None:
    """Wait (bounded) until the database shows what the bot did."""
    async with asyncio.timeout(10):
        for _ in range(500):  # the database is polled: no event says when the bot wrote it
            if check():
                return
            await asyncio.sleep(0.02)
    raise AssertionError("not seen within 10 s")


def db_of(page: Page) -> Database:
    assert page.local.db is not None
    return page.local.db


def group_named(db: Database, name: str) -> str | None:
    g = schema.groups
    with db.read() as conn:
        return conn.execute(select(g.c.id).where(g.c.name == name)).scalar_one_or_none()


def members(db: Database, group_id: str) -> dict[str, bool]:
    m = schema.group_members
    with db.read() as conn:
        rows = conn.execute(select(m.c.user_id, m.c.is_admin).where(m.c.group_id == group_id, m.c.active.is_(True)))
        return {user: bool(admin) for user, admin in rows}


async def test_a_group_made_in_the_simulator_is_joined_named_and_served_in_its_people_s_languages(
        page: Page) -> None:
    status, made = await call(page, "group", {"name": "Casa Rio", "members": [ANA, BRUNA], "admins": [BRUNA],
                                              "addressing": "pn"})
    assert status == 200, made
    db = db_of(page)
    await until(lambda: group_named(db, "Casa Rio") == made["id"])
    await until(lambda: members(db, made["id"]).get(BRUNA) is True)
    assert members(db, made["id"]).get(ANA) is False
    listed = await state(page)
    assert {"id": made["id"], "name": "Casa Rio"} in [{"id": g["id"], "name": g["name"]} for g in listed["groups"]]
    assert await page.post("send", user=ANA, name="Ana", chat=made["id"], text="/admin permitir aquí") == 200
    await page.until(lambda m: m.get("chat") == made["id"] and m["direction"] == "out")
    assert await page.post("send", user=BRUNA, name="Bruna", chat=made["id"], text="/t nova lavar a louça") == 200
    created = await page.until(lambda m: "Tarefa #1 criada" in m.get("text", ""))
    assert created["chat"] == made["id"]
    assert {user["id"]: user["lang"] for user in (await state(page))["users"]}[BRUNA] == "pt"


async def test_a_lid_addressed_group_and_a_person_known_only_by_a_lid(page: Page) -> None:
    status, kim = await call(page, "person", {"lid": KIM_LID, "name": "Kim"})
    assert (status, kim) == (200, {"user": f"{KIM_LID}@lid", "name": "Kim", "lang": "es"})
    status, made = await call(page, "group", {"name": "Flat", "members": [ANA, kim["user"]], "admins": [],
                                              "addressing": "lid"})
    assert status == 200, made
    db = db_of(page)
    await until(lambda: len(members(db, made["id"])) == 2)  # Ana by her number (shown beside her LID), and Kim
    assert ANA in members(db, made["id"])
    assert await page.post("send", user=ANA, name="Ana", chat=made["id"], text="/admin permitir aquí") == 200
    await page.until(lambda m: m.get("chat") == made["id"] and m["direction"] == "out")
    assert await page.post("send", user=kim["user"], name="Kim", chat=made["id"], text="/t nueva regar") == 200
    await page.until(lambda m: "Tarea #1 creada" in m.get("text", "") and m.get("chat") == made["id"])
    said = [m for m in page.local.transcript if m["direction"] == "in" and m.get("name") == "Ana"]
    assert said[0]["from"] == lid_of(ANA)  # in a LID group Ana writes as her LID
    assert kim["user"] in [user["id"] for user in (await state(page))["users"]]


async def test_a_member_is_made_admin_and_someone_is_added(page: Page) -> None:
    db = db_of(page)
    assert members(db, GROUP) == {ANA: False, BEA: False}
    status, _ = await call(page, "members", {"chat": GROUP, "user": BEA, "action": "promote"})
    assert status == 200
    await until(lambda: members(db, GROUP).get(BEA) is True)
    status, _ = await call(page, "members", {"chat": GROUP, "user": BRUNA, "action": "add"})
    assert status == 200
    await until(lambda: BRUNA in members(db, GROUP))
    status, refused = await call(page, "members", {"chat": "999@g.us", "user": BEA, "action": "promote"})
    assert status == 422, refused


async def test_the_page_carries_its_words_in_every_language(page: Page) -> None:
    async with page.session.get(f"{page.local.url}/dev/chat") as answer:
        html = await answer.text()
    start = html.index("const TEXTS = ") + len("const TEXTS = ")
    texts = json.JSONDecoder().raw_decode(html[start:])[0]
    assert (texts["es"]["who"], texts["pt"]["who"], texts["en"]["who"]) == ("Quién escribe", "Quem escreve",
                                                                            "Who is writing")
    assert texts["en"]["make_admin"] == "Make the person writing a group admin"


async def test_bad_household_acts_are_refused(page: Page) -> None:
    assert (await call(page, "group", {"name": "", "members": [ANA]}))[0] == 422
    assert (await call(page, "group", {"name": "X", "members": ["nope"]}))[0] == 422
    assert (await call(page, "group", {"name": "X", "members": [ANA], "addressing": "both"}))[0] == 422
    assert (await call(page, "person", {"lid": "12", "name": "Kim"}))[0] == 422
