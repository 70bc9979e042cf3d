"""``/admin inalcanzables`` in the chat (SPEC sections 29 and 31), the command added through the registry: who the bot
cannot write to in private, by name, to administrators only; in a group the list goes by direct message."""

from __future__ import annotations

from sqlalchemy import update

from taskcore.gateway.events import StatusUpdate
from taskcore.services import delivery
from taskcore.storage import schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group, wa_text
from tests.chat_support import policy, queued, run, texts

ANA, LUIS, ADMIN = "34600111111", "34600333333", "34699000001"


def refuse(db: Database, user: str) -> None:
    units.run(db, delivery.record_statuses, [StatusUpdate(f"3EB0{user}", f"{user}@s.whatsapp.net", "ERROR")], now=NOW,
              rules=delivery.DeliveryRules())


def setup(db: Database) -> int:
    """Ana cannot be written to in private (the group was told): how many texts that queued."""
    make_group(db, GROUP, members=(ANA, LUIS, ADMIN))
    with db.write() as conn:
        conn.execute(update(schema.users).where(schema.users.c.id == ANA).values(display_name="Ana"))
    refuse(db, ANA)
    return len(texts(db))


def test_an_admin_asks_in_private_and_reads_the_names(db: Database) -> None:
    before = setup(db)
    run(db, wa_text("/admin inalcanzables", sender=ADMIN, group=None), policy(admins=(ADMIN,)))
    [reply] = texts(db)[before:]
    assert reply.splitlines()[:2] == ["Personas a las que no puedo escribir por privado (1):", "• Ana, desde el 22/11"]
    assert ANA not in reply


def test_in_a_group_the_list_goes_in_private(db: Database) -> None:
    before = setup(db)
    run(db, wa_text("/admin unreachable", sender=ADMIN, group=GROUP), policy(admins=(ADMIN,)))
    jobs = [job for job in queued(db) if job.kind == "text"][before:]
    assert [job.text for job in jobs if job.chat_id == GROUP] == [f"@{ADMIN} Te lo he enviado por privado."]
    [private] = [job for job in jobs if job.chat_id == f"{ADMIN}@s.whatsapp.net"]
    assert "• Ana, desde el 22/11" in private.text


def test_a_non_admin_gets_nothing(db: Database) -> None:
    before = setup(db)
    run(db, wa_text("/admin inalcanzables", sender=LUIS, group=None), policy(admins=(ADMIN,)))
    assert texts(db)[before:] == []


def test_the_help_lists_it_in_the_reader_s_words(db: Database) -> None:
    run(db, wa_text("/admin", sender=ADMIN, group=None), policy(admins=(ADMIN,)))
    assert "• /admin inalcanzables" in texts(db)[0].splitlines()
