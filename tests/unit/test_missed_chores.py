"""Missed chores, reviewed (SPEC section 41): a group admin sets a penalty; an occurrence of a recurring chore left
undone past its day waits in ``/t pendientes`` (found once by the chores tick) until a group admin applies it (its
points deducted from the person's balance) or excuses it; the person is told which, mentioned."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

import pytest
from sqlalchemy import select, update

from taskcore.chat.grammar import parse_command
from taskcore.chat.penalty_args import ApplyMissed, ExcuseMissed, SetPenalty
from taskcore.services import penalties
from taskcore.services.conversation.registry import SYNTAX, help_text
from taskcore.services.penalties import MissedTick
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.own_data import person_rows
from taskcore.storage.penalty_tables import missed_chores
from tasksvc_run import units
from tests.builders import GROUP, NOW, TODAY, make_group, wa_text
from tests.chat_support import queued, run, texts

ANA, BEA, LUIS = "34600111111", "34600222222", "34600333333"  # Ana is the group's admin
NAMES = {ANA: "Ana", BEA: "Bea", LUIS: "Luis"}
MADRID = ZoneInfo("Europe/Madrid")
MONDAY_MADRID = datetime(2026, 11, 22, 23, 30, tzinfo=UTC)  # 00:30 on Monday 23/11 in Madrid
SUNDAY_EVENING = datetime(2026, 11, 22, 22, 30, tzinfo=UTC)  # 23:30 on Sunday in Madrid


def say(db: Database, text: str, sender: str = ANA, *, now: datetime = NOW, back: int = 1, **kw: Any) -> str:
    mentioned = tuple(f"{word[1:]}@s.whatsapp.net" for word in text.split() if word[1:].isdigit() and word[0] == "@")
    run(db, wa_text(text, sender=sender, push_name=NAMES[sender], mentioned=mentioned, **kw), now=now)
    return texts(db)[-back]


def tick(db: Database, at: datetime = MONDAY_MADRID) -> int:
    return units.run_batched(db, MissedTick(now=at, zone=MADRID))


def missed_rows(db: Database) -> list[Any]:
    with db.read() as conn:
        return list(conn.execute(select(missed_chores).order_by(missed_chores.c.id)))


@pytest.fixture
def house(db: Database) -> str:
    make_group(db, GROUP, name="Casa", members=(ANA, BEA, LUIS))
    with db.write() as conn:
        gm = schema.group_members
        conn.execute(update(gm).where(gm.c.group_id == GROUP, gm.c.user_id == ANA).values(is_admin=True))
    for user in (ANA, BEA, LUIS):
        run(db, wa_text("hola", sender=user, push_name=NAMES[user]))
    return GROUP


@pytest.mark.parametrize(("text", "command"), [
    ("/t penalizacion 2", SetPenalty(2)), ("/t penalización 0", SetPenalty(0)), ("/t penalidade 3", SetPenalty(3)),
    ("/t penalty", SetPenalty(None)), ("/t aplicar 7", ApplyMissed(7)), ("/t apply #7", ApplyMissed(7)),
    ("/t excusar 7 estaba enfermo", ExcuseMissed(7, "estaba enfermo")), ("/t desculpar 7", ExcuseMissed(7, "")),
    ("/t excuse 7 on holiday", ExcuseMissed(7, "on holiday"))])
def test_the_commands_read_in_the_three_languages(text: str, command: object) -> None:
    assert parse_command(text, SYNTAX, today=TODAY) == command


def test_an_admin_sets_the_penalty_and_anyone_else_is_refused(db: Database, house: str) -> None:
    assert say(db, "/t penalizacion") == (f"@{ANA} Este grupo no tiene penalización por tareas no hechas. Un "
                                          "administrador la pone con /t penalizacion 2.")
    assert say(db, "/t penalizacion 2") == (
        f"@{ANA} Penalización: 2 puntos por cada tarea periódica que no se haga a tiempo. No se descuenta sola: "
        "espera en /t pendientes a que un administrador la aplique o la excuse.")
    assert say(db, "/t penalizacion 5", BEA) == (f"@{BEA} Solo un administrador del grupo (de WhatsApp) puede "
                                                 "poner la penalización.")
    assert say(db, "/t penalizacion", BEA).startswith(f"@{BEA} La penalización de este grupo es de 2 puntos")
    assert say(db, "/t penalizacion 101").startswith(f"@{ANA} La penalización es un número de 0 (sin "
                                                     "penalización) a 100 puntos: «101» no lo es")
    assert say(db, "/t penalizacion 0") == (f"@{ANA} Penalización desactivada: una tarea periódica que no se haga a "
                                            "tiempo ya no quitará puntos.")
    assert say(db, "/t penalizacion 2", group=None).endswith("La penalización se pone en el grupo al que se aplica.")


def test_a_missed_turn_waits_to_be_applied_and_the_points_are_deducted(db: Database, house: str) -> None:
    say(db, "/t nueva regar las plantas !5 @34600222222", LUIS)
    say(db, "/t x 1", BEA)  # Bea has 5 points
    say(db, "/t penalizacion 2")
    say(db, f"/t nueva sacar la basura cada domingo @{BEA} @{LUIS} !turnos")  # #2, today (Sunday 22/11), Bea's turn
    assert tick(db, NOW) == 0
    assert tick(db, SUNDAY_EVENING) == 0  # still Sunday in the group's zone
    assert tick(db) == 1
    assert tick(db) == 0  # an occurrence is missed once
    assert [(row.task_id, row.user_id, row.points, row.state) for row in missed_rows(db)] == [
        (2, BEA, 2, "waiting")]
    assert say(db, "/t pendientes") == (f"@{ANA} 1 cosa espera tu aprobación:\n⏰ Tareas no hechas (aplicar la "
                                        "penalización o excusar):\n• Falta 1: Bea no hizo #2 «sacar la basura» "
                                        "(22/11, −2 puntos) → /t aplicar 1 · /t excusar 1")
    assert say(db, "/t pendientes", LUIS) == f"@{LUIS} Nada espera tu aprobación."
    assert say(db, "/t aplicar 1", LUIS) == (f"@{LUIS} Solo un administrador del grupo (de WhatsApp) puede "
                                             "aplicar o excusar una tarea no hecha.")
    assert say(db, "/t aplicar 1") == (f"@{ANA} @{BEA}, se aplicó la penalización por no hacer #2 «sacar la basura» "
                                       "(22/11): −2 puntos.")
    assert queued(db)[-1].payload["mentioned"] == [f"{ANA}@s.whatsapp.net", f"{BEA}@s.whatsapp.net"]
    assert say(db, "/t puntos", BEA).startswith(f"@{BEA} Tienes 3 puntos en este grupo.")
    assert say(db, "/t aplicar 1") == f"@{ANA} La falta 1 ya estaba aplicada."
    assert say(db, "/t excusar 9") == (f"@{ANA} No encuentro la falta 9 en tus grupos. /t pendientes muestra las "
                                       "que esperan.")


def test_an_excuse_costs_nothing_and_its_reason_is_told_in_the_persons_language(db: Database, house: str) -> None:
    say(db, "/t idioma en", BEA, group=None)
    say(db, "/t penalizacion 2")
    say(db, f"/t nueva sacar la basura cada domingo @{BEA} @{LUIS} !turnos")
    tick(db)
    assert say(db, "/t excusar 1 estaba enferma") == (
        f"@{ANA} @{BEA}, you're excused for not doing #1 «sacar la basura» (22/11): no points are taken. "
        "Reason: estaba enferma")
    assert [(row.state, row.reason, row.decided_by) for row in missed_rows(db)] == [("excused", "estaba enferma", ANA)]
    assert say(db, "/t puntos", BEA).startswith(f"@{BEA} You have 0 points")


def test_decided_from_a_direct_message_the_group_is_told_apart(db: Database, house: str) -> None:
    say(db, "/t penalizacion 2")
    say(db, f"/t nueva sacar la basura cada domingo @{BEA} @{LUIS} !turnos")
    tick(db)
    assert "Falta 1: Bea no hizo #1 «sacar la basura» (22/11, −2 puntos) · Casa" in say(db, "/t pendientes",
                                                                                      group=None)
    assert say(db, "/t aplicar 1", group=None, back=2) == "Penalización aplicada (falta 1); se lo he dicho en el grupo."
    notice = queued(db)[-1]
    assert (notice.chat_id, notice.payload["mentioned"]) == (GROUP, [f"{BEA}@s.whatsapp.net"])
    assert notice.payload["text"].startswith(f"@{BEA}, se aplicó la penalización")


def test_nothing_is_missed_without_a_penalty_nor_before_it_was_set(db: Database, house: str) -> None:
    say(db, f"/t nueva sacar la basura cada domingo @{BEA} @{LUIS} !turnos")
    assert tick(db) == 0  # no penalty
    say(db, "/t penalizacion 2", now=MONDAY_MADRID)  # turned on after Sunday's occurrence
    assert tick(db) == 0
    say(db, "/t penalizacion 0")
    say(db, "/t nueva regar cada día", now=MONDAY_MADRID)
    assert tick(db, datetime(2026, 11, 24, 12, 0, tzinfo=UTC)) == 0  # off again
    assert missed_rows(db) == []


def test_a_shared_chore_counts_for_those_whose_part_is_not_done(db: Database, house: str) -> None:
    say(db, "/t penalizacion 3")
    say(db, f"/t nueva limpiar la cocina cada domingo @{BEA} @{LUIS} !todos")
    say(db, "/t x 1", LUIS)  # Luis did his part
    assert tick(db) == 1
    assert [(row.user_id, row.points) for row in missed_rows(db)] == [(BEA, 3)]


def test_a_done_occurrence_and_one_already_looked_at_are_not_missed(db: Database, house: str) -> None:
    say(db, "/t penalizacion 2")
    say(db, f"/t nueva sacar la basura cada domingo @{BEA} @{LUIS} !turnos")
    say(db, "/t x 1", BEA)
    assert tick(db) == 0  # done; its next occurrence is next Sunday
    with db.read() as conn:
        assert conn.execute(select(schema.tasks.c.missed_at).where(schema.tasks.c.id == 1)).scalar_one() is None


def test_a_tick_reads_a_bounded_number_of_occurrences(db: Database, house: str,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(penalties, "BATCH", 2)
    monkeypatch.setattr(penalties, "BATCHES_PER_TICK", 2)
    say(db, "/t penalizacion 1")
    for n in range(5):
        say(db, f"/t nueva tarea {n} cada domingo @{BEA}")
    assert (tick(db), tick(db), tick(db)) == (4, 1, 0)  # at most BATCH * BATCHES_PER_TICK a tick, the rest next


def test_the_help_names_the_new_commands() -> None:
    shown = help_text()
    for usage in ("/t penalizacion [<0-100>]", "/t aplicar <n>", "/t excusar <n> [<motivo>]", "/t pantalla [borrar]"):
        assert usage in shown


def test_a_persons_export_holds_their_missed_chores_and_forgetting_them_erases_them(db: Database,
                                                                                    house: str) -> None:
    say(db, "/t penalizacion 2")
    say(db, f"/t nueva sacar la basura cada domingo @{BEA} @{LUIS} !turnos")
    tick(db)
    with db.read() as conn:
        [row] = person_rows(conn, BEA)["missed_chores"]
    assert (row["task_id"], row["points"], row["state"]) == (1, 2, "waiting")
    say(db, "/t borrarme sí", BEA, group=None)
    assert missed_rows(db) == []
