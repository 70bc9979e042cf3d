"""Versions from the repository's tags (SPEC section 33): a wheel built from a tree tagged v0.1.0 is 0.1.0 and says
so with its commit in `tasksvc --version`; a plain `pip install` of the v0.2.0 wheel over it upgrades it; a tree
without tags, or without git at all (the image's build context), still builds."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GIT = ["git", "-c", "user.name=Release Test", "-c", "user.email=release@example.org", "-c", "commit.gpgsign=false",
       "-c", "tag.gpgsign=false", "-c", "init.defaultBranch=main"]


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run([str(arg) for arg in args], cwd=cwd, capture_output=True, text=True, timeout=120,  # noqa: S603
                          check=False, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.strip()


def source_tree(at: Path) -> Path:
    """What the Dockerfile copies (pyproject.toml, README.md and src/) and .gitignore, without anything a build or
    an install left behind."""
    at.mkdir()
    for name in ("pyproject.toml", "README.md", ".gitignore"):
        shutil.copy(ROOT / name, at / name)
    shutil.copytree(ROOT / "src", at / "src",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "_version.py"))
    return at


def build(tree: Path, out: Path, env: dict[str, str] | None = None) -> Path:
    """The wheel of ``tree`` (the installed setuptools and setuptools-scm, no build isolation: no download)."""
    shutil.rmtree(tree / "build", ignore_errors=True)
    before = set(out.glob("*.whl"))
    run(sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation", "--wheel-dir", out,
        tree, cwd=tree, env=env)
    [made] = set(out.glob("*.whl")) - before
    return made


def tagged(tree: Path, tag: str) -> str:
    """Commit what ``tree`` holds and tag it with an annotated ``tag``; the commit's short id."""
    run(*GIT, "add", "-A", cwd=tree)
    run(*GIT, "commit", "--quiet", "--allow-empty", "-m", f"release {tag}", cwd=tree)
    run(*GIT, "tag", "-a", tag, "-m", f"tasksvc {tag}", cwd=tree)
    return run(*GIT, "rev-parse", "--short=9", "HEAD", cwd=tree)


def environment_beside_this_one(at: Path) -> Path:
    """A new virtual environment whose own site-packages comes first, with this one's dependencies behind it; its
    python."""
    run(sys.executable, "-m", "venv", "--without-pip", at, cwd=at.parent)
    [site] = at.glob("lib/python3*/site-packages")
    (site / "deps.pth").write_text(f"import site; site.addsitedir({sysconfig.get_paths()['purelib']!r})\n")
    return at / "bin" / "python"


def install(python: Path, wheel: Path) -> None:
    """A plain `pip install` of ``wheel`` (no --upgrade, no --force-reinstall) into ``python``'s environment."""
    run(sys.executable, "-m", "pip", "--python", python, "install", "--quiet", "--no-deps", wheel, cwd=wheel.parent)


def version_of(python: Path) -> str:
    return run(python, "-m", "tasksvc_run", "--version", cwd=python.parent)


def test_a_tagged_tree_builds_its_version_and_a_newer_wheel_upgrades_a_plain_install(tmp_path: Path) -> None:
    tree, out = source_tree(tmp_path / "tree"), tmp_path / "dist"
    run(*GIT, "init", "--quiet", cwd=tree)
    # Versions no release of the project itself will have: the environment these tests run in has the project
    # installed at its own version, which pip would take as already satisfied.
    first = tagged(tree, "v90.1.0")
    old = build(tree, out)
    assert old.name.startswith("tasksvc-90.1.0-")
    (tree / "README.md").write_text((tree / "README.md").read_text() + "\nA change of the next release.\n")
    second = tagged(tree, "v90.2.0")
    new = build(tree, out)
    assert new.name.startswith("tasksvc-90.2.0-")
    python = environment_beside_this_one(tmp_path / "venv")
    install(python, old)
    assert version_of(python) == f"tasksvc 90.1.0 (commit {first})"
    install(python, new)
    assert version_of(python) == f"tasksvc 90.2.0 (commit {second})"


def test_a_tree_without_tags_or_without_git_still_builds(tmp_path: Path) -> None:
    out = tmp_path / "dist"
    bare = build(source_tree(tmp_path / "bare"), out)  # no .git: the image's build context
    assert bare.name.startswith("tasksvc-0.0.0-")
    untagged = source_tree(tmp_path / "untagged")  # a clone that came without its tags
    run(*GIT, "init", "--quiet", cwd=untagged)
    run(*GIT, "add", "-A", cwd=untagged)
    run(*GIT, "commit", "--quiet", "-m", "no tag here", cwd=untagged)
    assert build(untagged, out).name.startswith("tasksvc-0.0.1.dev1+g")


def dockerfile_build_environment(version: str, revision: str) -> dict[str, str]:
    """The variables the Dockerfile's `pip install` step sets, with its build arguments filled in."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text(encoding="utf-8"))
    [install] = [line for line in text.splitlines() if line.startswith("RUN ") and "pip install" in line]
    words = shlex.split(install.removeprefix("RUN ").replace("${VERSION}", version).replace("${REVISION}", revision))
    return dict(word.split("=", 1) for word in words if re.match(r"SETUPTOOLS_SCM_\w+=", word))


def test_the_image_build_gets_its_version_and_commit_from_its_build_arguments(tmp_path: Path) -> None:
    environ = {**os.environ, **dockerfile_build_environment("0.3.0", "1a2b3c4d5")}
    wheel = build(source_tree(tmp_path / "context"), tmp_path / "dist", env=environ)
    assert wheel.name.startswith("tasksvc-0.3.0-")
    python = environment_beside_this_one(tmp_path / "venv")
    install(python, wheel)
    assert version_of(python) == "tasksvc 0.3.0 (commit 1a2b3c4d5)"
