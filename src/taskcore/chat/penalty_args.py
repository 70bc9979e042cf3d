"""The commands of missed chores and the kitchen display (SPEC section 41) and how they read: ``/t penalizacion
[<puntos>]``, ``/t aplicar <n>``, ``/t excusar <n> [<motivo>]``, ``/t pantalla [borrar]``.

Choices the SPEC leaves open: ``/t penalizacion`` alone shows the group's penalty; ``<n>`` is the missed chore's own
number as ``/t pendientes`` shows it (``#`` optional), not the task's: a task missed by two people is two missed
chores; ``/t pantalla borrar`` (the calendar's revoking words) revokes the display's address without a new one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from taskcore.chat.commands import Command
from taskcore.chat.new_task_args import Context, description, shown
from taskcore.chat.task_args import TASK_ID
from taskcore.chat.usage import usage_error
from taskcore.chores.missed import MAX_PENALTY
from taskcore.i18n import _
from taskcore.words import key, words_of

__all__ = ["ApplyMissed", "DisplayLink", "DisplayRevoke", "ExcuseMissed", "SetPenalty", "parse_apply",
           "parse_display", "parse_excuse", "parse_penalty"]

_REVOKE_WORDS = words_of("calendar.revoke")


@dataclass(frozen=True, slots=True)
class SetPenalty(Command):
    """``/t penalizacion <puntos>`` (a group admin; 0 turns it off), or alone (``points`` None): the penalty now."""

    name: ClassVar[str] = "penalizacion"
    points: int | None


@dataclass(frozen=True, slots=True)
class ApplyMissed(Command):
    """``/t aplicar <n>``: a group admin deducts missed chore ``n``'s points."""

    name: ClassVar[str] = "aplicar"
    missed_id: int


@dataclass(frozen=True, slots=True)
class ExcuseMissed(Command):
    """``/t excusar <n> [<motivo>]``: a group admin excuses missed chore ``n``."""

    name: ClassVar[str] = "excusar"
    missed_id: int
    reason: str


@dataclass(frozen=True, slots=True)
class DisplayLink(Command):
    """``/t pantalla``: a new secret address of the group's display (the previous one stops working)."""

    name: ClassVar[str] = "pantalla"
    reads_only: ClassVar[bool] = True  # its link is made only when it is sent, as the calendar's (SPEC section 38)


@dataclass(frozen=True, slots=True)
class DisplayRevoke(Command):
    """``/t pantalla borrar``: the group's display address stops working."""

    name: ClassVar[str] = "pantalla"


def parse_penalty(args: str, _ctx: Context) -> SetPenalty:
    """``/t penalizacion`` alone or with a whole number of points from 0 to MAX_PENALTY."""
    words = args.split()
    if not words:
        return SetPenalty(None)
    if len(words) > 1:
        raise usage_error("penalizacion", _("sobran datos"))
    digits = words[0].removeprefix("!")
    if not digits.isdigit() or not digits.isascii() or int(digits) > MAX_PENALTY:
        raise usage_error("penalizacion", _("la penalización es un número de 0 (sin penalización) a {high} puntos: "
                                            "{word} no lo es", high=MAX_PENALTY, word=shown(words[0])),
                          field="points")
    return SetPenalty(int(digits))


def _number(token: str | None, name: str) -> int:
    if token is None:
        raise usage_error(name, _("falta el número de la falta (lo muestra /t pendientes)"), field="missed_id")
    match = TASK_ID.fullmatch(token)
    if match is None or int(match.group(1)) == 0:
        raise usage_error(name, _("número de falta no válido: {word}", word=shown(token)), field="missed_id")
    return int(match.group(1))


def parse_apply(args: str, _ctx: Context) -> ApplyMissed:
    """``/t aplicar <n>``."""
    words = args.split()
    if len(words) > 1:
        raise usage_error("aplicar", _("sobran datos"))
    return ApplyMissed(_number(words[0] if words else None, "aplicar"))


def parse_excuse(args: str, _ctx: Context) -> ExcuseMissed:
    """``/t excusar <n> [<motivo>]``."""
    words = args.split()
    number = _number(words[0] if words else None, "excusar")
    rest = " ".join(words[1:])
    return ExcuseMissed(number, description(rest, "excusar") if rest else "")


def parse_display(args: str, _ctx: Context) -> DisplayLink | DisplayRevoke:
    """``/t pantalla`` alone, or followed by one of the calendar's revoking words."""
    words = args.split()
    if not words:
        return DisplayLink()
    if len(words) > 1:
        raise usage_error("pantalla", _("sobran datos"))
    if key(words[0]) not in _REVOKE_WORDS:
        raise usage_error("pantalla", _("opción no válida: «{option}»", option=words[0][:40]))
    return DisplayRevoke()
