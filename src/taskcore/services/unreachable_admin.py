"""``/admin inalcanzables`` (SPEC section 31), the use case: who the bot cannot write to in private and since when, in
the admin's language. People are named, never shown by number (SPEC section 32); the chat command is wired by the
command registry (section 29)."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.i18n import _, day_and_month, speaking
from taskcore.services.delivery import unreachable_people
from taskcore.storage.delivery import Unreachable
from taskcore.unit import UnitOfWork


def unreachable_text(people: Sequence[Unreachable]) -> str:
    """The reply listing ``people`` (longest first), in the language in force."""
    if not people:
        return _("Puedo escribir por privado a todo el mundo.")
    lines = [_("Personas a las que no puedo escribir por privado ({total}):", total=len(people))]
    lines += [_("• {name}, desde el {date}", name=person.name or _("Miembro sin nombre"),
                date=day_and_month(person.since.date())) for person in people]
    lines.append(_("A cada persona se le avisó en un grupo; en cuanto me escriba por privado, le envío lo pendiente."))
    return "\n".join(lines)


def unreachable_reply(uow: UnitOfWork, *, lang: str) -> str:
    """The whole reply to an admin who asks, in ``lang``."""
    people = unreachable_people(uow)
    with speaking(lang):
        return unreachable_text(people)
