"""The README: the two commands first, pictures that exist, the command sheet equal to the bot's own help."""

from __future__ import annotations

import re
import struct
import tomllib
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from taskcore.services.conversation.registry import admin_help_text, command_sheet, help_text
from tasksvc_run.cli import main
from tests.pictures import SAME_PICTURE_MAX_CHANGED, changed_share, same_picture

ROOT = Path(__file__).resolve().parents[2]
README = (ROOT / "README.md").read_text(encoding="utf-8")
FIRST_COMMANDS = [
    "python3 -m venv .venv && .venv/bin/pip install -q -e \".[service]\" && .venv/bin/tasksvc dev",
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


@pytest.mark.parametrize("lang", ["es", "pt", "en"])
def test_the_command_sheet_in_the_readme_is_the_generated_one(lang: str) -> None:
    start, end = f"<!-- commands-sheet:{lang}:start -->\n", f"<!-- commands-sheet:{lang}:end -->"
    assert README.count(start) == README.count(end) == 1
    shown = README.split(start, 1)[1].split(end, 1)[0]
    # blank lines around it keep the table apart from the markers in every Markdown renderer
    assert shown.startswith("\n")
    assert shown.endswith("\n\n")
    assert shown.strip("\n") == command_sheet(lang).strip("\n"), (
        f"run: tasksvc commands-sheet --lang {lang}, paste it between the markers")


def test_the_three_sheets_differ_in_their_words() -> None:
    assert "`/t nueva comprar pan mañana @Ana`" in command_sheet("es")
    assert "`/t nova comprar pão amanhã @Ana`" in command_sheet("pt")
    assert "`/t new buy bread tomorrow @Ana`" in command_sheet("en")


@pytest.mark.parametrize("line", [*help_text().splitlines()[1:], *admin_help_text().splitlines()[1:]])
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
    assert main(["commands-sheet", "--lang", "pt"]) == 0
    assert capsys.readouterr().out == command_sheet("pt")


def test_the_commands_sheet_refuses_a_language_it_does_not_have(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["commands-sheet", "--lang", "fr"])
    assert exit_.value.code == 2
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_the_readme_links_to_operations_configuration_and_decisions() -> None:
    for doc in ("docs/operations.md", "docs/configuration.md", "docs/decisions.md"):
        assert f"]({doc})" in README
        assert (ROOT / doc).is_file()


def png(width: int, height: int, pixel: Callable[[int, int], bytes], *, filter_type: int = 0) -> bytes:
    """A tiny RGB PNG; filter 2 ("up") stores each row as its difference from the one above."""
    rows, previous = b"", bytes(width * 3)
    for y in range(height):
        line = b"".join(pixel(x, y) for x in range(width))
        stored = bytes((a - b) & 0xFF for a, b in zip(line, previous, strict=True)) if filter_type == 2 else line
        rows += bytes([filter_type]) + stored
        previous = line

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b"")


def test_pictures_that_differ_in_a_few_edge_pixels_count_as_the_same_and_others_do_not() -> None:
    plain = png(40, 25, lambda x, y: bytes([x, y, 7]))
    one_pixel = png(40, 25, lambda x, y: bytes([x, y, 8 if (x, y) == (39, 24) else 7]), filter_type=2)
    assert changed_share(plain, plain) == 0.0
    assert changed_share(plain, one_pixel) == 1 / 1000
    assert changed_share(plain, png(40, 25, lambda x, y: bytes([y, x, 7]))) > SAME_PICTURE_MAX_CHANGED
    assert changed_share(plain, png(41, 25, lambda x, y: bytes([x, y, 7]))) == 1.0
    # the picture tests compare with this, not byte for byte: a kept picture may differ in an edge pixel
    assert same_picture(plain, one_pixel)
    assert not same_picture(plain, png(40, 25, lambda x, y: bytes([y, x, 7])))


def test_the_readme_says_which_python_is_needed() -> None:
    root = Path(__file__).resolve().parents[2]
    floor = tomllib.loads((root / "pyproject.toml").read_text())["project"]["requires-python"]
    assert floor == ">=3.11"
    assert "Python 3.11 or newer" in (root / "README.md").read_text(encoding="utf-8").split("## ", 1)[0]
