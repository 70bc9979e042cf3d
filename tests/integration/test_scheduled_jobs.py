"""The scheduled jobs against the fake gateway and a real database: group sync, member sync, reminders, maintenance."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.access import GroupStatus
from taskcore.services import groups as group_service
from taskcore.services import preferences
from taskcore.services.reminder_tick import ReminderTick
from taskcore.settings import load_settings
from taskcore.storage.db import Database
from taskcore.storage.schema import group_members, identity_aliases, outbound_queue
from taskcore.unit import Reading
from tasksvc_run import units
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tasksvc_run.schedulers import JobContext, SchedulerRuntime, build_runtime, jobs
from tests.builders import make_group, make_task
from tests.fakes.clock import FrozenClock
from tests.fakes.gateway import FakeGateway, sample

NOW = datetime(2026, 11, 23, 7, 30, tzinfo=UTC)
COMMUNITY, ANNOUNCE = "120363300000000001@g.us", "120363300000000002@g.us"
OPS, OLD = "120363300000000010@g.us", "15550100007-1600000000@g.us"


class Wakes:
    """Counts the worker wake-ups the jobs ask for."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self) -> None:
        self.count += 1


def runtime_for(db: Database, client: EvolutionGateway | None, metrics: Metrics, *,
                wakes: Callable[[], None] | None = None, env: dict[str, str] | None = None) -> SchedulerRuntime:
    settings = load_settings({"NODE_ENV": "test", **(env or {})})
    return build_runtime(JobContext(settings, db, FrozenClock(NOW), metrics, client, notify=wakes or Wakes()))


def value(metrics: Metrics, name: str, **labels: str) -> float:
    return metrics.registry.get_sample_value(name, labels) or 0.0


def known_groups(db: Database) -> dict[str, tuple[str | None, bool, GroupStatus | None]]:
    return {g.id: (g.name, g.active, g.status) for g in units.look(db, group_service.list_groups)}


def member(db: Database, group_id: str, user_id: str) -> Any:
    with db.read() as conn:
        return conn.execute(select(group_members).where(
            group_members.c.group_id == group_id, group_members.c.user_id == user_id)).one_or_none()


def queued(db: Database) -> list[tuple[str, str]]:
    with db.read() as conn:
        rows = conn.execute(select(outbound_queue).order_by(outbound_queue.c.id)).all()
    return [(row.chat_id, json.loads(row.payload)["text"]) for row in rows]


async def test_group_sync_keeps_the_chat_groups_without_the_community_parent_and_announcements(
    db: Database, client: EvolutionGateway, gateway: FakeGateway
) -> None:
    metrics = Metrics()
    assert await runtime_for(db, client, metrics).run_job("group_sync")
    assert known_groups(db) == {OPS: ("Ops tasks", True, None), OLD: ("Old project group", True, None)}
    assert gateway.calls_to("fetchAllGroups")[0].query == {"getParticipants": "false"}
    assert value(metrics, "sync_runs_total", job="group_sync") == 1


async def test_group_sync_with_a_community_keeps_only_its_sub_groups(db: Database, client: EvolutionGateway) -> None:
    assert await runtime_for(db, client, Metrics(), env={"MESSAGING_COMMUNITY_ID": COMMUNITY}).run_job("group_sync")
    assert set(known_groups(db)) == {OPS}


async def test_group_sync_deactivates_a_group_no_longer_listed(db: Database, client: EvolutionGateway) -> None:
    make_group(db, "999@g.us", status=None)
    await runtime_for(db, client, Metrics()).run_job("group_sync")
    assert known_groups(db)["999@g.us"][1] is False


async def test_a_failed_fetch_changes_nothing(db: Database, client: EvolutionGateway, gateway: FakeGateway) -> None:
    make_group(db, "999@g.us", status=None)
    gateway.fail_next(status=500, route="fetchAllGroups")
    assert not await runtime_for(db, client, Metrics()).run_job("group_sync")
    assert known_groups(db)["999@g.us"][1] is True


async def test_an_empty_group_list_deactivates_nothing(
    db: Database, client: EvolutionGateway, gateway: FakeGateway
) -> None:
    make_group(db, "999@g.us", status=None)
    gateway.groups = []
    assert await runtime_for(db, client, Metrics()).run_job("group_sync")
    assert known_groups(db)["999@g.us"][1] is True


async def test_discovery_direct_messages_each_admin_once_per_group(db: Database, client: EvolutionGateway) -> None:
    metrics, wakes = Metrics(), Wakes()
    env = {"GROUP_GATING_MODE": "discover", "ADMIN_USERS": "34600000001,34600000002",
           "NOTIFY_ADMINS_ON_DISCOVERY": "true"}
    runtime = runtime_for(db, client, metrics, wakes=wakes, env=env)
    await runtime.run_job("group_sync")
    await runtime.run_job("group_sync")
    notices = queued(db)
    assert sorted(chat for chat, _ in notices) == sorted(
        f"{admin}@s.whatsapp.net" for admin in ("34600000001", "34600000002") for _ in (OPS, OLD))
    assert any(f"/admin permitir {OPS}" in text and "«Ops tasks»" in text for _, text in notices)
    assert known_groups(db)[OPS][2] is GroupStatus.PENDING
    assert value(metrics, "unknown_groups_discovered_total") == 2
    assert wakes.count == 1


