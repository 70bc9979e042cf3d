"""Every message arrives (SPEC section 31), the use cases with ``now`` passed in: statuses kept per message, a direct
message that ends in ERROR marks its person unreachable (not resent, what it carried held, told once a week in a group
they share, in their language), a cold one pauses reach-outs, and a message from the person in private undoes it."""

from __future__ import annotations

import json
from datetime import datetime, timedelta

from sqlalchemy import func, select

from taskcore.gateway.events import StatusUpdate
from taskcore.gateway.outbound import text_payload
from taskcore.queue_rules import DIGEST_LABEL, LOGIN_LINK_LABEL, JobKind, QueueJob
from taskcore.services import delivery, queue
from taskcore.services.caps import SendRules
from taskcore.services.languages import save_user_language
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue
from tasksvc_run import units
from tests.builders import GROUP, NOW, make_group
from tests.chat_support import queued

ANA, BEA, LUIS, EVA = "34600111111", "5511987654321", "34600333333", "34600444444"
RULES = delivery.DeliveryRules(max_attempts=6, default_language="es", gating_off=True, pause_hours=24)
LEASE = timedelta(seconds=30)


def dm(user: str) -> str:
    return f"{user}@s.whatsapp.net"


def send(db: Database, chat: str, text: str, *, label: str | None = None, now: datetime = NOW) -> str:
    """Queue a text, claim it and record it sent; the gateway's message id."""
    with db.write() as conn:
        job_id = enqueue(conn, chat_id=chat, kind=JobKind.TEXT.value, payload=text_payload(chat_id=chat, text=text),
                         label=label, max_attempts=6, now=now)
    for _ in range(5):  # what is ahead of it in its chat goes first
        claimed = [job.id for job in claim(db, now=now)]
        for ident in claimed:
            assert units.run(db, queue.mark_sent, job_id=ident, owner="me", gateway_message_id=f"3EB0{ident:018X}",
                             now=now)
        if job_id in claimed:
            return f"3EB0{job_id:018X}"
    raise AssertionError(f"job {job_id} never claimed")


def claim(db: Database, *, now: datetime = NOW) -> list[QueueJob]:
    return units.run(db, queue.claim_jobs, owner="me", now=now, lease=LEASE, limit=10, rules=SendRules())


def report(db: Database, message_id: str, chat: str, status: str, *, now: datetime = NOW) -> delivery.StatusOutcome:
    return units.run(db, delivery.record_statuses, [StatusUpdate(message_id, chat, status)], now=now, rules=RULES)


def count(db: Database, table: str) -> int:
    with db.read() as conn:
        return int(conn.execute(select(func.count()).select_from(schema.metadata.tables[table])).scalar_one())


def test_the_last_status_of_each_message_is_kept(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    sent = send(db, GROUP, "hola")
    for status in ("SERVER_ACK", "DELIVERY_ACK", "READ"):
        assert report(db, sent, GROUP, status).statuses == (status,)
    with db.read() as conn:
        row = conn.execute(select(schema.message_deliveries)).one()
    assert (row.message_id, row.status) == (sent, "READ")
    assert units.look(db, delivery.unreachable_people) == []


def held(db: Database, user: str) -> dict[str, str]:
    uh = schema.unreachable_held
    with db.read() as conn:
        return {row.kind: row.text for row in conn.execute(select(uh).where(uh.c.user_id == user))}


def pending(db: Database) -> list[tuple[str, str, int, datetime]]:
    oq = schema.outbound_queue
    with db.read() as conn:
        rows = conn.execute(select(oq).where(oq.c.status == "pending").order_by(oq.c.id))
        return [(row.chat_id, json.loads(row.payload)["text"], row.attempts, row.next_attempt_at) for row in rows]


def test_a_refused_direct_message_marks_the_person_holds_it_and_tells_a_shared_group(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, LUIS))
    digest = send(db, dm(ANA), "Tus tareas de hoy: …", label=DIGEST_LABEL)
    outcome = report(db, digest, dm(ANA), "ERROR")
    assert (outcome.marked, outcome.locked, outcome.notes) == ((ANA,), True, 1)
    (person,) = units.look(db, delivery.unreachable_people)
    assert (person.user_id, person.since) == (ANA, NOW)
    note = queued(db)[-1]
    assert (note.chat_id, note.label, note.payload["mentioned"]) == (GROUP, "unreachable", [dm(ANA)])
    assert note.text == (f"@{ANA}, no puedo escribirte por privado. Mándame un mensaje privado, el que sea, y queda "
                         "arreglado.")
    assert held(db, ANA) == {"digest": "Tus tareas de hoy: …"}
    assert [chat for chat, *_ in pending(db)] == [GROUP]  # the refused digest is not queued again


