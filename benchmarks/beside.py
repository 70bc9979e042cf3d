"""The release before (benchmarks/baseline.py, ``--before COMMIT``) run beside the current one in the same bench run,
and the units' memory (SPEC section 42): each process's resident set (RSS: every page it maps) and proportional set
(PSS: a page shared by n processes counted 1/n, read from /proc/<pid>/smaps_rollup), and the unit's PSS, which
counts what the processes share once.

Each unit's idle memory is read while it runs alone (two units started from the same installed libraries would share
their files' pages and each would look smaller): the release before is started first, measured and stopped; the
current one is started and measured; then the release before is started again for the API and webhook rows.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from tests.system.unit import Unit, memory_mb, pss_mb, unit_env, unit_pids

from benchmarks import baseline
from benchmarks.dataset import build

IDLE_SETTLE = 2.0
NAMES = {"run": "supervisor", "bot": "bot", "web": "web", "proxy": "proxy"}


@dataclass(frozen=True)
class Memory:
    """A unit's processes' idle RSS and PSS in MB, by name (run, bot, web, proxy)."""

    rss: dict[str, float]
    pss: dict[str, float]

    @property
    def unit_pss(self) -> float:
        """The unit's PSS: what its processes share counted once."""
        return sum(self.pss.values())


def idle_memory(unit: Unit, settle: float = IDLE_SETTLE) -> Memory:
    """The unit's memory ``settle`` seconds after it answers (its four processes)."""
    time.sleep(settle)
    pids = unit_pids(unit)
    return Memory({name: memory_mb(pid)[0] for name, pid in pids.items() if name in NAMES},
                  {name: pss_mb(pid) for name, pid in pids.items() if name in NAMES})


def start_before(env: dict[str, str], folder: Path) -> Unit | None:
    """`tasksvc run` of the release before on ports of its own, over a copy of the dataset as it would leave it;
    None without git or that commit."""
    own = unit_env(folder, **{k: v for k, v in env.items()
                              if k not in ("PORT", "BOT_PORT", "WEB_PORT", "TASKSVC_DEV_GATEWAY_PORT", "DB_PATH")})
    return baseline.before_unit({**own, "DB_PATH": str(build().path)}, folder)


def before_memory(env: dict[str, str], folder: Path) -> Memory | None:
    """The release before's idle memory, measured alone (started, measured, stopped)."""
    unit = start_before(env, folder)
    if unit is None:
        return None
    try:
        deadline = time.monotonic() + 30
        while set(unit_pids(unit)) < set(NAMES) and time.monotonic() < deadline:
            time.sleep(0.1)
        return idle_memory(unit)
    finally:
        unit.stop()


def memory_rows(now: Memory, before: Memory | None) -> list[tuple[str, float, str, str, bool | None, float | None]]:
    """(measure, value, unit, target, met, before) per process and for the unit."""
    rows: list[tuple[str, float, str, str, bool | None, float | None]] = []
    for name, shown in NAMES.items():
        rss, pss = now.rss.get(name, 0.0), now.pss.get(name, 0.0)
        limit = name == "run"
        rows.append((f"{shown}: resident memory idle (RSS)", rss, "MB", "≤ 20 MB" if limit else "",
                     rss <= 20 if limit else None, before.rss.get(name) if before else None))
        rows.append((f"{shown}: proportional set size idle (PSS)", pss, "MB", "", None,
                     before.pss.get(name) if before else None))
    rows.append(("the unit idle, RSS of its 4 processes added (shared pages counted in each)", sum(now.rss.values()),
                 "MB", "", None, sum(before.rss.values()) if before else None))
    rows.append(("the unit idle, PSS of its 4 processes (shared pages counted once)", now.unit_pss, "MB",
                 "≤ 150 MB", now.unit_pss <= 150, before.unit_pss if before else None))
    return rows
