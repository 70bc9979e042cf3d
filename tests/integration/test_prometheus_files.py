"""deploy/prometheus/ (SPEC section 27): the scrape configuration and the alert rules pass `promtool check`, each
alert fires on the series that mean trouble (`promtool test rules`), and every metric they name is one the bot's real
/metrics exposes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import yaml

from taskcore.storage.db import Database
from tests import promtool
from tests.integration.bot_harness import running_bot
from tests.integration.test_grafana_dashboard import exposed, metric_names

PROMETHEUS = Path(__file__).resolve().parents[2] / "deploy" / "prometheus"
ALERTS = {"TasksvcBotDown", "TasksvcBotSilent", "TasksvcGatewayDisconnected", "TasksvcWebhookSilent",
          "TasksvcQueueFailing", "TasksvcQueueBacklog", "TasksvcBackupsOld", "TasksvcInboxBacklog",
          "TasksvcInboxFailed", "TasksvcGroupsPending", "TasksvcReachoutPaused"}


def rules() -> list[dict[str, Any]]:
    loaded = yaml.safe_load((PROMETHEUS / "alerts.yml").read_text(encoding="utf-8"))
    return [rule for group in loaded["groups"] for rule in group["rules"]]


def test_the_scrape_configuration_is_valid_with_the_token_file_beside_it(tmp_path: Path) -> None:
    folder = shutil.copytree(PROMETHEUS, tmp_path / "prometheus")
    (folder / "metrics-token").write_text("a-metrics-token")
    result = promtool.check("config", str(folder / "prometheus.yml"))
    assert result.returncode == 0, result.stdout + result.stderr
    assert f"SUCCESS: {len(ALERTS)} rules found" in result.stdout


def test_the_alert_rules_are_valid() -> None:
    result = promtool.check("rules", "deploy/prometheus/alerts.yml")
    assert result.returncode == 0, result.stdout + result.stderr
    assert {rule["alert"] for rule in rules()} == ALERTS


async def test_every_metric_an_alert_names_is_exposed_by_the_bot(sqlite_db: Database, tmp_path: Path) -> None:
    named = {name for rule in rules() for name in metric_names(rule["expr"])} - {"up", "time"}
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "true", "BACKUP_DIR": str(tmp_path)}) as bot:
        names, _ = exposed(await (await bot.client.get("/metrics")).text())
    assert len(named) >= 6
    assert named - names == set()


def series(name: str, values: str, **labels: str) -> dict[str, str]:
    selector = ",".join(f'{key}="{value}"' for key, value in {"job": "tasksvc", **labels}.items())
    return {"series": f"{name}{{{selector}}}", "values": values}


CASES: list[tuple[str, list[dict[str, str]], str]] = [
    # (alert, input series at 1-minute steps, when it must fire)
    ("TasksvcBotDown", [series("up", "1 1 0x10")], "10m"),
    ("TasksvcBotSilent", [series("webhook_requests_total", "5 5x900", event="message")], "14h"),
    ("TasksvcGatewayDisconnected", [series("gateway_connected", "1 1 0x30", gateway="waha")], "20m"),
    ("TasksvcWebhookSilent", [series("webhook_delivery_ok", "1 1 0x30")], "20m"),
    ("TasksvcQueueFailing", [series("outbound_failed_total", "0 0 1 1 1", kind="text")], "4m"),
    ("TasksvcQueueBacklog", [series("outbound_queue_depth", "500x60")], "45m"),
    # promtool's clock starts at 0: a backup taken at 0 is 28 h old at 28h
    ("TasksvcBackupsOld", [series("backup_last_success_timestamp_seconds", "0x1800")], "28h"),
    ("TasksvcInboxBacklog", [series("webhook_inbox_depth", "80x30")], "20m"),
    ("TasksvcInboxFailed", [series("webhook_inbox_failures_total", "0 0 1 1 1")], "4m"),
    ("TasksvcGroupsPending", [series("allowed_groups_total_pending", "0 1x1600")], "25h"),
    ("TasksvcReachoutPaused", [series("gateway_reachout_paused", "0 1x30")], "10m"),
]


# The labels an alert keeps from its series: the gateway in use names which gateway closed (SPEC section 36).
KEPT_LABELS = {"TasksvcGatewayDisconnected": {"gateway": "waha"}}


def expanded(annotations: dict[str, str], labels: dict[str, str]) -> dict[str, str]:
    """The annotations as Prometheus fills in ``{{ $labels.name }}``."""
    def fill(text: str) -> str:
        for name, value in labels.items():
            text = text.replace(f"{{{{ $labels.{name} }}}}", value)
        assert "{{" not in text, text
        return text
    return {key: fill(text) for key, text in annotations.items()}


def test_each_alert_fires_on_trouble_and_stays_quiet_without_it(tmp_path: Path) -> None:
    shutil.copy(PROMETHEUS / "alerts.yml", tmp_path / "alerts.yml")
    tests = []
    for alert, input_series, at in CASES:
        rule = next(rule for rule in rules() if rule["alert"] == alert)
        labels = {"job": "tasksvc", "severity": rule["labels"]["severity"], **KEPT_LABELS.get(alert, {})}
        fired = [{"exp_labels": labels, "exp_annotations": expanded(rule["annotations"], labels)}]
        tests.append({"interval": "1m", "input_series": input_series,
                      "alert_rule_test": [{"eval_time": at, "alertname": alert, "exp_alerts": fired}]})
        quiet = [{**s, "values": "0x900" if "fail" in s["series"] or "depth" in s["series"] else s["values"]}
                 for s in input_series]
        tests.append({"interval": "1m", "input_series": healthy(alert, quiet),
                      "alert_rule_test": [{"eval_time": at, "alertname": alert, "exp_alerts": []}]})
    (tmp_path / "tests.yml").write_text(yaml.safe_dump({"rule_files": ["alerts.yml"], "tests": tests}))
    result = promtool.check_tests(str(tmp_path / "tests.yml"))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_inbox_alert_fires_on_a_new_failure_and_clears_while_old_failures_are_kept(tmp_path: Path) -> None:
    """One failure at minute 2, kept (the counter stays 1) for hours: firing at once, quiet an hour later; a second
    failure fires it again."""
    shutil.copy(PROMETHEUS / "alerts.yml", tmp_path / "alerts.yml")
    rule = next(rule for rule in rules() if rule["alert"] == "TasksvcInboxFailed")
    fired = [{"exp_labels": {"job": "tasksvc", "severity": rule["labels"]["severity"]},
              "exp_annotations": rule["annotations"]}]
    counter = series("webhook_inbox_failures_total", "0 0 1x300 2x60")  # a second failure at minute 303
    checks = [("1m", []), ("3m", fired), ("50m", fired), ("70m", []), ("5h", []), ("305m", fired)]
    test = {"interval": "1m", "input_series": [counter],
            "alert_rule_test": [{"eval_time": at, "alertname": "TasksvcInboxFailed", "exp_alerts": expected}
                                for at, expected in checks]}
    (tmp_path / "tests.yml").write_text(yaml.safe_dump({"rule_files": ["alerts.yml"], "tests": [test]}))
    result = promtool.check_tests(str(tmp_path / "tests.yml"))
    assert result.returncode == 0, result.stdout + result.stderr


def healthy(alert: str, quiet: list[dict[str, str]]) -> list[dict[str, str]]:
    """The same series when nothing is wrong."""
    fixed = {"TasksvcBotDown": [series("up", "1x30")],
             "TasksvcBotSilent": [series("webhook_requests_total", "0+1x900", event="message")],
             "TasksvcGatewayDisconnected": [series("gateway_connected", "1x30", gateway="waha")],
             "TasksvcWebhookSilent": [series("webhook_delivery_ok", "1x30")],
             "TasksvcReachoutPaused": [series("gateway_reachout_paused", "0x30")],
             "TasksvcBackupsOld": [series("backup_last_success_timestamp_seconds", "0+60x1800")],
             "TasksvcGroupsPending": [series("allowed_groups_total_pending", "0 1x600 0x1000")]}  # allowed within 10 h
    return fixed.get(alert, quiet)
