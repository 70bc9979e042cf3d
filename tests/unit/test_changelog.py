"""CHANGELOG.md names every configuration variable and every migration (SPEC section 40), and a release is one
command: `nox -s release -- X.Y.Z` (tools/release.py) checks that, moves Unreleased under the version and makes the
tag. Measured before: no tags, and CHANGELOG missed four send caps, the photo settings and six migrations. The
release itself runs in a temporary clone: no tag is ever made in the repository."""

from __future__ import annotations

import shutil
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from tools import release

ROOT = Path(__file__).resolve().parents[2]
TEXT = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_every_setting_and_every_migration_is_named_in_the_changelog() -> None:
    missing = release.unnamed(TEXT, settings=release.settings_names(), migrations=release.migration_numbers(),
                              released=None)
    assert missing == []


@pytest.mark.parametrize("name", ["GATEWAY_MAX_SENDS_PER_HOUR", "GATEWAY_MAX_SENDS_PER_DAY",
                                  "GATEWAY_REACHOUT_PAUSE_HOURS", "SENDS_PER_PERSON_PER_MIN", "PHOTO_MAX_MB",
                                  "PHOTO_RETENTION_DAYS", "0011", "0014", "0016"])
def test_the_names_the_operator_missed_are_there(name: str) -> None:
    assert release.unnamed(TEXT, settings={name} if not name.isdigit() else set(),
                           migrations={name} if name.isdigit() else set(), released=None) == []


def test_the_check_bites_on_a_name_left_out() -> None:
    without = TEXT.replace("GATEWAY_MAX_SENDS_PER_HOUR", "the hourly cap")
    assert release.unnamed(without, settings={"GATEWAY_MAX_SENDS_PER_HOUR"}, migrations=set(), released=None) == [
        "GATEWAY_MAX_SENDS_PER_HOUR (not named in CHANGELOG.md)"]


def test_what_is_new_since_the_last_release_must_be_under_unreleased() -> None:
    text = "## [Unreleased]\n\n- PHOTO_MAX_MB\n\n## [0.1.0] - 2026-11-28\n\n- RATE_LIMIT_PER_MIN, BOT_PORT, 0001\n"
    assert release.unnamed(text, settings={"PHOTO_MAX_MB", "RATE_LIMIT_PER_MIN", "BOT_PORT"}, migrations={"0001"},
                           released=({"RATE_LIMIT_PER_MIN"}, set())) == [
        "0001 (added since the last release, not named under Unreleased)",
        "BOT_PORT (added since the last release, not named under Unreleased)"]


def test_cutting_moves_unreleased_under_the_version() -> None:
    cut = release.cut("# Changelog\n\n## [Unreleased]\n\n### Added\n\n- x\n", "0.2.0", "2026-12-06")
    assert cut == "# Changelog\n\n## [Unreleased]\n\n## [0.2.0] - 2026-12-06\n\n### Added\n\n- x\n"


def git(*args: str, cwd: Path) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()  # noqa: S603,S607


@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A clone of this repository's committed tree, with a committer (tags are made there only)."""
    where = tmp_path / "clone"
    subprocess.run(["git", "clone", "--quiet", "--no-local", "--depth", "1", f"file://{ROOT}", str(where)],  # noqa: S603,S607
                   check=True, timeout=300)
    for key, value in (("user.name", "Release Test"), ("user.email", "release@example.org")):
        git("config", key, value, cwd=where)
    return where


def release_in(clone: Path, version: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "tools.release", version], cwd=clone, capture_output=True,  # noqa: S603
                          text=True, timeout=120, check=False)


def test_a_release_is_one_command_and_the_upgrade_procedure_finds_it(clone: Path) -> None:
    made = release_in(clone, "9.8.7")
    assert made.returncode == 0, made.stderr
    assert made.stdout == "release: v9.8.7 made; publish it with `git push origin HEAD v9.8.7`\n"
    today = datetime.now(UTC).date().isoformat()
    text = (clone / "CHANGELOG.md").read_text(encoding="utf-8")
    assert f"## [Unreleased]\n\n## [9.8.7] - {today}\n" in text
    # docs/operations.md, "Upgrades", step 1: the releases are the tags, newest first; each tag's CHANGELOG
    assert git("tag", "--sort=-v:refname", cwd=clone).splitlines()[:1] == ["v9.8.7"]
    assert f"## [9.8.7] - {today}" in git("show", "v9.8.7:CHANGELOG.md", cwd=clone)
    assert git("describe", "--tags", cwd=clone) == "v9.8.7"


def test_a_release_that_does_not_name_a_new_migration_is_refused_and_changes_nothing(clone: Path) -> None:
    assert release_in(clone, "9.8.7").returncode == 0
    shutil.copyfile(clone / release.MIGRATIONS / "0001_initial.sql", clone / release.MIGRATIONS / "0999_later.sql")
    git("add", ".", cwd=clone)
    git("commit", "--quiet", "-m", "a migration nobody wrote down", cwd=clone)
    refused = release_in(clone, "9.8.8")
    assert refused.returncode == 1
    assert refused.stderr == "release: CHANGELOG.md does not name: 0999 (not named in CHANGELOG.md)\n"
    assert git("tag", "--list", "v9.8.8", cwd=clone) == ""
    assert git("status", "--porcelain", cwd=clone) == ""


def test_a_migration_named_only_in_an_older_release_is_refused_too(clone: Path) -> None:
    assert release_in(clone, "9.8.7").returncode == 0
    shutil.copyfile(clone / release.MIGRATIONS / "0001_initial.sql", clone / release.MIGRATIONS / "0999_later.sql")
    text = (clone / "CHANGELOG.md").read_text(encoding="utf-8")
    (clone / "CHANGELOG.md").write_text(text.replace("## [9.8.7]", "## [9.8.7]\n\n- 0999 (misplaced)"))
    git("commit", "--quiet", "-am", "named in the wrong place", cwd=clone)
    git("add", ".", cwd=clone)
    git("commit", "--quiet", "-m", "the migration", cwd=clone)
    refused = release_in(clone, "9.8.8")
    assert refused.stderr == ("release: CHANGELOG.md does not name: 0999 (added since the last release, not named "
                              "under Unreleased)\n")


def test_a_version_that_is_not_x_y_z_is_refused(clone: Path) -> None:
    refused = release_in(clone, "v1.0")
    assert (refused.returncode, refused.stderr) == (1, "release: a release is X.Y.Z (digits): 'v1.0'\n")
