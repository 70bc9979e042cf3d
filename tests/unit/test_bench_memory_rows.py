"""`nox -s bench` reports each process's idle RSS and PSS beside the release before's, the supervisor's RSS against its
20 MB, and the unit's PSS against its 150 MB (SPEC section 42)."""

from __future__ import annotations

import os

from benchmarks.beside import Memory
from benchmarks.report import Report, _memory


def test_the_report_holds_the_supervisors_limit_and_the_units_pss_beside_the_release_before() -> None:
    report = Report()
    now = Memory(rss={"run": 17.0, "bot": 75.0, "web": 71.0, "proxy": 70.0},
                 pss={"run": 11.0, "bot": 39.0, "web": 35.0, "proxy": 34.0})
    was = Memory(rss={"run": 18.0, "bot": 74.0, "web": 77.0, "proxy": 40.0},
                 pss={"run": 10.5, "bot": 57.5, "web": 60.0, "proxy": 26.5})
    _memory(report, now, was, dict.fromkeys(now.rss, os.getpid()))
    table = report.table()
    assert "| supervisor: resident memory idle (RSS) | 17.00 | MB | ≤ 20 MB | yes | 18.00 |" in table
    assert "| bot: proportional set size idle (PSS) | 39.00 | MB |  |  | 57.50 |" in table
    unit = "the unit idle, PSS of its 4 processes (shared pages counted once)"
    assert f"| {unit} | 119 | MB | ≤ 150 MB | yes | 154 |" in table


def test_without_the_release_before_its_column_is_empty() -> None:
    report = Report()
    now = Memory(rss={"run": 21.0}, pss={"run": 160.0})
    _memory(report, now, None, {})
    table = report.table()
    assert "| supervisor: resident memory idle (RSS) | 21.00 | MB | ≤ 20 MB | **no** |  |" in table
    unit = "the unit idle, PSS of its 4 processes (shared pages counted once)"
    assert f"| {unit} | 160 | MB | ≤ 150 MB | **no** |  |" in table
