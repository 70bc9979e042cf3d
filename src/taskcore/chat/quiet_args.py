"""How ``/t silencio``, ``/t ausente`` and ``/t vuelvo`` read (SPEC section 25)."""

from __future__ import annotations

from collections.abc import Callable

from taskcore.chat.chore_commands import Back, SetAway, SetQuiet
from taskcore.chat.commands import Command
from taskcore.chat.new_task_args import Context, date_refusal, due_date, meant_date, shown
from taskcore.chat.usage import usage_error as _error
from taskcore.chores.quiet import parse_quiet
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.words import join_phrases, meaning


def parse_quiet_command(args: str, ctx: Context) -> SetQuiet:
    """``/t silencio HH:MM-HH:MM`` or ``/t silencio no``."""
    text = args.strip()
    if not text:
        raise _error("silencio", _("faltan datos"), field="quiet")
    if meaning("quiet", text) == "off":
        return SetQuiet(None)
    try:
        return SetQuiet(parse_quiet(text))
    except InvalidChoreSetting as exc:
        raise _error("silencio", _("horas no válidas: {word}", word=shown(text)), field="quiet") from exc


def parse_away(args: str, ctx: Context) -> SetAway:
    """``/t ausente <fecha>``: any date form the chat accepts, date words of every language included."""
    words = join_phrases(args.split(), "date")
    if len(words) > 1 and meant_date(" ".join(words), ctx.today) is not None:  # /t away Dec 14
        raise date_refusal(" ".join(words), "ausente", ctx.today, ctx=ctx)
    if len(words) != 1:
        raise _error("ausente", _("faltan datos") if not words else _("sobran datos"), field="away_until",
                     dates=True)
    return SetAway(due_date(words[0], "ausente", ctx.today, ctx=ctx))


def parse_back(args: str, ctx: Context) -> Back:
    """``/t vuelvo`` (extra words ignored)."""
    return Back()


CHORE_PARSERS: dict[str, Callable[[str, Context], Command]] = {
    "silencio": parse_quiet_command,
    "ausente": parse_away,
    "vuelvo": parse_back,
}
"""The parsers of this section's commands, by the meaning of their words (``taskcore.words``)."""
