"""Debian's Chromium (installed by .ci/run), driven by playwright: its path and flags, or a failure in CI, where the
browser tests must run (a skip there would pass a run that never opened a page)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


def require_chromium() -> None:
    """Nothing when Chromium is installed; else, in CI (CI set), the test fails, elsewhere it is skipped.
    ``tests/conftest.py`` calls it before every test marked ``browser`` sets anything up."""
    if CHROMIUM.exists():
        return
    if os.environ.get("CI"):
        pytest.fail(f"{CHROMIUM} is missing: .ci/run installs Debian's chromium; a browser test may not skip in CI",
                    pytrace=False)
    pytest.skip(f"BROWSER TESTS SKIPPED: {CHROMIUM} is absent (apt-get install chromium)")
