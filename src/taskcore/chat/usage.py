"""What each chat command accepts, in the words the replies and the help use (SPEC section 5).

A parser raises ``usage_error`` (why, and which command); the reply that refuses it is ``refusal``, written where
the error is caught, with the command's usage line that the conversation's registry holds: the parsers need no
registry, and the chat's modules import each other in no loop.
"""

from __future__ import annotations

from taskcore.chat.commands import CommandSyntaxError
from taskcore.dates import ACCEPTED_FORMS
from taskcore.i18n import SOURCE, _, current_language
from taskcore.recurrence import ACCEPTED_RULES
from taskcore.words import LANGUAGES, TABLES

MAX_COMMAND_LENGTH = 4096
"""Longer command messages are refused before they are parsed (SPEC section 16)."""


def usage_line(usage: str) -> str:
    """A command's usage line in the language in force, its ``{codes}`` the languages the bot speaks."""
    return _(usage, codes="|".join(LANGUAGES))


def date_forms() -> str:
    """The accepted date forms, as the replies and the help show them."""
    return _("Fechas: {forms}", forms=_(ACCEPTED_FORMS))


def rule_forms() -> str:
    """The accepted recurrence rules, as the replies and the help show them."""
    return _("Reglas: {forms}", forms=_(ACCEPTED_RULES))


def usage_error(
    name: str | None, reason: str, *, field: str | None = None, dates: bool = False, rules: bool = False,
    hint: str = "",
) -> CommandSyntaxError:
    """The syntax error of command ``name``: the reason, whether the date or rule forms belong in its reply, and
    the 💡 line that ends it (``hint``)."""
    return CommandSyntaxError(reason, command=name, field=field, dates=dates, rules=rules, hint=hint)


def refusal(error: CommandSyntaxError, accepted: str) -> str:
    """The reply to a malformed command: why, then the accepted form (``accepted``: the command's usage line, in the
    language in force), with the date or rule forms when the error asks for them."""
    if error.dates:
        accepted = f"{accepted}\n{date_forms()}"
    if error.rules:
        accepted = f"{accepted}\n{rule_forms()}"
    if error.hint:
        accepted = f"{accepted}\n{error.hint}"
    return _("{reason}.\nUso: {accepted}", reason=str(error), accepted=accepted)


def example_mark() -> str:
    """What stands between a command's usage and its example in the help."""
    return _(" — ej.: ")


def meaning_of(name: str) -> str:
    """The lexicons' meaning of command ``name``'s words: ``ausente`` is ``task.ausente``, ``admin grupos`` is
    ``admin.grupos`` and ``admin`` alone ``admin.ayuda`` (a command is named by its Spanish word)."""
    family, _sep, word = name.partition(" ")
    if family == "admin":
        return f"admin.{word or 'ayuda'}"
    return f"task.{name}"


def command_word(name: str) -> str:
    """The word of command ``name`` (``ausente``) in the reader's language (``fora``, ``away``), as a suggested
    command writes it."""
    meaning = meaning_of(name)
    table = TABLES.get(current_language(), TABLES[SOURCE])
    return table.get(meaning, TABLES[SOURCE][meaning])[0]
