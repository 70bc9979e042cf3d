"""The one entry point for checks: lint, typecheck, tests and benchmarks."""

from __future__ import annotations

import nox

nox.options.sessions = ["lint", "typecheck", "tests"]
nox.options.reuse_existing_virtualenvs = True
nox.options.error_on_missing_interpreters = True

PYTHON = "3"


@nox.session(python=PYTHON)
def lint(session: nox.Session) -> None:
    """Ruff over the sources, tests and this file."""
    session.install("ruff>=0.5")
    session.run("ruff", "check", "src", "tests", "benchmarks", "noxfile.py")


@nox.session(python=PYTHON)
def typecheck(session: nox.Session) -> None:
    """mypy --strict over src/."""
    session.install("-e", ".[typecheck,postgres]")
    session.run("mypy", "--strict", "src")


@nox.session(python=PYTHON)
def tests(session: nox.Session) -> None:
    """Unit, property and integration tests (slow ones excluded)."""
    session.install("-e", ".[test]")
    args = session.posargs or ["tests", "-m", "not slow"]
    session.run("pytest", *args)


@nox.session(python=PYTHON)
def bench(session: nox.Session) -> None:
    """Benchmarks of SPEC section 14, printed as figures and ratios from one run."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "benchmarks", *session.posargs)


@nox.session(python=PYTHON)
def soak(session: nox.Session) -> None:
    """A two-minute soak of the real unit through the proxy (benchmarks/soak.py); fails when a check does not hold."""
    session.install("-e", ".[test]")
    session.run("python", "-m", "benchmarks.soak", *session.posargs)


@nox.session(python=PYTHON)
def faults(session: nox.Session) -> None:
    """Fault injection (tests/faults) and hostile input (tests/hostile), the slow versions included."""
    session.install("-e", ".[test]")
    session.run("pytest", "tests/faults", "tests/hostile", *session.posargs)
