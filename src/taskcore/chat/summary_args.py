"""The arguments of ``/t puntos`` and ``/t resumen`` (SPEC section 25): a task's points, a summary's period, and the
group's weekly summary moment.

Choices the SPEC leaves open: ``/t resumen`` takes at most one period word (``semana``, ``mes`` in any of the three
languages; the week without one); ``/t resumen semanal`` (``weekly``) is followed by ``<día> HH:MM`` or ``no``.
"""

from __future__ import annotations

from taskcore.chat.chore_commands import SetPoints, SetWeeklySummary, ShowSummary
from taskcore.chat.usage import usage_error
from taskcore.chores.points import check_points
from taskcore.chores.summary import parse_period
from taskcore.chores.weekly import parse_weekly
from taskcore.errors import InvalidChoreSetting
from taskcore.i18n import _
from taskcore.words import meaning

_DIGITS = frozenset("0123456789")


def _shown(token: str) -> str:
    return f"«{token[:40]}…»" if len(token) > 40 else f"«{token}»"


def parse_points_command(args: str, task_id: int) -> SetPoints:
    """``/t puntos <id> N`` once the id is read: N from 1 to 10 (``!N`` too)."""
    words = args.split()
    if len(words) != 1:
        raise usage_error("puntos", _("faltan datos") if not words else _("sobran datos"))
    number = words[0].removeprefix("!")
    if not number or not set(number) <= _DIGITS or len(number) > 2:
        raise usage_error("puntos", _("puntos no válidos: {word}", word=_shown(words[0])), field="points")
    try:
        return SetPoints(task_id, check_points(int(number)))
    except InvalidChoreSetting as exc:
        raise usage_error("puntos", str(exc), field="points") from exc  # check_points's own message


def parse_summary(args: str, _ctx: object) -> ShowSummary | SetWeeklySummary:
    """``/t resumen [semana|mes]`` or ``/t resumen semanal <día> HH:MM|no``."""
    words = args.split()
    if words and meaning("freq", words[0]) == "weekly":
        try:
            return SetWeeklySummary(parse_weekly(words[1:]))
        except InvalidChoreSetting as exc:
            raise usage_error("resumen", _("día u hora no válidos: {word}", word=_shown(" ".join(words[1:]))),
                              field="weekly") from exc
    if len(words) > 1:
        raise usage_error("resumen", _("sobran datos"))
    try:
        return ShowSummary(parse_period(words[0] if words else None))
    except InvalidChoreSetting as exc:
        raise usage_error("resumen", _("periodo no válido: {word}", word=_shown(words[0])), field="period") from exc
