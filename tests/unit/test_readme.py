"""The README: the two commands first, pictures that exist, the command sheet equal to the bot's own help."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from taskcore.chat.replies import ADMIN_HELP_TEXT, HELP_TEXT
from taskcore.chat.sheet import command_sheet
from tasksvc_run.cli import main

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST_COMMANDS = [
    "python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/tasksvc dev",
    "python3 -m venv .venv && .venv/bin/pip install -q nox && .venv/bin/nox",
]
PICTURES = {"docs/img/tasks.png", "docs/img/chat-simulator.png"}


def referenced_pictures() -> set[str]:
    markdown = re.findall(r"!\[[^\]]*\]\(([^)\s]+)", README)
    html = re.findall(r"<img\s[^>]*src=\"([^\"]+)\"", README)
    return set(markdown) | set(html)


def test_the_readme_starts_with_the_two_commands() -> None:
    first_block = README.split("```sh\n", 1)[1].split("```", 1)[0]
    assert first_block.splitlines() == FIRST_COMMANDS
    assert README.startswith("# tasksvc\n\n```sh\n")


def test_every_picture_the_readme_shows_exists_and_both_screenshots_are_shown() -> None:
    pictures = referenced_pictures()
    assert pictures >= PICTURES
    for picture in pictures:
        path = ROOT / picture
        assert path.is_file(), f"{picture} is missing: run the browser tests (tests/browser, tests/system)"
        assert path.read_bytes().startswith(b"\x89PNG")


def test_the_command_sheet_in_the_readme_is_the_generated_one() -> None:
    start, end = "<!-- commands-sheet:start -->\n", "<!-- commands-sheet:end -->"
    assert README.count(start) == README.count(end) == 1
    shown = README.split(start, 1)[1].split(end, 1)[0]
    # blank lines around it keep the table apart from the markers in every Markdown renderer
    assert shown.startswith("\n")
    assert shown.endswith("\n\n")
    assert shown.strip("\n") == command_sheet().strip("\n"), "run: tasksvc commands-sheet, paste it between the markers"


@pytest.mark.parametrize("line", [*HELP_TEXT.splitlines()[1:], *ADMIN_HELP_TEXT.splitlines()[1:]])
def test_every_usage_and_example_of_the_help_is_on_the_sheet(line: str) -> None:
    if line.startswith("• "):
        usage, _, example = line.removeprefix("• ").partition(" — ej.: ")
        assert f"`{usage.replace('|', chr(92) + '|')}`" in command_sheet()
        assert f"`{(example or usage).replace('|', chr(92) + '|')}`" in command_sheet()
    else:
        assert line in command_sheet()


def test_the_commands_sheet_command_prints_the_sheet(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["commands-sheet"]) == 0
    assert capsys.readouterr().out == command_sheet()


def test_the_readme_links_to_operations_configuration_and_decisions() -> None:
    for doc in ("docs/operations.md", "docs/configuration.md", "docs/decisions.md"):
        assert f"]({doc})" in README
        assert (ROOT / doc).is_file()
