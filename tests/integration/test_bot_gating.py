"""Group gating through the running bot (SPEC section 4): seeds at start, discovery notices, blocked groups."""

from __future__ import annotations

import pytest

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import group_status, member, queued, task_rows
from tests.integration.bot_harness import running_bot

ANA, ADMIN, ADMIN2 = "34600111111", "34699000001", "34699000002"
OTHER = "120363300000000099@g.us"


async def test_allowed_groups_are_seeded_at_start(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"ALLOWED_GROUPS": f"{GROUP}, {OTHER}", "GROUP_GATING_MODE": "enforce"}) as bot:
        await bot.send(wa_text("/t nueva pan"))
    assert (group_status(sqlite_db, GROUP), group_status(sqlite_db, OTHER)) == ("allowed", "allowed")
    assert len(task_rows(sqlite_db)) == 1


async def test_an_admins_block_survives_a_restart_with_the_group_still_in_allowed_groups(sqlite_db: Database) -> None:
    env = {"ALLOWED_GROUPS": GROUP, "GROUP_GATING_MODE": "enforce", "ADMIN_USERS": ADMIN}
    async with running_bot(sqlite_db, env) as bot:
        await bot.send(wa_text("/admin bloquear aquí", sender=ADMIN))
    async with running_bot(sqlite_db, env) as bot:
        assert await bot.send(wa_text("/t nueva pan")) == []
    assert group_status(sqlite_db, GROUP) == "blocked"
    assert task_rows(sqlite_db) == []


async def test_discover_mode_tells_each_admin_once_per_group_even_across_restarts(sqlite_db: Database) -> None:
    env = {"GROUP_GATING_MODE": "discover", "ADMIN_USERS": f"{ADMIN},{ADMIN2}"}
    async with running_bot(sqlite_db, env) as bot:
        first = await bot.send(wa_text("/t nueva pan"))
        again = await bot.send(wa_text("hola"))
        other = await bot.send(wa_text("hola", group=OTHER))
    async with running_bot(sqlite_db, env) as bot:
        after_restart = await bot.send(wa_text("hola"))
    assert sorted(j.chat_id for j in first) == [f"{ADMIN}@s.whatsapp.net", f"{ADMIN2}@s.whatsapp.net"]
    assert all(f"/admin permitir {GROUP}" in j.text and f"/admin bloquear {GROUP}" in j.text for j in first)
    assert (again, after_restart) == ([], [])
    assert len(other) == 2
    assert task_rows(sqlite_db) == []


async def test_a_pending_group_is_served_once_an_admin_allows_it(sqlite_db: Database) -> None:
    env = {"GROUP_GATING_MODE": "discover", "ADMIN_USERS": ADMIN}
    async with running_bot(sqlite_db, env) as bot:
        await bot.send(wa_text("hola"))
        await bot.send(wa_text(f"/admin permitir {GROUP}", sender=ADMIN, group=None))
        jobs = await bot.send(wa_text("/t nueva pan"))
    assert jobs[0].text == f"@{ANA} Tarea #1 creada: pan. Sin asignar"
    assert member(sqlite_db, GROUP, ANA).active


@pytest.mark.parametrize("mode", ["discover", "enforce"])
async def test_blocked_groups_get_no_reply_and_no_membership(sqlite_db: Database, mode: str) -> None:
    make_group(sqlite_db, GROUP, status="blocked")
    async with running_bot(sqlite_db, {"GROUP_GATING_MODE": mode}) as bot:
        assert await bot.send(wa_text("/t ver")) == []
    assert member(sqlite_db, GROUP, ANA) is None


async def test_enforce_mode_neither_records_nor_announces_unknown_groups(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"GROUP_GATING_MODE": "enforce", "ADMIN_USERS": ADMIN}) as bot:
        await bot.send(wa_text("/t nueva pan"))
    assert group_status(sqlite_db, GROUP) is None
    assert queued(sqlite_db) == []


async def test_private_commands_are_served_in_every_mode(sqlite_db: Database) -> None:
    async with running_bot(sqlite_db, {"GROUP_GATING_MODE": "enforce"}) as bot:
        jobs = await bot.send(wa_text("/t nueva llamar", group=None))
    assert jobs[0].text == "Tarea #1 creada: llamar"
