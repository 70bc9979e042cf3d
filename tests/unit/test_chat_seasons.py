"""Seasonal chores from the conversation (SPEC section 41): a rule's window and two windows in each language, shown
back in the reader's language; no occurrence is made outside the window, and the turn moves once per occurrence,
never for the weeks out of season."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import assignees, run, task_rows, texts

ANA, LUIS = "34600111111", "34600222222"
PEOPLE = (f"{ANA}@s.whatsapp.net", f"{LUIS}@s.whatsapp.net")


@pytest.fixture
def group(db: Database) -> str:
    return make_group(db, GROUP, name="Casa", members=(ANA, LUIS))


def say(db: Database, text: str, *, now: datetime | None = None, **kw: object) -> str:
    if now is None:
        run(db, wa_text(text, **kw))  # type: ignore[arg-type]
    else:
        run(db, wa_text(text, **kw), now=now)  # type: ignore[arg-type]
    return texts(db)[-1]


def test_a_chore_made_out_of_season_is_due_when_its_season_opens(db: Database, group: str) -> None:
    reply = say(db, "/t nueva cortar el césped cada lunes de abril a septiembre")
    assert reply.startswith(f"@{ANA} Tarea #1 creada: cortar el césped (vence 05/04) ↻ cada lunes de abril a "
                            "septiembre. Sin asignar")
    (task,) = task_rows(db)
    assert (task.due_date, task.recurrence_rule) == ("2027-04-05", "FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9")


def test_the_last_occurrence_of_a_season_is_followed_by_the_next_season_s_first_and_the_turn_moves_once(
    db: Database, group: str
) -> None:
    run(db, wa_text("hola", sender=LUIS, push_name="Luis"))
    say(db, f"/t nueva cortar el césped cada lunes de agosto a septiembre @{ANA} @{LUIS} !turnos", mentioned=PEOPLE)
    (first,) = task_rows(db)
    assert first.due_date == "2027-08-02"
    last_monday = datetime(2027, 9, 27, 18, 0, tzinfo=UTC)
    run(db, wa_text("/t fecha 1 2027-09-27"))
    reply = say(db, "/t x 1", now=last_monday)
    assert reply.endswith(f"\nPróxima: #2, 07/08 · le toca a @{LUIS}")  # August 2028; Luis mentioned
    assert [row.due_date for row in task_rows(db)] == ["2027-09-27", "2028-08-07"]
    assert assignees(db, 2) == {LUIS}


def test_two_seasons_in_portuguese_and_english_are_shown_back_in_the_reader_s_language(
    db: Database, group: str
) -> None:
    say(db, "/t idioma pt")
    reply = say(db, "/t nova regar as plantas toda segunda de abril a setembro, a cada 2 semanas o resto")
    assert "↻ a cada segunda-feira de abril a setembro, a cada 2 semanas o resto" in reply
    say(db, "/t idioma en")
    assert "↻ every Monday from April to September, every 2 weeks the rest" in say(db, "/t list")
    reply = say(db, "/t new water the plants every 2 weeks from November to March")
    assert "(due 22 Nov) ↻ every 2 weeks: Sunday from November to March" in reply  # pinned to its first day


def test_a_malformed_season_is_answered_with_why_and_the_rule_forms(db: Database, group: str) -> None:
    reply = say(db, "/t nueva regar cada semana de abril a septiembre, cada mes")
    assert reply.startswith(f"@{ANA} La segunda regla necesita sus meses o «el resto».\nUso: /t nueva")
    assert "con temporada: cada semana de abril a septiembre[, cada 2 semanas el resto]" in reply


def test_a_date_given_with_a_season_is_the_first_and_the_next_one_is_in_the_window(db: Database, group: str) -> None:
    say(db, "/t nueva cortar el césped cada lunes de abril a septiembre 2026-11-30")
    assert task_rows(db)[0].due_date == "2026-11-30"  # the date the person wrote
    reply = say(db, "/t x 1", now=datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
    assert "\nPróxima: #2, 05/04" in reply
    assert task_rows(db)[1].due_date == "2027-04-05"
