"""Each process loads only what it uses (PERFORMANCE.md: resident memory per process, docs/decisions.md "Issue 20:
lean processes"): the supervisor never imports aiohttp, the proxy neither aiohttp nor SQLAlchemy, the bot no web page
code, and no process a library it needs only on a rare path before it meets that path.

The bot and the web are probed through their real app factories, built in a child interpreter (a fresh sys.modules)
the way their `tasksvc` commands build them."""

from __future__ import annotations

import functools
import subprocess
import sys
import tempfile

import pytest

# A bot or a web app built as `tasksvc bot|web` builds it (settings from the environment, a SQLite database), then
# the names of every loaded module.
_APP = """
import sys
from taskcore.settings import load_settings
from taskcore.storage.db import Database
from tasksvc_run.logs import setup_logging
setup_logging({kind!r})
settings = load_settings({{"NODE_ENV": "test", "METRICS_ENABLED": {metrics!r}, "DB_PATH": {db!r}}})
db = Database.from_url(settings.sqlalchemy_url)
if {kind!r} == "bot":
    from tasksvc_run.bot.app import make_bot_app, tune_process
    from tasksvc_run.bot.background import install_background
    from tasksvc_run.bot.serve import run_bot
    app = make_bot_app(settings, db=db)
    install_background(app)
    tune_process(app)
else:
    from tasksvc_run.web.app import make_web_app
    from tasksvc_run.web.serve import run_web
    app = make_web_app(settings, db=db)
print("\\n".join(sorted(sys.modules)))
"""


def _run(code: str) -> frozenset[str]:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,  # noqa: S603
                         check=True)
    return frozenset(out.stdout.split())


@functools.cache
def loaded_by_app(kind: str, *, metrics: bool = False) -> frozenset[str]:
    """The modules a bot or a web process holds once its app is built."""
    with tempfile.TemporaryDirectory() as folder:
        return _run(_APP.format(kind=kind, metrics=str(metrics).lower(), db=f"{folder}/tasks.db"))


@functools.cache
def loaded_by_import(modules: str) -> frozenset[str]:
    """The modules loaded by importing ``modules`` (with logging set up, as every process does)."""
    return _run(f"import sys, {modules}; from tasksvc_run.logs import setup_logging; setup_logging('x'); "
                f"print('\\n'.join(sorted(sys.modules)))")


def _present(modules: frozenset[str], package: str) -> bool:
    return any(name == package or name.startswith(f"{package}.") for name in modules)


@pytest.mark.parametrize("absent", [
    "jinja2", "markupsafe", "tasksvc_run.web",  # pages are the web's
    "icalendar",  # the bot never writes a feed
    "phonenumbers",  # a default zone is looked up when a new user first writes
    "dateutil",  # rrule is loaded with the first recurring series computed
    "prometheus_client", "tasksvc_run.prometheus",  # metrics off: /metrics answers 404, nothing is collected
    "orjson",  # the web API's JSON
])
def test_the_bot_does_not_load(absent: str) -> None:
    assert not _present(loaded_by_app("bot"), absent)


@pytest.mark.parametrize("absent", [
    "prometheus_client",  # the bot's /metrics
    "tasksvc_run.bot", "taskcore.chat",  # the chat is the bot's
    "tasksvc_run.gateways", "taskcore.gateway.evolution",  # the web never talks to the gateway
    "icalendar",  # loaded with the first feed
    "phonenumbers",
    "dateutil",
])
def test_the_web_does_not_load(absent: str) -> None:
    assert not _present(loaded_by_app("web"), absent)


@pytest.mark.parametrize(("modules", "absent"), [
    ("tasksvc_run.cli, tasksvc_run.supervisor", "aiohttp"),
    ("tasksvc_run.cli, tasksvc_run.supervisor", "dateutil"),
    # The supervisor of `run` and `dev` (≤ 20 MB idle): its configuration comes as a plan from a child (plan.py).
    ("tasksvc_run.cli, tasksvc_run.supervisor, tasksvc_run.devmode", "pydantic"),
    ("tasksvc_run.cli, tasksvc_run.supervisor, tasksvc_run.devmode", "sqlalchemy"),
    ("tasksvc_run.cli, tasksvc_run.supervisor, tasksvc_run.devmode", "aiohttp"),
    ("tasksvc_run.cli, tasksvc_run.supervisor, tasksvc_run.devmode", "importlib.metadata"),
    ("tasksvc_run.cli, tasksvc_run.proxy.app", "sqlalchemy"),
    ("tasksvc_run.cli, tasksvc_run.proxy.app", "aiohttp"),
    ("tasksvc_run.cli, tasksvc_run.proxy.app", "dateutil"),
    ("tasksvc_run.cli, tasksvc_run.proxy.app", "taskcore.recurrence"),
    ("taskcore", "pydantic"),  # taskcore's public names load on first use
    ("taskcore", "taskcore.settings"),
])
def test_a_process_does_not_load_what_it_does_not_use(modules: str, absent: str) -> None:
    assert not _present(loaded_by_import(modules), absent)


def test_the_probes_see_what_is_loaded() -> None:
    """The probes can fail: what each process does use shows up in them."""
    assert {"aiohttp", "sqlalchemy", "taskcore.chat", "taskcore.gateway.evolution"} <= loaded_by_app("bot")
    assert "prometheus_client" in loaded_by_app("bot", metrics=True)
    assert {"aiohttp", "jinja2", "orjson", "tasksvc_run.web.api"} <= loaded_by_app("web")
    assert "httptools" in loaded_by_import("tasksvc_run.cli, tasksvc_run.proxy.app")
    assert "aiohttp" in loaded_by_import("tasksvc_run.cli, tasksvc_run.web")


def test_a_public_name_of_taskcore_loads_its_module_on_first_use() -> None:
    parsed = _run("import sys, taskcore; taskcore.parse_recurrence('cada lunes'); print('\\n'.join(sys.modules))")
    assert "taskcore.recurrence" in parsed
    assert "taskcore.settings" not in parsed
    assert "dateutil.rrule" not in parsed  # reading a rule needs no series
    computed = _run("import sys, datetime, taskcore; d = datetime.date(2026, 11, 23); "
                    "taskcore.next_occurrence('FREQ=WEEKLY', d, today=d); print('\\n'.join(sys.modules))")
    assert "dateutil.rrule" in computed