async def test_discovery_without_notify_queues_nothing(db: Database, client: EvolutionGateway) -> None:
    env = {"GROUP_GATING_MODE": "discover", "ADMIN_USERS": "34600000001", "NOTIFY_ADMINS_ON_DISCOVERY": "false"}
    await runtime_for(db, client, Metrics(), env=env).run_job("group_sync")
    assert queued(db) == []


async def test_member_sync_activates_the_listed_and_deactivates_the_absent(
    db: Database, client: EvolutionGateway, gateway: FakeGateway
) -> None:
    gateway.participants[OPS] = sample("outbound_group_participants_response_200")["participants"]
    make_group(db, OPS, members=("34999",))
    make_group(db, OLD, status="blocked", members=("34888",))
    metrics = Metrics()
    assert await runtime_for(db, client, metrics, env={"GROUP_GATING_MODE": "enforce"}).run_job("member_sync")
    assert member(db, OPS, "15550100001").is_admin
    assert member(db, OPS, "15550100003").active
    gone = member(db, OPS, "34999")
    assert (gone.active, gone.inactive_since) == (False, NOW)
    assert member(db, OLD, "34888").active  # a blocked group's members are left alone
    assert [call.query["groupJid"] for call in gateway.calls_to("participants")] == [OPS]
    assert value(metrics, "sync_skipped_group_total") == 1
    assert value(metrics, "sync_runs_total", job="member_sync") == 1


async def test_member_sync_records_aliases_and_rekeys_a_lid_only_member(db: Database, client: EvolutionGateway) -> None:
    make_group(db, OPS, members=("198765432100003",))  # first seen LID-only
    await runtime_for(db, client, Metrics()).run_job("member_sync")
    with db.read() as conn:
        aliases = dict(conn.execute(select(identity_aliases.c.alias, identity_aliases.c.user_id)).all())
    assert aliases["198765432100003"] == "15550100003"
    assert aliases["198765432100001"] == "15550100001"
    assert member(db, OPS, "198765432100003") is None
    assert member(db, OPS, "15550100003").active


async def test_member_sync_skips_a_group_whose_participants_fail(
    db: Database, client: EvolutionGateway, gateway: FakeGateway
) -> None:
    make_group(db, OPS, members=("34999",))
    gateway.fail_next(status=404, route="participants")
    assert await runtime_for(db, client, Metrics()).run_job("member_sync")
    assert member(db, OPS, "34999").active


async def test_the_reminder_job_counts_slots_and_wakes_the_worker(db: Database) -> None:
    units.run(db, preferences.set_preference, user_id="1", freq="daily", time="08:30", now=NOW)
    units.run(db, preferences.set_preference, user_id="2", freq="daily", time="08:30", now=NOW)
    make_task(db, creator="1", group_id=None, due="2026-11-23")
    metrics, wakes = Metrics(), Wakes()
    assert await runtime_for(db, None, metrics, wakes=wakes).run_job("reminders")
    assert value(metrics, "reminder_slots_total", outcome="sent") == 1
    assert value(metrics, "reminder_slots_total", outcome="skipped") == 1
    assert wakes.count == 1
    assert len(queued(db)) == 1


async def test_the_maintenance_job_counts_what_it_deleted(db: Database) -> None:
    make_group(db, OPS, inactive=("34999",), now=NOW - timedelta(days=181))
    metrics = Metrics()
    assert await runtime_for(db, None, metrics).run_job("maintenance")
    assert value(metrics, "cleanup_runs_total") == 1
    assert value(metrics, "cleanup_deleted_total", what="members") == 1
    assert member(db, OPS, "34999") is None


async def test_without_a_gateway_there_are_no_sync_jobs(db: Database) -> None:
    assert set(runtime_for(db, None, Metrics()).jobs) == {"reminders", "maintenance", "chores", "weekly_summary",
                                                          "held", "photo_retention"}


async def test_a_failed_reminder_tick_is_retried_and_the_due_slot_still_sent(
    db: Database, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[datetime] = []

    class FlakyTick(ReminderTick):
        def read(self, uow: Reading, after: Any) -> Any:
            calls.append(self.now)
            if len(calls) == 1:
                raise RuntimeError("database is locked")
            return super().read(uow, after)

    units.run(db, preferences.set_preference, user_id="34600000001", freq="daily", time="08:30",
              now=NOW - timedelta(days=1))
    monkeypatch.setattr(jobs, "ReminderTick", FlakyTick)
    metrics = Metrics()
    runtime = runtime_for(db, None, metrics)
    assert [await runtime.run_job("reminders") for _ in range(3)] == [False, True, True]
    assert value(metrics, "reminder_slots_total", outcome="skipped") == 1  # nothing open: recorded once
