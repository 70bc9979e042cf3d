"""How ``/t insistir`` and ``/t pasar`` read (SPEC section 25).

Choices the SPEC leaves open: the interval is written ``cada 12 h``, ``cada 12h``, ``12 h``, ``12`` (``horas``,
``hours``, ``hs`` too; ``every``/``a cada`` in the other languages); without one it is 24 hours; ``no`` (``off``,
``não``) stops the nags. In a reply to a task's message the id may be left out.
"""

from __future__ import annotations

from taskcore.chat.chore_commands import PassTurn, SetNag
from taskcore.chat.new_task_args import Context, shown
from taskcore.chat.task_args import task_and_rest
from taskcore.chat.usage import usage_error as _error
from taskcore.chores.nagging import DEFAULT_EVERY_HOURS, MAX_EVERY_HOURS, MIN_EVERY_HOURS
from taskcore.i18n import _
from taskcore.words import join_phrases, meaning
from taskcore.words.read import hours

__all__ = ["parse_nag", "parse_pass"]


def _hours(words: list[str]) -> int | None:
    """The interval written in ``words`` (``cada`` dropped), None when it is no interval."""
    if words and meaning("rule", words[0]) == "intro":
        words = words[1:]
    return hours(" ".join(words)) if words else None


def parse_nag(args: str, ctx: Context) -> SetNag:
    """``/t insistir <id> [cada N h]`` or ``/t insistir <id> no``."""
    task_id, rest = task_and_rest(join_phrases(args.split(), "rule"), "insistir", ctx)
    if not rest:
        return SetNag(task_id, DEFAULT_EVERY_HOURS)
    if len(rest) == 1 and meaning("freq", rest[0]) == "off":
        return SetNag(task_id, None)
    hours = _hours(rest)
    if hours is None or not MIN_EVERY_HOURS <= hours <= MAX_EVERY_HOURS:
        raise _error("insistir", _("intervalo no válido: {word} (de {low} a {high} horas)", word=shown(" ".join(rest)),
                                   low=MIN_EVERY_HOURS, high=MAX_EVERY_HOURS), field="nag")
    return SetNag(task_id, hours)


def parse_pass(args: str, ctx: Context) -> PassTurn:
    """``/t pasar <id>``."""
    task_id, rest = task_and_rest(args.split(), "pasar", ctx)
    if rest:
        raise _error("pasar", _("sobran datos"))
    return PassTurn(task_id)
