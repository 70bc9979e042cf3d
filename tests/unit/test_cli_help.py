"""`tasksvc` explains itself (SPEC section 27): a version, the commands in the order an operator meets them, each with
a one-line description, internal ones hidden."""

from __future__ import annotations

import re

import pytest

from tasksvc_run.cli import build_parser, main
from tasksvc_run.cli_grammar import ORDER


def test_version_prints_the_installed_version_and_its_commit(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["--version"])
    assert stopped.value.code == 0
    assert re.fullmatch(r"tasksvc \d+\.\d+\.\d+\S* \(commit [0-9a-f]{7,}\)\n", capsys.readouterr().out)


def test_the_commands_are_listed_in_order_each_with_a_description() -> None:
    help_text = build_parser().format_help()
    listed = re.findall(r"^    (\S+)", help_text, flags=re.MULTILINE)
    assert listed == list(ORDER)
    assert ORDER[:3] == ("run", "dev", "doctor")
    assert "devgateway" not in help_text
    assert "_plan" not in help_text


@pytest.mark.parametrize("command", ORDER)
def test_each_commands_help_describes_it(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"usage: tasksvc {command}")
    assert lines[1] == ""
    assert lines[2][:1].isupper()
    assert len(lines[2]) > 20
