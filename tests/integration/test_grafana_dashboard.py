"""deploy/grafana-dashboard.json queries only what the bot's real /metrics exposes (SPEC section 11)."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

from taskcore.storage.db import Database
from tests.integration.bot_harness import running_bot

DASHBOARD = Path(__file__).resolve().parents[2] / "deploy" / "grafana-dashboard.json"
# PromQL words that are not metric names: functions are followed by "(" and need no entry here.
_KEYWORDS = frozenset({"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or",
                       "unless", "offset", "inf", "nan"})
_IDENTIFIER = re.compile(r"[a-zA-Z_:][a-zA-Z0-9_:]*")
_HISTOGRAM_SUFFIXES = ("_bucket", "_count", "_sum")


def expressions(node: Any) -> Iterator[str]:
    """Every PromQL ``expr`` of every panel, nested rows included."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "expr" and isinstance(value, str):
                yield value
            else:
                yield from expressions(value)
    elif isinstance(node, list):
        for item in node:
            yield from expressions(item)


def metric_names(expr: str) -> set[str]:
    """The metric names an expression selects: identifiers outside strings, label matchers, ranges and
    by/without lists, not followed by "(" (a function or aggregation) and not keywords."""
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)
    text = re.sub(r"\[[^\]]*\]", " ", text)
    text = re.sub(r"\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    names = set()
    for match in _IDENTIFIER.finditer(text):
        following = text[match.end():].lstrip()
        if not following.startswith("(") and match.group() not in _KEYWORDS:
            names.add(match.group())
    return names


def selectors(expr: str) -> list[tuple[str, dict[str, str]]]:
    """(metric, {label: value}) of every selector with equality matchers on a literal value."""
    found = []
    for match in re.finditer(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\{([^}]*)\}", expr):
        labels = dict(re.findall(r'(\w+)\s*=\s*"([^"$]*)"', match.group(2)))
        found.append((match.group(1), labels))
    return found


def exposed(text: str) -> tuple[set[str], dict[str, set[tuple[str, str]]]]:
    """Every series name /metrics can show (samples, declared families, histogram parts) and the label pairs seen."""
    names: set[str] = set()
    labels: dict[str, set[tuple[str, str]]] = {}
    for line in text.splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split()
            names.add(name)
            if kind == "histogram":
                names.update(name + suffix for suffix in _HISTOGRAM_SUFFIXES)
        elif line and not line.startswith("#"):
            name = _IDENTIFIER.match(line).group()  # type: ignore[union-attr]
            names.add(name)
            labels.setdefault(name, set()).update(re.findall(r'(\w+)="([^"]*)"', line.partition(" ")[0]))
    return names, labels


def test_the_name_extraction_skips_functions_labels_ranges_and_grouping() -> None:
    expr = ('histogram_quantile(0.99, sum by (le) (rate(webhook_processing_seconds_bucket{job=~"$job"}[5m])))'
            ' / sum(rate(x_total{outcome="late"}[1h])) * 60')
    assert metric_names(expr) == {"webhook_processing_seconds_bucket", "x_total"}
    assert selectors(expr) == [("webhook_processing_seconds_bucket", {}), ("x_total", {"outcome": "late"})]


async def test_every_metric_the_dashboard_queries_is_exposed_by_the_bots_metrics(sqlite_db: Database,
                                                                                tmp_path: Path) -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    queried = {name for expr in expressions(dashboard["panels"]) for name in metric_names(expr)} - {"time"}
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "true", "BACKUP_DIR": str(tmp_path)}) as bot:
        response = await bot.client.get("/metrics")
        assert response.status == 200
        names, _ = exposed(await response.text())
    assert len(queried) >= 20
    assert queried - names == set()


async def test_every_label_value_the_dashboard_picks_is_one_the_bot_exposes(sqlite_db: Database) -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    async with running_bot(sqlite_db, {"METRICS_ENABLED": "true"}) as bot:
        _, labels = exposed(await (await bot.client.get("/metrics")).text())
    picked = [(metric, pairs) for expr in expressions(dashboard["panels"])
              for metric, pairs in selectors(expr) if pairs]
    assert picked
    for metric, pairs in picked:
        assert set(pairs.items()) <= labels.get(metric, set()), (metric, pairs)


def test_the_dashboard_covers_webhook_queue_reminders_groups_and_reactions() -> None:
    dashboard = json.loads(DASHBOARD.read_text(encoding="utf-8"))
    queried = {name for expr in expressions(dashboard["panels"]) for name in metric_names(expr)}
    assert {"webhook_requests_total", "webhook_processing_seconds_bucket", "outbound_queue_depth",
            "outbound_queue_failed", "outbound_failed_total", "reminder_slots_total", "allowed_groups_total_pending",
            "allowed_groups_total_allowed", "allowed_groups_total_blocked", "reactions_sent_total",
            "reactions_failed_total", "webhook_inbox_depth", "webhook_inbox_failed"} <= queried
    assert all(panel["datasource"]["uid"] == "${datasource}" for panel in dashboard["panels"] if "targets" in panel)
    ids = [panel["id"] for panel in dashboard["panels"]]
    assert len(ids) == len(set(ids))


def test_the_first_row_says_whether_it_answers() -> None:
    """SPEC section 33: gateway connected, webhook delivery, backup age, the reach-out pause and pending groups,
    first on the dashboard, side by side."""
    panels = json.loads(DASHBOARD.read_text(encoding="utf-8"))["panels"]
    first_row = [panel for panel in panels if panel["gridPos"]["y"] < panels[0]["gridPos"]["y"] + 9
                 and panel["type"] != "row"]
    queried = {name for panel in first_row for expr in expressions(panel) for name in metric_names(expr)}
    assert {"gateway_connected", "webhook_delivery_ok", "backup_last_success_timestamp_seconds",
            "gateway_reachout_paused", "allowed_groups_total_pending", "webhook_inbox_failures_total"} <= queried
    spans = sorted((panel["gridPos"]["x"], panel["gridPos"]["x"] + panel["gridPos"]["w"]) for panel in first_row)
    assert all(end <= start for (_, end), (start, _) in pairwise(spans))
    assert spans[-1][1] <= 24


def test_the_gateway_panel_names_the_gateway_in_use() -> None:
    """SPEC section 36: gateway_connected's label says which gateway it is; the panel keeps it as the series name."""
    [panel] = [panel for panel in json.loads(DASHBOARD.read_text(encoding="utf-8"))["panels"]
               if "gateway_connected" in " ".join(expressions(panel))]
    [target] = panel["targets"]
    assert re.search(r"\bby \(gateway\)", target["expr"])
    assert target["legendFormat"] == "{{gateway}}"
    assert panel["options"]["textMode"] == "value_and_name"