def test_what_the_bot_starts_for_an_unreachable_person_is_held_and_a_login_link_dropped(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    report(db, send(db, dm(ANA), "primer resumen", label=DIGEST_LABEL), dm(ANA), "ERROR")
    later = NOW + timedelta(hours=1)
    starts = (("segundo resumen", DIGEST_LABEL), ("¿Y la tarea #3?", "nag"), ("https://x/login", LOGIN_LINK_LABEL))
    for text, label in starts:
        assert send_or_none(db, dm(ANA), text, label=label, now=later) is None
    assert held(db, ANA) == {"digest": "segundo resumen", "nag": "¿Y la tarea #3?"}
    assert [job.text for job in queued(db) if job.chat_id == dm(ANA)] == [  # sent once, not again
        "primer resumen", "[enlace de acceso retirado]"]  # the link not sent, kept failed without it
    with db.read() as conn:
        assert "https://x/login" not in str(conn.execute(select(schema.outbound_queue.c.payload)).all())


def test_writing_in_private_clears_the_mark_and_sends_what_was_held(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    report(db, send(db, dm(ANA), "resumen", label=DIGEST_LABEL), dm(ANA), "ERROR")
    send_or_none(db, dm(ANA), "¿Y la tarea #3?", label="nag", now=NOW + timedelta(minutes=1))
    released = units.run(db, delivery.heard_privately, phone=ANA, lid=None, now=NOW + timedelta(hours=2),
                         max_attempts=6)
    assert released == 2
    assert units.look(db, delivery.unreachable_people) == []
    assert [text for chat, text, *_ in pending(db) if chat == dm(ANA)] == ["resumen", "¿Y la tarea #3?"]
    assert held(db, ANA) == {}
    assert units.run(db, delivery.heard_privately, phone=ANA, lid=None, now=NOW + timedelta(hours=3),
                     max_attempts=6) == 0


def test_the_group_note_goes_at_most_once_a_week_in_the_persons_language(db: Database) -> None:
    make_group(db, GROUP, members=(BEA,))
    with db.write() as conn:
        save_user_language(conn, user_id=BEA, lang="pt", now=NOW)
    assert report(db, send(db, dm(BEA), "a"), dm(BEA), "ERROR").notes == 1
    assert queued(db)[-1].text.startswith(f"@{BEA}, não consigo te escrever no privado.")
    units.run(db, delivery.heard_privately, phone=BEA, lid=None, now=NOW + timedelta(days=1), max_attempts=6)
    assert report(db, send(db, dm(BEA), "b", now=NOW + timedelta(days=2)), dm(BEA), "ERROR",
                  now=NOW + timedelta(days=2)).notes == 0  # marked again, but told three days ago
    assert units.look(db, delivery.unreachable_people)[0].user_id == BEA
    units.run(db, delivery.heard_privately, phone=BEA, lid=None, now=NOW + timedelta(days=8), max_attempts=6)
    week = NOW + timedelta(days=8, hours=1)
    assert report(db, send(db, dm(BEA), "c", now=week), dm(BEA), "ERROR", now=week).notes == 1


def test_a_person_sharing_no_group_is_marked_and_told_once_they_do(db: Database) -> None:
    make_group(db, GROUP, members=(LUIS,))
    make_group(db, "120363300000000099@g.us", members=(ANA,), status="blocked")
    assert report(db, send(db, dm(ANA), "a"), dm(ANA), "ERROR").notes == 0
    assert units.look(db, delivery.unreachable_people)[0].user_id == ANA


def test_a_refused_group_message_or_an_unknown_person_marks_nobody(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    assert report(db, send(db, GROUP, "hola"), GROUP, "ERROR").marked == ()
    assert report(db, "3EB0UNKNOWN", dm("34699999999"), "ERROR").marked == ()
    assert units.look(db, delivery.unreachable_people) == []


def test_a_lid_address_is_its_person(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    with db.write() as conn:
        conn.execute(schema.identity_aliases.insert().values(alias="198765432100001", user_id=ANA, created_at=NOW))
    assert report(db, send(db, "198765432100001@lid", "hola"), "198765432100001@lid", "ERROR").marked == (ANA,)


def test_after_a_cold_refusal_cold_contacts_wait_while_others_and_groups_go_on(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, LUIS, EVA))
    units.run(db, delivery.heard_privately, phone=EVA, lid=None, now=NOW - timedelta(days=3), max_attempts=6)
    report(db, send(db, dm(ANA), "a"), dm(ANA), "ERROR")
    end = NOW + timedelta(hours=24)
    assert units.look(db, delivery.reachout_paused_until, now=NOW, pause_hours=24) == end
    soon = NOW + timedelta(minutes=5)
    assert send_or_none(db, dm(LUIS), "hola Luis", now=soon) is None
    assert (dm(LUIS), "hola Luis", 0, end) in pending(db)
    assert send_or_none(db, dm(EVA), "hola Eva", now=soon) is not None
    assert send_or_none(db, GROUP, "hola grupo", now=soon) is not None
    assert units.look(db, delivery.reachout_paused_until, now=end, pause_hours=24) is None
    assert [job.chat_id for job in claim(db, now=end)] == [dm(LUIS)]  # Luis's message, once the pause is over


def test_a_refusal_to_someone_who_wrote_in_private_pauses_nothing(db: Database) -> None:
    make_group(db, GROUP, members=(EVA,))
    units.run(db, delivery.heard_privately, phone=EVA, lid=None, now=NOW - timedelta(days=3), max_attempts=6)
    outcome = report(db, send(db, dm(EVA), "a"), dm(EVA), "ERROR")
    assert (outcome.marked, outcome.locked) == ((EVA,), False)
    assert units.look(db, delivery.reachout_paused_until, now=NOW, pause_hours=24) is None
    assert count(db, "reachout_locks") == 0


def send_or_none(db: Database, chat: str, text: str, *, label: str | None = None, now: datetime = NOW) -> int | None:
    """Queue a text and claim: the job's id when the claim hands it out, None when it held or postponed it."""
    with db.write() as conn:
        job_id = enqueue(conn, chat_id=chat, kind=JobKind.TEXT.value, payload=text_payload(chat_id=chat, text=text),
                         label=label, max_attempts=6, now=now)
    claimed = [job.id for job in claim(db, now=now)]
    for ident in claimed:  # each chat's send done, so the next can go
        units.run(db, queue.mark_sent, job_id=ident, owner="me", gateway_message_id=f"3EB0{ident:018X}", now=now)
    return job_id if job_id in claimed else None


def test_a_direct_message_goes_to_the_phone_number_when_known_the_lid_otherwise(db: Database) -> None:
    make_group(db, GROUP, members=(ANA,))
    with db.write() as conn:
        conn.execute(schema.identity_aliases.insert().values(alias="198765432100001", user_id=ANA, created_at=NOW))
    for chat in ("198765432100001@lid", "198765432100002@lid", GROUP):
        with db.write() as conn:
            enqueue(conn, chat_id=chat, kind=JobKind.TEXT.value, payload=text_payload(chat_id=chat, text="hola"),
                    max_attempts=6, now=NOW)
    numbers = {job.chat_id: job.payload["chat"] for job in claim(db)}
    assert numbers == {"198765432100001@lid": dm(ANA), "198765432100002@lid": "198765432100002@lid", GROUP: GROUP}


def test_a_person_known_only_by_the_lid_they_wrote_from_is_written_to_there(db: Database) -> None:
    lid_only, phone_user = "198765432100007", EVA
    units.run(db, delivery.heard_privately, phone=None, lid=lid_only, jid=f"{lid_only}@lid", now=NOW, max_attempts=6)
    units.run(db, delivery.heard_privately, phone=phone_user, lid=None, jid=dm(phone_user), now=NOW, max_attempts=6)
    for chat in (dm(lid_only), dm(phone_user), dm(LUIS)):  # reminders and nags are queued by user id
        with db.write() as conn:
            enqueue(conn, chat_id=chat, kind=JobKind.TEXT.value, payload=text_payload(chat_id=chat, text="hola"),
                    max_attempts=6, now=NOW)
    numbers = {job.chat_id: job.payload["chat"] for job in claim(db)}
    assert numbers == {dm(lid_only): f"{lid_only}@lid", dm(phone_user): dm(phone_user), dm(LUIS): dm(LUIS)}


def test_a_login_link_that_cannot_go_now_is_not_sent_and_kept_failed_without_the_link(db: Database) -> None:
    make_group(db, GROUP, members=(ANA, LUIS, EVA))
    units.run(db, delivery.heard_privately, phone=EVA, lid=None, jid=dm(EVA), now=NOW - timedelta(days=1),
              max_attempts=6)
    report(db, send(db, dm(ANA), "a"), dm(ANA), "ERROR")  # Ana unreachable, and the pause is on
    soon = NOW + timedelta(minutes=1)
    for user in (ANA, LUIS):
        assert send_or_none(db, dm(user), f"https://x/login?token=secret-{user}", label=LOGIN_LINK_LABEL,
                            now=soon) is None
    assert send_or_none(db, dm(EVA), "https://x/login?token=for-eva", label=LOGIN_LINK_LABEL, now=soon) is not None
    oq = schema.outbound_queue
    with db.read() as conn:
        failed = conn.execute(select(oq.c.chat_id, oq.c.payload, oq.c.last_error).where(oq.c.status == "failed")).all()
    assert sorted(row.chat_id for row in failed) == [dm(ANA), dm(LUIS)]
    assert all("secret" not in row.payload and "login link not sent" in row.last_error for row in failed)
    assert list(held(db, ANA).values()) == ["a"]  # the refused message, not the link
