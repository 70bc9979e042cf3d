"""Metrics off (METRICS_ENABLED=false): the handlers' calls are accepted and kept nowhere, nothing is rendered."""

from __future__ import annotations

from tasksvc_run.metrics import Metrics


def test_disabled_metrics_accept_every_call_and_hold_nothing() -> None:
    metrics = Metrics(enabled=False)
    assert not metrics.enabled
    metrics.sync_runs.labels(job="group_sync").inc()
    metrics.outbound_sent.labels(kind="reply").inc(3)
    metrics.admin_allow.inc()
    metrics.webhook_seconds.observe(0.01)
    assert metrics.render() == b""


def test_enabled_metrics_count_and_render() -> None:
    metrics = Metrics()
    assert metrics.enabled
    metrics.sync_runs.labels(job="group_sync").inc()
    metrics.admin_allow.inc()
    text = metrics.render().decode()
    assert 'sync_runs_total{job="group_sync"} 1.0' in text
    assert "admin_actions_total_allow 1.0" in text


def test_gateway_connected_names_the_gateway_in_use_as_its_only_series() -> None:
    """SPEC section 36: the gateway in use is a label of gateway_connected (GATEWAY_KIND), one series."""
    metrics = Metrics(gateway="waha")
    metrics.gateway_connected.set(0)
    text = metrics.render().decode()
    assert 'gateway_connected{gateway="waha"} 0.0' in text
    assert [line for line in text.splitlines() if line.startswith("gateway_connected")] == [
        'gateway_connected{gateway="waha"} 0.0']
    assert 'gateway_connected{gateway="evolution"} 1.0' in Metrics().render().decode()
