"""What a missed chore's person is told of its decision, and the refusal of one decided already (SPEC section 41),
in the language in force: the chat and the web write them alike (the web loads no chat module)."""

from __future__ import annotations

from taskcore.chores.missed import Missed, MissedState
from taskcore.chores.reward_texts import points, short
from taskcore.dates import format_due_date
from taskcore.i18n import _

__all__ = ["already_decided", "decided"]


def decided(missed: Missed, who: str) -> str:
    """What the person (``who``: their mention) is told: applied, or excused with the reason when there is one."""
    when = format_due_date(missed.due_date)
    if missed.state is MissedState.APPLIED:
        return _("{who}, se aplicó la penalización por no hacer #{id} «{task}» ({date}): −{points}.", who=who,
                 id=missed.task_id, task=short(missed.description), date=when, points=points(missed.points))
    text = _("{who}, se te excusa por no hacer #{id} «{task}» ({date}): no se te quita ningún punto.", who=who,
             id=missed.task_id, task=short(missed.description), date=when)
    return (f"{text} " + _("Motivo: {reason}", reason=missed.reason)) if missed.reason else text


def already_decided(missed: Missed) -> str:
    """A missed chore applied or excused before."""
    if missed.state is MissedState.APPLIED:
        return _("La falta {n} ya estaba aplicada.", n=missed.id)
    return _("La falta {n} ya estaba excusada.", n=missed.id)
