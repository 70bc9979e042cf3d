"""Each process loads only what it uses (PERFORMANCE.md: resident memory per process): the supervisor never imports
aiohttp, the proxy neither aiohttp nor SQLAlchemy, the bot never imports icalendar."""

from __future__ import annotations

import subprocess
import sys

import pytest


def _loaded(modules: str, probe: str) -> bool:
    code = f"import sys, {modules}; from tasksvc_run.logs import setup_logging; setup_logging('x'); " \
           f"print({probe!r} in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)  # noqa: S603
    return out.stdout.strip() == "True"


@pytest.mark.parametrize(("modules", "absent"), [
    ("tasksvc_run.cli, tasksvc_run.supervisor", "aiohttp"),
    ("tasksvc_run.cli, tasksvc_run.proxy.app", "sqlalchemy"),
    ("tasksvc_run.cli, tasksvc_run.proxy.app", "aiohttp"),
    ("tasksvc_run.cli, tasksvc_run.bot.app, tasksvc_run.bot.serve", "icalendar"),  # the bot never writes a feed
    ("tasksvc_run.cli, tasksvc_run.web.app, tasksvc_run.web.serve", "icalendar"),  # loaded with the first feed
])
def test_a_process_does_not_load_what_it_does_not_use(modules: str, absent: str) -> None:
    assert not _loaded(modules, absent)


def test_the_probe_sees_a_module_that_is_loaded() -> None:
    assert _loaded("tasksvc_run.cli, tasksvc_run.web", "aiohttp")
    assert _loaded("tasksvc_run.cli, tasksvc_run.proxy.app", "httptools")
