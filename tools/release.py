"""A release in one command (SPEC section 40): ``nox -s release -- X.Y.Z`` runs ``python -m tools.release X.Y.Z``.

It checks that CHANGELOG.md names every configuration variable (``Settings``' fields) and every migration file, and
that those added since the last release (its tag ``v*``: what the tag's tree has) are named in **Unreleased**; then
moves Unreleased under ``## [X.Y.Z] - <today>``, commits CHANGELOG.md and makes the annotated tag ``vX.Y.Z``. Pushing
is left to the maintainer (``git push origin main vX.Y.Z``): docs/operations.md's upgrade procedure starts from the
tags. A variable is named by its name (``PHOTO_MAX_MB``), a migration by its number as a word (``0015``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHANGELOG = ROOT / "CHANGELOG.md"
MIGRATIONS = Path("src") / "taskcore" / "storage" / "migrations"
UNRELEASED = "## [Unreleased]"
_VERSION = re.compile(r"[0-9]+\.[0-9]+\.[0-9]+")
_FIELD = re.compile(r"^    ([a-z][a-z0-9_]*): ", re.MULTILINE)  # a field of the Settings class, as its source says
_MIGRATION = re.compile(r"^([0-9]{4})_[a-z0-9_]+\.sql$")


def git(*args: str, cwd: Path = ROOT) -> str:
    """A git command's standard output (stripped); CalledProcessError when it fails."""
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()  # noqa: S603,S607


def settings_names() -> set[str]:
    """Every configuration variable of this tree (``Settings``' fields, as variables)."""
    from taskcore.settings import Settings  # noqa: PLC0415 - the installed tree's

    return {name.upper() for name in Settings.model_fields}


def migration_numbers(root: Path = ROOT) -> set[str]:
    """The numbers of this tree's migration files."""
    return {found[1] for path in (root / MIGRATIONS).iterdir() if (found := _MIGRATION.match(path.name))}


def last_release(root: Path = ROOT) -> tuple[str, set[str], set[str]] | None:
    """The last release's tag and the variables and migrations its tree had; None before the first tag."""
    try:
        tag = git("describe", "--tags", "--abbrev=0", "--match", "v[0-9]*", cwd=root)
    except subprocess.CalledProcessError:
        return None
    source = git("show", f"{tag}:src/taskcore/settings.py", cwd=root)
    body = source[source.index("class Settings("):]
    files = git("ls-tree", "--name-only", f"{tag}:{MIGRATIONS.as_posix()}", cwd=root).splitlines()
    return tag, {name.upper() for name in _FIELD.findall(body)}, {m[1] for f in files if (m := _MIGRATION.match(f))}


def section(text: str, heading: str) -> str:
    """The text of the ``## `` section that starts with ``heading`` (up to the next one)."""
    start = text.index(heading)
    following = text.find("\n## ", start + len(heading))
    return text[start:following if following != -1 else len(text)]


def _named(text: str, name: str) -> bool:
    return re.search(rf"(?<![A-Za-z0-9_]){re.escape(name)}(?![A-Za-z0-9_])", text) is not None


def unnamed(text: str, *, settings: set[str], migrations: set[str],
            released: tuple[set[str], set[str]] | None) -> list[str]:
    """What CHANGELOG ``text`` fails to name: anything not named at all, and what is newer than ``released`` (the
    last release's variables and migrations) and not named in its Unreleased section."""
    unreleased = section(text, UNRELEASED)
    missing = [f"{name} (not named in CHANGELOG.md)" for name in sorted(settings | migrations)
               if not _named(text, name)]
    if released is not None:
        new = (settings - released[0]) | (migrations - released[1])
        missing += [f"{name} (added since the last release, not named under Unreleased)" for name in sorted(new)
                    if _named(text, name) and not _named(unreleased, name)]
    return missing


def cut(text: str, version: str, today: str) -> str:
    """``text`` with Unreleased moved under ``## [version] - today`` and a new, empty Unreleased above it."""
    if f"## [{version}]" in text:
        raise ValueError(f"CHANGELOG.md already has a section for {version}")
    return text.replace(UNRELEASED, f"{UNRELEASED}\n\n## [{version}] - {today}", 1)


def release(version: str, *, root: Path = ROOT, today: str | None = None) -> str:
    """Check, cut, commit and tag; the tag made. ValueError (said in one line) when something is in the way."""
    if not _VERSION.fullmatch(version):
        raise ValueError(f"a release is X.Y.Z (digits): {version!r}")
    tag = f"v{version}"
    if git("tag", "--list", tag, cwd=root):
        raise ValueError(f"the tag {tag} exists already")
    if git("status", "--porcelain", cwd=root):
        raise ValueError("the work tree has changes: commit or stash them first")
    changelog = root / "CHANGELOG.md"
    text = changelog.read_text(encoding="utf-8")
    last = last_release(root)
    missing = unnamed(text, settings=settings_names(), migrations=migration_numbers(root),
                      released=(last[1], last[2]) if last else None)
    if missing:
        raise ValueError("CHANGELOG.md does not name: " + "; ".join(missing))
    changelog.write_text(cut(text, version, today or datetime.now(UTC).date().isoformat()), encoding="utf-8")
    git("commit", "--quiet", "-m", f"Release {version}", "--", "CHANGELOG.md", cwd=root)
    git("tag", "--annotate", tag, "-m", f"tasksvc {version}", cwd=root)
    return tag


def main(argv: list[str]) -> int:
    """``python -m tools.release X.Y.Z``."""
    if len(argv) != 1:
        print("usage: nox -s release -- X.Y.Z", file=sys.stderr)
        return 2
    try:
        tag = release(argv[0])
    except (ValueError, subprocess.CalledProcessError) as exc:
        print(f"release: {exc}", file=sys.stderr)
        return 1
    print(f"release: {tag} made; publish it with `git push origin HEAD {tag}`")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
