"""A person is not a phone number in the chat (SPEC section 32): /t web acknowledged by a reaction, people known only
by a LID served end to end, summaries by name, never digits, never the bot."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.people import note_bot_ids
from tests.builders import BOT_PHONE, GROUP, NOW, make_group, wa_envelope, wa_text
from tests.chat_support import member, policy, queued, reactions, run, task_rows, texts

ANA = "34600111111"
LID = "198765432100009"  # a person whose number the bot never saw


def lid_only(text: str, *, group: str | None = GROUP) -> dict[str, Any]:
    """A message from the LID-only person, in a LID group (or privately)."""
    payload = wa_text(text, sender=LID, group=group, push_name="Lía")
    key = payload["data"]["key"]  # type: ignore[index]
    if group is None:
        key["remoteJid"] = f"{LID}@lid"
    else:
        key |= {"participant": f"{LID}@lid", "addressingMode": "lid"}
    return payload


def test_web_in_a_group_with_reactions_on_is_acknowledged_by_the_mark_alone(db: Database) -> None:
    run(db, wa_text("/t web"), policy(reactions_on=True))
    jobs = queued(db)
    assert [job.chat_id for job in jobs if job.kind == "text"] == [f"{ANA}@s.whatsapp.net"]
    assert reactions(db) == ["🤖"]


def test_web_in_a_group_with_reactions_off_says_it_in_a_short_text(db: Database) -> None:
    run(db, wa_text("/t web"))
    assert texts(db)[0] == f"@{ANA} Te lo envío por privado."


def test_a_person_known_only_by_a_lid_creates_claims_and_gets_the_link(db: Database) -> None:
    run(db, lid_only("/t nueva regar mañana"))
    (task,) = task_rows(db)
    assert task.created_by == LID
    run(db, lid_only("/t web", group=None))
    (link,) = [job for job in queued(db) if job.label == "login"]
    assert link.chat_id == f"{LID}@lid"
    assert "token=" in link.text
    run(db, lid_only("/t recordatorios diario 08:00", group=None))
    assert "08:00" in texts(db)[-1]
    assert LID not in texts(db)[-1]


def test_a_summary_names_members_without_a_name_neutrally_and_leaves_the_bot_out(db: Database) -> None:
    make_group(db, GROUP, members=("447700900123", BOT_PHONE))
    run(db, wa_text("hola", push_name=None))
    with db.write() as conn:
        note_bot_ids(conn, [BOT_PHONE], NOW)
    run(db, wa_text("/t resumen", push_name=None))
    summary = texts(db)[-1]
    assert "Miembro sin nombre" in summary
    assert "447700900123" not in summary
    assert BOT_PHONE not in summary


def test_a_lid_only_person_s_private_link_is_in_the_group_s_language(db: Database) -> None:
    run(db, lid_only("/t idioma grupo en"))  # the group's language, theirs while they chose none
    run(db, lid_only("/t web"))
    (link,) = [job for job in queued(db) if job.label == "login"]
    assert link.text.startswith("Your link")


def addressing_of(db: Database, group_id: str) -> str | None:
    with db.read() as conn:
        return conn.execute(select(schema.groups.c.addressing).where(schema.groups.c.id == group_id)).scalar()


def test_a_group_s_form_is_its_record_s_never_a_message_s_key(db: Database) -> None:
    run(db, lid_only("hola"))
    assert addressing_of(db, GROUP) is None  # a message's key says nothing of the group
    group = {"id": GROUP, "subject": "Piso", "addressingMode": "lid",
             "participants": [{"id": f"{LID}@lid", "admin": None}]}
    run(db, wa_envelope("groups.upsert", [group]))
    assert addressing_of(db, GROUP) == "lid"
    run(db, wa_text("hola"))  # an old client's message in phone-number form (the builder's say "pn")
    assert addressing_of(db, GROUP) == "lid"


def test_a_membership_recorded_before_the_bot_knew_its_ids_goes_when_it_learns_them(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, BOT_PHONE))
    with db.write() as conn:
        note_bot_ids(conn, [BOT_PHONE], NOW)
    assert member(db, GROUP, BOT_PHONE) is None
    assert member(db, GROUP, ANA).active
