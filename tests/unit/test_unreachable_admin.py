"""``/admin inalcanzables``'s use case (SPEC section 31): who the bot cannot write to in private, by name, in the
admin's language."""

from __future__ import annotations

from sqlalchemy import update

from taskcore.gateway.events import StatusUpdate
from taskcore.services import delivery
from taskcore.services.unreachable_admin import unreachable_reply
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group

ANA, LUIS = "34600111111", "34600333333"


def refuse(db: Database, user: str) -> None:
    units.run(db, delivery.record_statuses, [StatusUpdate(f"3EB0{user}", f"{user}@s.whatsapp.net", "ERROR")], now=NOW,
              rules=delivery.DeliveryRules())


def test_nobody_unreachable(db: Database) -> None:
    assert units.run(db, unreachable_reply, lang="es") == "Puedo escribir por privado a todo el mundo."
    assert units.run(db, unreachable_reply, lang="en") == "I can message everyone in private."


def test_the_unreachable_by_name_never_by_number(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, LUIS))
    with db.write() as conn:
        conn.execute(update(schema.users).where(schema.users.c.id == ANA).values(display_name="Ana"))
    refuse(db, ANA)
    refuse(db, LUIS)
    assert units.run(db, unreachable_reply, lang="pt").splitlines() == [
        "Pessoas a quem não consigo escrever no privado (2):", "• Ana, desde 22/11", "• Membro sem nome, desde 22/11",
        "Cada pessoa foi avisada num grupo; assim que me escrever no privado, envio o que ficou pendente."]
    assert LUIS not in units.run(db, unreachable_reply, lang="es")
