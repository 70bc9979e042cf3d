"""Points need someone else (SPEC section 38), webhook in, sends and API out: a task its completer created and held
alone earns its points only once another member of the group approves them (``/t aprobar``, listed by
``/t pendientes``); a task someone else made earns them at once."""

from __future__ import annotations

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.integration.bot_harness import Bot, running_bot
from tests.integration.web_helpers import WebEnv, web_env

ANA, BEA = "34600111111", "34600222222"
ENV = {"RATE_LIMIT_PER_MIN": "1000", "SENDS_PER_PERSON_PER_MIN": "100"}


async def said(bot: Bot, text: str, sender: str = ANA) -> str:
    jobs = [job for job in await bot.send(wa_text(text, sender=sender, push_name="Bea" if sender == BEA else "Ana"))
            if job.kind == "text"]
    assert len(jobs) == 1, jobs
    return jobs[0].text


async def balance(web: WebEnv, user: str) -> int:
    status, body = await web.call("GET", f"/api/groups/{GROUP}/rewards", user=user)
    assert status == 200, body
    return int(body["balance"])


async def test_points_a_person_gives_themselves_count_once_someone_else_approves_them(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with running_bot(sqlite_db, ENV) as bot, web_env(sqlite_db) as web:
        await said(bot, "/t nueva regar las plantas !10")
        done = await said(bot, "/t x 1")
        before = await balance(web, ANA)
        own = await said(bot, "/t aprobar 1")
        listed = await said(bot, "/t pendientes", sender=BEA)
        approved = await said(bot, "/t aprobar 1", sender=BEA)
        after = await balance(web, ANA)
        await said(bot, "/t nueva barrer !3 @" + BEA, sender=ANA)
        await said(bot, "/t x 2", sender=BEA)  # someone else's task: no approval needed
        theirs = await balance(web, BEA)
    assert done.endswith("\n⭐ Sus 10 puntos cuentan cuando otra persona del grupo los apruebe: /t aprobar 1")
    assert before == 0
    assert own == f"@{ANA} No puedes aprobar tus propios puntos de #1: lo hace otra persona del grupo."
    assert "⭐ Puntos por confirmar (tareas que alguien creó e hizo solo):\n• #1 «regar las plantas», de Ana " \
           "(10 puntos) → /t aprobar 1" in listed
    assert approved == f"@{BEA} ⭐ Puntos de #1 «regar las plantas» aprobados: 10 puntos para @{ANA}."
    assert (after, theirs) == (10, 3)


async def test_held_points_wait_on_the_approvals_page_and_in_the_api_of_the_others_only(sqlite_db: Database) -> None:
    make_group(sqlite_db, GROUP, members=(ANA, BEA))
    async with running_bot(sqlite_db, ENV) as bot, web_env(sqlite_db) as web:
        await said(bot, "/t nueva regar las plantas !10")
        await said(bot, "/t x 1")
        status, waiting = await web.call("GET", "/api/me/approvals", user=BEA)
        _, own = await web.call("GET", "/api/me/approvals", user=ANA)
        async with web.client.get("/aprobaciones", headers=web.session_for(BEA)) as answer:
            page = await answer.text()
        await said(bot, "/t aprobar 1", sender=BEA)
        _, after = await web.call("GET", "/api/me/approvals", user=BEA)
    assert status == 200
    [held] = waiting["points"]
    assert {k: held[k] for k in ("task_id", "group_id", "description", "completer_name", "points")} == {
        "task_id": 1, "group_id": GROUP, "description": "regar las plantas", "completer_name": "Ana", "points": 10}
    assert held["since"].endswith("Z")
    assert own["points"] == []  # never the completer's
    assert after["points"] == []  # gone once approved
    assert "1 cosa espera tu aprobación" in page
    assert 'id="points-list"' in page
    assert "regar las plantas" in page
    assert "/t aprobar 1" in page
    assert ANA not in page  # the completer by name, never by number
