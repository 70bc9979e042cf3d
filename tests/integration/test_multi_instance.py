"""Two complete bot+web pairs (four OS processes) on one PostgreSQL schema and one fake gateway (SPEC section 13).

The same webhook events reach both bots, and each bot gets commands of its own; a sign-in link redeemed on one web
process signs in on the other. Then: every queued message was sent exactly once, every reminder slot once, no
discovery notice twice, and each scheduled job ran in one instance at a time.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from urllib.parse import unquote
from zoneinfo import ZoneInfo

import aiohttp
import pytest
from sqlalchemy import select

from taskcore.services import preferences
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import make_group, make_task, wa_text
from tests.fakes.gateway import FakeGateway, sample_groups, wire_body
from tests.integration.multi_instance import (
    Instance,
    JobRun,
    base_environment,
    free_port,
    fresh_schema,
    instances,
    job_runs,
    overlapping,
    postgres_url,
    run_command,
    until,
)

ZONE = "Europe/Madrid"
U1, U2 = "34600000011", "34600000012"
ADMINS = ("34600000091", "34600000092")
HOME = "120363300000000050@g.us"  # allowed before the start
NEW = "120363300000000060@g.us"  # unknown: discovered by the first group sync
DISCOVERED = ("120363300000000010@g.us", "15550100007-1600000000@g.us", NEW)  # the samples' chat groups and NEW
REMINDER = "⏰ Recordatorio"
MEMBER_SYNC_INTERVAL = timedelta(seconds=2)
SETTLE_SECONDS = 1.5  # after everything is sent, a late duplicate would show within this


def participant(user: str) -> dict[str, Any]:
    return {"id": f"19876543{user[-7:]}@lid", "phoneNumber": f"{user}@s.whatsapp.net", "admin": None}


def group_entry(group_id: str, subject: str, members: tuple[str, ...]) -> dict[str, Any]:
    return {"id": group_id, "subject": subject, "subjectOwner": None, "subjectTime": 1736000000, "pictureUrl": None,
            "size": len(members), "creation": 1736000000, "owner": None, "restrict": False, "announce": False,
            "isCommunity": False, "isCommunityAnnounce": False, "participants": [participant(m) for m in members]}


@pytest.fixture
def database_url() -> Any:
    with fresh_schema(postgres_url()) as url:
        yield url


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    groups = [*sample_groups(), group_entry(HOME, "Casa", (U1, U2)), group_entry(NEW, "Vecinos", (U1,))]
    async with FakeGateway(groups=groups) as gw:
        yield gw


def environment(database_url: str, gateway: FakeGateway, web_base_url: str) -> dict[str, str]:
    """What every process gets (nothing else from the test run's own environment)."""
    return {
        **base_environment(), "NODE_ENV": "test", "FORCE_SCHEDULERS": "true", "LOG_FORMAT": "json", "TZ": ZONE,
        "LOG_LEVEL": "debug",  # the "scheduled job ran" lines are debug
        "DATABASE_URL": database_url, "WEB_BASE_URL": web_base_url,
        "GATEWAY_API_URL": gateway.url, "GATEWAY_API_INSTANCE": "taskbot", "GATEWAY_API_KEY": "test-api-key",
        "GATEWAY_TIMEOUT_MS": "3000", "RQ_BACKOFF_BASE_MS": "100", "RQ_BACKOFF_MAX_MS": "500",
        "GATEWAY_MAX_SENDS_PER_MIN": "60000",
        "GROUP_GATING_MODE": "discover", "ADMIN_USERS": ",".join(ADMINS), "NOTIFY_ADMINS_ON_DISCOVERY": "true",
        "REACTIONS_ENABLED": "true",
        "GROUP_SYNC_INTERVAL_MS": "60000",  # so that the runs after "/admin sync" are the ones it asked for
        "GROUP_MEMBERS_SYNC_INTERVAL_MS": str(int(MEMBER_SYNC_INTERVAL.total_seconds() * 1000)),
    }


def seed(database_url: str) -> None:
    """The allowed group with both users, a task due today for each, and a daily reminder due two minutes ago."""
    db = Database.from_url(database_url)
    now = datetime.now(UTC)
    local = now.astimezone(ZoneInfo(ZONE))
    make_group(db, HOME, name="Casa", members=(U1, U2), now=now)
    for user, description in ((U1, "pagar la luz"), (U2, "sacar la basura")):
        make_task(db, creator=user, group_id=HOME, description=description, due=local.date().isoformat(),
                  assignees=(user,), now=now)
        units.run(db, preferences.set_preference, user_id=user, freq="daily",
                  time=(local - timedelta(minutes=2)).strftime("%H:%M"), now=now)
    db.dispose()


def scheduled_member_syncs(runs: list[JobRun]) -> list[JobRun]:
    """The member syncs run on schedule (not at start nor by "/admin sync")."""
    return [run for run in runs if run.job == "member_sync" and run.trigger == "schedule"]


def event(text: str, *, sender: str, message_id: str, group: str | None = HOME) -> dict[str, object]:
    return wa_text(text, sender=sender, group=group, message_id=message_id, timestamp=int(time.time()),
                   push_name=f"User {sender[-2:]}")


async def post(session: aiohttp.ClientSession, bot: Instance, payload: object) -> None:
    async with session.post(f"{bot.url}/webhook", json=payload) as response:
        assert response.status == 200, await response.text()


def rows(db: Database, table: Any) -> list[Any]:
    with db.read() as conn:
        return list(conn.execute(select(table)).all())


def canonical(body: object) -> str:
    return json.dumps(body, sort_keys=True, ensure_ascii=False)


def sends(gateway: FakeGateway) -> list[Any]:
    return [call for call in gateway.calls if call.route in ("sendText", "sendReaction")]


def texts_to(gateway: FakeGateway, user: str) -> list[str]:
    return [c.body["text"] for c in gateway.calls_to("sendText") if c.body["number"] == f"{user}@s.whatsapp.net"]


def task_id(db: Database, description: str) -> int | None:
    ids = [r.id for r in rows(db, schema.tasks) if r.description == description]
    assert len(ids) <= 1, f"{description!r} was created {len(ids)} times"
    return ids[0] if ids else None


def everything_sent(db: Database, gateway: FakeGateway) -> bool:
    queued = rows(db, schema.outbound_queue)
    notices = sum(f"/admin permitir {g}" in t for a in ADMINS for t in texts_to(gateway, a) for g in DISCOVERED)
    reminders = sum(t.startswith(REMINDER) for u in (U1, U2) for t in texts_to(gateway, u))
    return bool(queued) and all(r.status == "sent" for r in queued) and notices >= 6 and reminders >= 2


async def sign_in_on_one_web_and_complete_on_the_other(
    webs: list[Instance], gateway: FakeGateway, db: Database
) -> int:
    """Redeem U1's link on the first web process, then claim and complete #task on the second: the reaction's task."""
    await gateway.wait_for(lambda gw: any("login?token=" in t for t in texts_to(gw, U1)), within=20)
    link = next(t for t in texts_to(gateway, U1) if "login?token=" in t)
    token = unquote(re.search(r"login\?token=(\S+)", link).group(1))  # type: ignore[union-attr]
    await until(lambda: task_id(db, "comprar pan") is not None, within=20, what="the shared command's task")
    done = task_id(db, "comprar pan")
    async with aiohttp.ClientSession() as session:
        async with session.get(f"{webs[0].url}/login", params={"token": token}, allow_redirects=False) as response:
            assert response.status == 303
            cookie = {"Cookie": f"tasksvc_session={response.cookies['tasksvc_session'].value}"}
        async with session.get(f"{webs[1].url}/api/me/tasks", headers=cookie) as response:
            assert response.status == 200, (await response.text(), webs[1].errors())
            assert task_id(db, "pagar la luz") in [task["id"] for task in (await response.json())["items"]]
        async with session.post(f"{webs[1].url}/api/tasks/{done}/claim", headers=cookie, json={}) as response:
            assert response.status in (200, 409), (await response.text(), webs[1].errors())
        async with session.post(f"{webs[1].url}/api/tasks/{done}/complete", headers=cookie, json={}) as response:
            assert response.status == 200, (await response.text(), webs[1].errors())
    assert done is not None
    return done


async def test_two_bot_and_web_pairs_on_one_postgresql_send_everything_exactly_once(
    database_url: str, gateway: FakeGateway, tmp_path: Path
) -> None:
    web_ports = [free_port(), free_port()]
    env = environment(database_url, gateway, f"http://127.0.0.1:{web_ports[0]}")
    status, log = await run_command(["migrate"], env)
    assert status == 0, log
    await asyncio.to_thread(seed, database_url)
    specs: list[tuple[str, str, Mapping[str, str]]] = [
        *(("bot", f"bot{n}", {**env, "BOT_PORT": str(free_port())}) for n in (1, 2)),
        *(("web", f"web{n}", {**env, "WEB_PORT": str(port)}) for n, port in enumerate(web_ports, start=1)),
    ]
    db = Database.from_url(database_url)
    try:
        async with instances(specs, tmp_path) as (bot1, bot2, web1, web2):
            shared = [event("/t nueva comprar pan hoy", sender=U1, message_id="MULTI-E1"),
                      event("/t nueva regar las plantas", sender=U2, message_id="MULTI-E2")]
            async with aiohttp.ClientSession() as session:
                for payload in shared:  # both bots at once: the de-dup must hold across instances
                    await asyncio.gather(post(session, bot1, payload), post(session, bot2, payload))
                await post(session, bot1, event("/t web", sender=U1, message_id="MULTI-A1"))
                await post(session, bot1, event("/t ver", sender=U1, message_id="MULTI-A2"))
                await post(session, bot2, event("/t ver", sender=U2, message_id="MULTI-B1"))
                await post(session, bot2, event("/admin sync", sender=ADMINS[0], group=None, message_id="MULTI-B2"))
            completed = await sign_in_on_one_web_and_complete_on_the_other([web1, web2], gateway, db)
            await gateway.wait_for(lambda gw: any(
                c.body["key"]["id"] == "MULTI-E1" for c in gw.calls_to("sendReaction")), within=20)
            await until(lambda: everything_sent(db, gateway), within=25, what="every queued message sent")
            await until(lambda: len(scheduled_member_syncs(job_runs([bot1, bot2]))) >= 3, within=15,
                        what="three scheduled member syncs")
            await asyncio.sleep(SETTLE_SECONDS)
            queued, sent = rows(db, schema.outbound_queue), sends(gateway)
            deliveries, leases = rows(db, schema.reminder_deliveries), rows(db, schema.job_leases)
            created = task_id(db, "comprar pan"), task_id(db, "regar las plantas")
            bot1_pid, bot2_pid = bot1.proc.pid, bot2.proc.pid
        statuses = [instance.proc.returncode for instance in (bot1, bot2, web1, web2)]
        errors = [line for instance in (bot1, bot2, web1, web2) for line in instance.errors()]
        runs = job_runs([bot1, bot2])
    finally:
        db.dispose()

    # Every queued message was sent, and the gateway got each one exactly once.
    assert {row.status for row in queued} == {"sent"}
    # (A login link's row keeps a placeholder once sent, SPEC 16: those are matched by count.)
    links = [call for call in sent if "/login?token=" in call.body.get("text", "")]
    assert Counter(canonical(call.body) for call in sent if call not in links) == Counter(
        canonical(wire_body(json.loads(r.payload))) for r in queued if r.label != "login")
    assert len(links) == len([r for r in queued if r.label == "login"]) >= 1
    assert all(json.loads(r.payload) == {"text": "[enlace de acceso retirado]"} for r in queued if r.label == "login")
    # The events posted to both bots were handled once.
    assert created[0] == completed
    assert created[1] is not None
    assert [c.body["quoted"]["key"]["id"] for c in gateway.calls_to("sendText")
            if "quoted" in c.body].count("MULTI-E1") == 1
    # Every reminder slot once: one delivery row and one direct message per user.
    assert Counter(row.user_id for row in deliveries) == {U1: 1, U2: 1}
    assert {u: sum(t.startswith(REMINDER) for t in texts_to(gateway, u)) for u in (U1, U2)} == {U1: 1, U2: 1}
    # No discovery notice twice: one per admin and discovered group, none for the allowed group.
    for admin in ADMINS:
        notices = [t for t in texts_to(gateway, admin) if "/admin permitir" in t]
        assert sorted(g for t in notices for g in DISCOVERED if f"/admin permitir {g}" in t) == sorted(DISCOVERED)
        assert not any(HOME in t for t in notices)
    # Each scheduled job ran in one instance at a time, under leases owned by the two bot processes.
    assert overlapping(runs) == []
    reminder_minutes = Counter(run.started.replace(second=0, microsecond=0) for run in runs if run.job == "reminders")
    assert set(reminder_minutes.values()) == {1}, reminder_minutes  # each minute's tick in one instance only
    assert sum(run.job == "maintenance" for run in runs) == 1  # both started it; the second skipped its tick
    asked = Counter(int(run.owner.split(":")[-3]) for run in runs if run.job == "group_sync" and run.trigger == "asked")
    assert asked == {bot1_pid: 1, bot2_pid: 2}  # each bot's sync at start, and the "/admin sync" sent to bot2
    ticks = scheduled_member_syncs(runs)  # every 2 s in one of the two instances, not in both
    assert min(b.started - a.started for a, b in itertools.pairwise(ticks)) > MEMBER_SYNC_INTERVAL * 0.9, ticks
    assert {"reminders", "maintenance", "group_sync", "member_sync", "member_sync:tick"} <= {r.name for r in leases}
    assert {int(r.owner.split(":")[-3]) for r in leases} <= {bot1_pid, bot2_pid}
    assert statuses == [0, 0, 0, 0]
    assert errors == []


async def test_two_web_processes_in_development_seed_a_fresh_postgresql_database_once(
    database_url: str, tmp_path: Path
) -> None:
    env = {**base_environment(), "NODE_ENV": "development", "DEV_AUTOSEED_DB": "true", "DEV_DEFAULT_USER": U1,
           "LOG_FORMAT": "json", "DATABASE_URL": database_url}
    status, log = await run_command(["migrate"], env)
    assert status == 0, log
    specs: list[tuple[str, str, Mapping[str, str]]] = [
        ("web", f"web{n}", {**env, "WEB_PORT": str(free_port())}) for n in (1, 2)]
    async with instances(specs, tmp_path) as webs:
        seeded = [r.get("seeded") for web in webs for r in web.log_records() if r.get("msg") == "development seed"]
        async with aiohttp.ClientSession() as session, session.get(f"{webs[1].url}/api/me/tasks") as response:
            assert response.status == 200, webs[1].errors()  # DEV_DEFAULT_USER is signed in by itself
    db = Database.from_url(database_url)
    try:
        counts = {table.name: len(rows(db, table)) for table in (schema.users, schema.groups, schema.tasks)}
    finally:
        db.dispose()
    assert sorted(seeded) == [False, True]
    assert counts == {"users": 4, "groups": 5, "tasks": 33}
