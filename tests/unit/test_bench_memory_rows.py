"""`nox -s bench` reports each process's idle memory, the supervisor's against its 20 MB, and the unit's total."""

from __future__ import annotations

import os

from benchmarks.report import Report, _memory


def test_the_report_holds_the_supervisors_limit_and_the_units_idle_total() -> None:
    report = Report()
    idle = {"run": 17.0, "bot": 68.0, "web": 66.0, "proxy": 38.0}
    _memory(report, idle, dict.fromkeys(idle, os.getpid()))
    table = report.table()
    assert "| supervisor: resident memory idle (VmRSS after start) | 17.00 | MB | ≤ 20 MB | yes |" in table
    assert "| the unit idle, all 4 processes (supervisor, bot, web, proxy) | 189 | MB |" in table
