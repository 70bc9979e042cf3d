"""The chat command sheet of the README, generated from the help texts the bot itself sends (``/t ayuda``, ``/admin``).

Each help line ``• <usage> — ej.: <example>`` becomes a table row; any other line is kept as a paragraph, so a
change to the grammar's help changes the sheet and the README test says so.
"""

from __future__ import annotations

from taskcore.chat.registry import admin_help_text, help_text
from taskcore.chat.usage import example_mark
from taskcore.i18n import _, speaking

_BULLET = "• "


def command_sheet(lang: str = "es") -> str:
    """Markdown in ``lang``: the ``/t`` commands, then the administrators' ``/admin`` commands, each with its
    example."""
    with speaking(lang):
        return "\n".join([*_section(help_text()), "", *_section(admin_help_text())]) + "\n"


def _section(text: str) -> list[str]:
    title, *lines = text.splitlines()
    out = [f"**{title.rstrip(':')}**", "", "| {} | {} |".format(_("Orden"), _("Ejemplo")), "|---|---|"]
    notes = []
    for line in lines:
        if line.startswith(_BULLET):
            usage, _sep, example = line.removeprefix(_BULLET).partition(example_mark())
            out.append(f"| {_code(usage)} | {_code(example or usage)} |")
        else:
            notes.append(line)
    return out + (["", *notes] if notes else [])


def _code(text: str) -> str:
    """Inline code that survives a Markdown table: pipes escaped."""
    return "`" + text.replace("|", "\\|") + "`"
