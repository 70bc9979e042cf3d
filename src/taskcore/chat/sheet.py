"""The chat command sheet of the README, generated from the help texts the bot itself sends (``/t ayuda``, ``/admin``).

Each help line ``• <usage> — ej.: <example>`` becomes a table row; any other line is kept as a paragraph, so a
change to the grammar's help changes the sheet and the README test says so.
"""

from __future__ import annotations

from taskcore.chat.usage import ADMIN_HELP_TEXT, HELP_TEXT

_BULLET = "• "
_EXAMPLE = " — ej.: "


def command_sheet() -> str:
    """Markdown: the ``/t`` commands, then the administrators' ``/admin`` commands, each with its example."""
    return "\n".join([*_section(HELP_TEXT), "", *_section(ADMIN_HELP_TEXT)]) + "\n"


def _section(help_text: str) -> list[str]:
    title, *lines = help_text.splitlines()
    out = [f"**{title.rstrip(':')}**", "", "| Orden | Ejemplo |", "|---|---|"]
    notes = []
    for line in lines:
        if line.startswith(_BULLET):
            usage, _, example = line.removeprefix(_BULLET).partition(_EXAMPLE)
            out.append(f"| {_code(usage)} | {_code(example or usage)} |")
        else:
            notes.append(line)
    return out + (["", *notes] if notes else [])


def _code(text: str) -> str:
    """Inline code that survives a Markdown table: pipes escaped."""
    return "`" + text.replace("|", "\\|") + "`"
