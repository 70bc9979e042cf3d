"""Nagging (SPEC section 25) through the road and the scheduler's use case, with ``now`` passed in: ``!insistir`` and
``/t insistir`` set it, the tick nags the day after the due date in each assignee's zone and then every interval,
tells the group once after the third nag, and completing, unassigning, re-dating or being away stop or move it."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

from taskcore.services.nag_tick import NagTick, NagTickResult
from taskcore.storage import nags, schema
from taskcore.storage.db import Database
from tasksvc_run import units
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import queued, run, texts

ANA, BEA, LUIS = "34600111111", "5511987654321", "34600333333"  # Bea speaks Portuguese and lives in São Paulo
MADRID = ZoneInfo("Europe/Madrid")
FIRST_ANA = datetime(2026, 11, 22, 23, 0, tzinfo=UTC)  # 00:00 of 23/11 in Madrid: the day after the due date
FIRST_BEA = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)  # 00:00 of 23/11 in São Paulo


def say(db: Database, text: str, sender: str = ANA, **kw: Any) -> str:
    mentioned = tuple(f"{word[1:]}@s.whatsapp.net" for word in text.split() if word[1:].isdigit() and word[0] == "@")
    run(db, wa_text(text, sender=sender, mentioned=mentioned, **kw))
    return texts(db)[-1]


def tick(db: Database, at: datetime) -> NagTickResult:
    return units.run_batched(db, NagTick(now=at, zone=MADRID, max_attempts=6, default_language="es"))


def parts(db: Database, task_id: int = 1) -> dict[str, Any]:
    ta = schema.task_assignments
    with db.read() as conn:
        rows = conn.execute(select(ta).where(ta.c.task_id == task_id)).all()
    return {row.user_id: row for row in rows}


def escalated(db: Database, task_id: int = 1) -> bool:
    with db.read() as conn:
        return conn.execute(select(schema.tasks.c.nag_escalated_at).where(schema.tasks.c.id == task_id)).scalar() \
            is not None


@pytest.fixture
def group(db: Database) -> str:
    make_group(db, GROUP, name="Casa", members=(ANA, BEA, LUIS))
    say(db, "/t zona America/Sao_Paulo", sender=BEA, group=None)
    return GROUP


def test_new_with_insistir_nags_each_assignee_from_the_day_after_the_due_date_in_their_zone(
        db: Database, group: str) -> None:
    reply = say(db, f"/t nueva limpiar el baño hoy @{ANA} @{BEA} !todos !insistir")
    assert "🔔 Insistiré con #1 cada 24 h" in reply
    found = parts(db)
    assert (found[ANA].nag_next_at, found[BEA].nag_next_at) == (FIRST_ANA, FIRST_BEA)
    assert tick(db, FIRST_ANA - timedelta(seconds=1)) == NagTickResult()
    before = len(queued(db))
    assert tick(db, FIRST_ANA).sent == 1
    [nag] = queued(db)[before:]
    assert nag.chat_id == f"{ANA}@s.whatsapp.net"
    assert nag.label == "nag"
    assert nag.text.startswith("🔔 «limpiar el baño» (#1) venció el 22/11 y tu parte sigue pendiente.")
    assert tick(db, FIRST_BEA).sent == 1
    assert queued(db)[-1].text.startswith("🔔 «limpiar el baño» (#1) venceu em 22/11")  # Brazil: Portuguese
    assert tick(db, FIRST_ANA + timedelta(hours=23)).sent == 0
    assert tick(db, FIRST_ANA + timedelta(hours=24)).sent == 1
    assert parts(db)[ANA].nag_count == 2


def test_set_with_an_interval_stop_and_refusals(db: Database, group: str) -> None:
    say(db, f"/t nueva regar hoy @{ANA}")
    assert say(db, "/t insistir 1 cada 6 h") == f"@{ANA} 🔔 Insistiré con #1 cada 6 h a quien tenga su parte " \
        "pendiente, desde el día después de su fecha."
    with db.read() as conn:
        assert conn.execute(select(schema.tasks.c.nag_every_hours)).scalar() == 6
    assert say(db, "/t insistir 1 no") == f"@{ANA} 🔕 Ya no insisto con #1."
    assert parts(db)[ANA].nag_next_at is None
    say(db, f"/t nueva sin fecha @{ANA}")
    assert say(db, "/t insistir 2").endswith("No puedo insistir con #2: para insistir la tarea necesita fecha.")
    assert say(db, "/t nueva mía hoy !insistir", group=None) == \
        "!insistir: solo las tareas de grupo pueden insistir."
    assert say(db, "/t insistir 1 cada 200 h").endswith(
        "Intervalo no válido: «cada 200 h» (de 1 a 168 horas).\nUso: /t insistir <id> [cada <N> h]|no (o !insistir "
        "en /t nueva)")


def test_the_group_is_told_once_after_the_third_nag_mentioning_who_is_pending(db: Database, group: str) -> None:
    say(db, f"/t nueva fregar hoy @{ANA} @{BEA} !todos")
    say(db, "/t insistir 1 cada 1 h")
    say(db, "/t x 1", sender=BEA)
    results = [tick(db, FIRST_ANA + timedelta(hours=n)) for n in range(5)]
    assert [r.sent for r in results] == [1, 1, 1, 1, 1]
    assert [r.notices for r in results] == [0, 0, 1, 0, 0]
    [notice] = [job for job in queued(db) if job.chat_id == GROUP and job.label == "chore"]
    assert notice.text == f"📣 «fregar» (#1) sigue pendiente tras 3 avisos por privado: @{ANA}."
    assert notice.payload["mentioned"] == [f"{ANA}@s.whatsapp.net"]
    assert parts(db)[BEA].nag_next_at is None


def test_completing_unassigning_and_re_dating_stop_or_restart_the_nags(db: Database, group: str) -> None:
    say(db, f"/t nueva uno hoy @{ANA} !insistir")
    say(db, f"/t nueva dos hoy @{ANA} !insistir")
    say(db, f"/t nueva tres hoy @{ANA} @{LUIS} !insistir")
    say(db, "/t insistir 3 cada 1 h")
    for n in range(3):
        tick(db, FIRST_ANA + timedelta(hours=n))
    assert escalated(db, 3)
    say(db, "/t x 1")
    say(db, "/t soltar 2")
    assert parts(db, 1)[ANA].nag_next_at is None
    assert parts(db, 2) == {}
    say(db, "/t fecha 3 2026-11-30")
    again = datetime(2026, 11, 30, 23, 0, tzinfo=UTC)
    assert {user: (row.nag_count, row.nag_next_at) for user, row in parts(db, 3).items()} == {
        ANA: (0, again), LUIS: (0, again)}
    assert not escalated(db, 3)
    assert tick(db, again - timedelta(minutes=1)) == NagTickResult()
    assert tick(db, again).sent == 2


def test_while_away_no_nag_goes_and_the_next_look_is_the_day_after_the_away_ends(db: Database, group: str) -> None:
    say(db, f"/t nueva podar hoy @{ANA} !insistir")
    with db.write() as conn:  # the first dated reply wrote her preferences' row (the zone named once)
        conn.execute(schema.user_preferences.update().where(schema.user_preferences.c.user_id == ANA)
                     .values(away_until="2026-11-25"))
    assert tick(db, FIRST_ANA) == NagTickResult(moved=1)
    back = datetime(2026, 11, 25, 23, 0, tzinfo=UTC)
    assert parts(db)[ANA].nag_next_at == back
    assert tick(db, back).sent == 1


def test_two_runs_at_one_moment_send_each_nag_once(db: Database, group: str) -> None:
    say(db, f"/t nueva barrer hoy @{ANA} @{LUIS} !insistir")
    with db.read() as conn:
        due = nags.due_nags(conn, now=FIRST_ANA, after=None, limit=10)
    before = len(queued(db))
    assert tick(db, FIRST_ANA).sent == 2
    assert tick(db, FIRST_ANA).sent == 0
    for item in due:  # a second instance that read the same rows before the first wrote: its compare-and-set loses
        assert not db.transact(lambda conn, item=item: nags.move_nag(
            conn, item.task_id, item.user_id, read=item.next_at, values={"nag_count": 9}))
    assert len(queued(db)) == before + 2


def test_a_nag_that_is_not_due_yet_in_the_persons_zone_waits(db: Database, group: str) -> None:
    say(db, f"/t nueva tender hoy @{BEA} !insistir")
    with db.write() as conn:  # as if scheduled too early (e.g. the zone changed since)
        conn.execute(update(schema.task_assignments).values(nag_next_at=FIRST_ANA))
    assert tick(db, FIRST_ANA) == NagTickResult(moved=1)
    assert parts(db)[BEA].nag_next_at == FIRST_BEA


def test_a_recurring_nagging_task_nags_its_next_occurrence_from_its_own_date(db: Database, group: str) -> None:
    say(db, f"/t nueva basura cada lunes @{ANA} @{LUIS} !turnos !insistir")
    say(db, "/t x 1")
    found = parts(db, 2)
    assert list(found) == [LUIS]
    due = date.fromisoformat(next(iter(_task_dues(db)))[1])
    # Luis chose no zone: his +34 number's, Spain's main zone (SPEC 30; before, the earliest midnight on Earth and a
    # tick that waited): the day after the occurrence's date, at midnight in Madrid
    assert found[LUIS].nag_next_at == datetime.combine(due + timedelta(days=1), datetime.min.time(),
                                                       MADRID).astimezone(UTC)


def _task_dues(db: Database) -> list[tuple[int, str]]:
    with db.read() as conn:
        rows = conn.execute(select(schema.tasks.c.id, schema.tasks.c.due_date).where(schema.tasks.c.id == 2)).all()
    return [(row.id, row.due_date) for row in rows]


def test_two_bot_instances_ticking_together_send_each_nag_once(db: Database, group: str) -> None:
    for n in range(6):
        say(db, f"/t nueva tarea {n} hoy @{ANA} @{LUIS} !insistir")
    other = Database.from_url(db.engine.url.render_as_string(hide_password=False))
    before = len(queued(db))
    try:
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda instance: tick(instance, FIRST_ANA), [db, other]))
    finally:
        other.dispose()
    assert sum(result.sent for result in results) == 12
    nags_sent = [job for job in queued(db)[before:] if job.label == "nag"]
    assert len(nags_sent) == 12
    assert {(job.chat_id, job.text) for job in nags_sent} == {
        (f"{user}@s.whatsapp.net", text) for user in (ANA, LUIS)
        for text in (job.text for job in nags_sent if job.chat_id == f"{ANA}@s.whatsapp.net")}
