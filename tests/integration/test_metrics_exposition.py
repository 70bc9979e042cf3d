"""The bot's /metrics as Prometheus reads it (SPEC section 27): `promtool check metrics` passes on the real output,
every counter shows its zero from the first scrape (labelled ones for their known labels), no `_created` series,
the seed's admin_actions_total_* typed, and the process's CPU, memory and open files exposed."""

from __future__ import annotations

import re
from pathlib import Path

from taskcore.queue_rules import JobKind
from taskcore.services.maintenance import run_maintenance
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.prometheus import CLEANUP_KINDS
from tests import promtool
from tests.integration.bot_harness import running_bot
from tests.integration.test_scheduled_jobs import NOW


async def first_scrape(db: Database, tmp_path: Path) -> str:
    env = {"METRICS_ENABLED": "true", "BACKUP_DIR": str(tmp_path / "backups")}
    async with running_bot(db, env) as bot:
        response = await bot.client.get("/metrics")
        assert response.status == 200
        return await response.text()


def types(text: str) -> dict[str, str]:
    return dict(re.findall(r"^# TYPE (\S+) (\S+)$", text, flags=re.MULTILINE))


def samples(text: str) -> list[str]:
    return [line for line in text.splitlines() if line and not line.startswith("#")]


async def test_promtool_finds_nothing_to_say_about_the_bots_metrics(sqlite_db: Database, tmp_path: Path) -> None:
    result = promtool.check("metrics", stdin=await first_scrape(sqlite_db, tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


async def test_every_counter_family_has_a_sample_from_the_first_scrape(sqlite_db: Database, tmp_path: Path) -> None:
    text = await first_scrape(sqlite_db, tmp_path)
    counters = [name for name, kind in types(text).items() if kind == "counter"]
    assert len(counters) >= 15
    names = {line.partition("{")[0].partition(" ")[0] for line in samples(text)}
    assert set(counters) - names == set()


async def test_labelled_counters_show_zero_for_every_known_label(sqlite_db: Database, tmp_path: Path) -> None:
    text = await first_scrape(sqlite_db, tmp_path)
    for family in ("outbound_sent_total", "outbound_retries_total", "outbound_failed_total"):
        for kind in JobKind:
            assert f'{family}{{kind="{kind.value}"}} 0.0' in text
    for what in CLEANUP_KINDS:
        assert f'cleanup_deleted_total{{what="{what}"}} 0.0' in text
    assert 'webhook_requests_total{event="message"} 0.0' in text


def test_the_cleanup_labels_are_what_maintenance_reports(sqlite_db: Database) -> None:
    assert set(units.run(sqlite_db, run_maintenance, now=NOW, member_retention_days=180)) == set(CLEANUP_KINDS)


async def test_no_created_series_typed_admin_actions_and_process_metrics(sqlite_db: Database, tmp_path: Path) -> None:
    text = await first_scrape(sqlite_db, tmp_path)
    assert not [line for line in samples(text) if "_created" in line.partition(" ")[0]]
    assert types(text)["admin_actions_total_allow"] == types(text)["admin_actions_total_block"] == "gauge"
    assert {"process_cpu_seconds_total", "process_resident_memory_bytes", "process_open_fds"} <= set(types(text))
    assert types(text)["backup_last_success_timestamp_seconds"] == "gauge"


async def test_the_gateway_in_use_labels_gateway_connected(sqlite_db: Database, tmp_path: Path) -> None:
    """SPEC section 36: GATEWAY_KIND is the label, so a dashboard and an alert say which gateway closed."""
    assert 'gateway_connected{gateway="evolution"} 1.0' in samples(await first_scrape(sqlite_db, tmp_path))
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "true", "GATEWAY_KIND": "waha"}) as bot:
        text = await (await bot.client.get("/metrics")).text()
    assert [line for line in samples(text) if line.startswith("gateway_connected")] == [
        'gateway_connected{gateway="waha"} 1.0']
