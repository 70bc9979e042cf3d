"""What each chat command accepts, in the words the replies and the help use (SPEC section 5)."""

from __future__ import annotations

from taskcore.chat.commands import CommandSyntaxError
from taskcore.dates import ACCEPTED_FORMS
from taskcore.i18n import SOURCE, _, current_language
from taskcore.recurrence import ACCEPTED_RULES
from taskcore.words import TABLES

MAX_COMMAND_LENGTH = 4096
"""Longer command messages are refused before they are parsed (SPEC section 16)."""


def date_forms() -> str:
    """The accepted date forms, as the replies and the help show them."""
    return _("Fechas: {forms}", forms=_(ACCEPTED_FORMS))


def rule_forms() -> str:
    """The accepted recurrence rules, as the replies and the help show them."""
    return _("Reglas: {forms}", forms=_(ACCEPTED_RULES))


def usage_error(
    name: str | None, reason: str, *, field: str | None = None, dates: bool = False, rules: bool = False
) -> CommandSyntaxError:
    """The syntax error of command ``name``: the reason, then the accepted form (and the date or rule forms when
    asked)."""
    from taskcore.chat.registry import usage_of  # noqa: PLC0415 - the registry's parsers raise this error

    usage = usage_of(name)
    accepted = _(usage[0]) if usage is not None else _subcommand_list(name)
    if dates:
        accepted = f"{accepted}\n{date_forms()}"
    if rules:
        accepted = f"{accepted}\n{rule_forms()}"
    return CommandSyntaxError(reason, command=name, accepted=accepted, field=field)


def _subcommand_list(name: str | None) -> str:
    """The family's commands by their words in the language in force: ``/t ayuda|nueva|ver...``."""
    from taskcore.chat.registry import ROWS  # noqa: PLC0415 - the registry's parsers raise this error

    family = "admin" if name is not None and name.startswith("admin") else "task"
    table = TABLES.get(current_language(), TABLES[SOURCE])
    words = [table.get(row.word, TABLES[SOURCE][row.word])[0] for row in ROWS
             if row.family == family and row.usage is not None]
    return f"/admin [{'|'.join(words)}]" if family == "admin" else f"/t {'|'.join(words)}"


def example_mark() -> str:
    """What stands between a command's usage and its example in the help."""
    return _(" — ej.: ")


def command_word(name: str) -> str:
    """The word of command ``name`` (``ausente``) in the reader's language (``fora``, ``away``), as a suggested
    command writes it."""
    from taskcore.chat.registry import row_named  # noqa: PLC0415 - the registry's parsers raise usage errors

    word = row_named(name).word
    table = TABLES.get(current_language(), TABLES[SOURCE])
    return table.get(word, TABLES[SOURCE][word])[0]
