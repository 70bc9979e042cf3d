"""SPEC section 30 through the chat, in each person's language (their number's country): times and ranges as people
write them, the weekly summary's day in any language, the wider date suggestions, a refusal suggesting the command
that was written, ``/tarefa``, and counts that agree with their number."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from taskcore.storage.db import Database
from taskcore.storage.schema import user_preferences
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import run, task_rows, texts

ES, BR, UK = "34600111111", "5521987654321", "447911123456"


def say(db: Database, text: str, sender: str, group: str | None = None) -> str:
    run(db, wa_text(text, sender=sender, group=group))
    return texts(db)[-1]


def quiet(db: Database, user: str) -> tuple[str | None, str | None]:
    p = user_preferences
    with db.read() as conn:
        row = conn.execute(select(p.c.quiet_from, p.c.quiet_to).where(p.c.user_id == user)).first()
    return (None, None) if row is None else (row.quiet_from, row.quiet_to)


@pytest.mark.parametrize(("sender", "text"), [
    (ES, "/t silencio 23h-7h"), (ES, "/t silencio 23:00 a 7:00"), (BR, "/t silêncio 23h até 7h"),
    (UK, "/t quiet 11pm-7am"), (UK, "/t quiet 11pm to 7am"), (UK, "/t quiet 23:00-07:00"),
])
def test_quiet_hours_as_people_write_them(db: Database, sender: str, text: str) -> None:
    say(db, text, sender)
    assert quiet(db, sender) == ("23:00", "07:00")


@pytest.mark.parametrize(("sender", "text", "said"), [
    (ES, "/t resumen semanal lunes 8pm", "cada lunes a las 20:00"),
    (BR, "/t resumo semanal segunda feira 20h", "toda segunda-feira às 20:00"),
    (UK, "/t summary weekly sun 8:30pm", "every Sunday at 20:30"),
])
def test_the_weekly_summary_reads_any_language_s_day_and_time(db: Database, sender: str, text: str,
                                                              said: str) -> None:
    make_group(db, GROUP, members=(sender,))
    assert said in say(db, text, sender, GROUP)


@pytest.mark.parametrize(("sender", "text", "hint"), [
    (ES, "/t nueva dentista 1 dic", "💡"),
    (BR, "/t nova dentista dez 1", "💡"),
    (UK, "/t new dentist Dec 1", "💡"),
    (UK, "/t new dentist 1 Dec", "💡"),
])
def test_a_day_and_month_by_its_abbreviation_gets_the_suggestion(db: Database, sender: str, text: str,
                                                                 hint: str) -> None:
    reply = say(db, text, sender)
    assert hint in reply
    assert "-12-01" in reply


@pytest.mark.parametrize(("sender", "text", "command"), [
    (ES, "/t ausente 30/11/2026", "/t ausente 2026-11-30"),
    (BR, "/t fora depois de amanhã", "/t fora 2026-11-24"),
    (UK, "/t away 30-11-2026", "/t away 2026-11-30"),
])
def test_a_refused_date_suggests_the_command_that_was_written(db: Database, sender: str, text: str,
                                                              command: str) -> None:
    assert command in say(db, text, sender)


def test_tarefa_is_t(db: Database) -> None:
    say(db, "/tarefa nova comprar pão", BR)
    assert [row.description for row in task_rows(db)] == ["comprar pão"]


@pytest.mark.parametrize(("sender", "one", "two"), [
    (ES, "La tarea #1 vale ahora 1 punto.", "La tarea #1 vale ahora 2 puntos."),
    (BR, "A tarefa #1 agora vale 1 ponto.", "A tarefa #1 agora vale 2 pontos."),
    (UK, "Task #1 is now worth 1 point.", "Task #1 is now worth 2 points."),
])
def test_counts_agree_with_their_number(db: Database, sender: str, one: str, two: str) -> None:
    say(db, "/t nueva regar !3", sender)
    assert say(db, "/t puntos 1 1", sender).endswith(one)
    assert say(db, "/t puntos 1 2", sender).endswith(two)


def test_the_first_dated_reply_names_the_zone_once(db: Database) -> None:
    first = say(db, "/t nueva regar mañana", ES)
    assert first.endswith("\n🕒 Fechas y horas en tu zona horaria, Europe/Madrid. Para cambiarla: /t zona <ciudad>")
    assert "🕒" not in say(db, "/t nueva podar mañana", ES)
    assert "🕒" not in say(db, "/t nueva sin fecha", UK)  # no date read: nothing to name
    assert say(db, "/t new mow tomorrow", UK).split("\n")[-1].startswith("🕒 Dates and times in your time zone, ")


def test_a_zone_the_person_chose_is_not_named_again(db: Database) -> None:
    say(db, "/t zona Bogota", ES)
    assert "🕒" not in say(db, "/t nueva regar mañana", ES)
