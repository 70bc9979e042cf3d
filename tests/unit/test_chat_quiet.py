"""Quiet hours and away through the road (SPEC section 25): /t silencio, /t ausente, /t vuelvo in every language,
and /t ver marking who is away."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from sqlalchemy import select

from taskcore.storage.db import Database
from taskcore.storage.schema import user_preferences
from tests.builders import GROUP, make_group, wa_text
from tests.chat_support import assignees, run, texts

ANA, BEA = "34600111111", "34600222222"


def say(db: Database, text: str, **kw: object) -> str:
    run(db, wa_text(text, **kw))  # type: ignore[arg-type]
    return texts(db)[-1]


def saved(db: Database, user: str = ANA) -> tuple[str | None, str | None, str | None]:
    p = user_preferences
    with db.read() as conn:
        row = conn.execute(select(p.c.quiet_from, p.c.quiet_to, p.c.away_until).where(p.c.user_id == user)).first()
    return (None, None, None) if row is None else (row.quiet_from, row.quiet_to, row.away_until)


@pytest.mark.parametrize("word", ["silencio", "quiet", "silêncio", "SILENCIO"])
def test_quiet_hours_are_saved_and_confirmed_in_the_person_s_zone(db: Database, word: str) -> None:
    reply = say(db, f"/t {word} 22:00-7:30", group=None)
    assert reply == ("Horas de silencio de 22:00 a 07:30 (hora de Europe/Madrid): lo que te escriba en ese rato te "
                     "llegará junto al terminar.")
    assert saved(db) == ("22:00", "07:30", None)


@pytest.mark.parametrize("off", ["no", "sin", "não", "off"])
def test_quiet_no_removes_them(db: Database, off: str) -> None:
    say(db, "/t silencio 22:00-07:00", group=None)
    assert say(db, f"/t silencio {off}", group=None) == "Horas de silencio quitadas: te escribiré a cualquier hora."
    assert saved(db) == (None, None, None)


@pytest.mark.parametrize("bad", ["22:00", "25:00-07:00", "07:00-07:00", ""])
def test_bad_quiet_hours_are_refused_with_the_usage(db: Database, bad: str) -> None:
    reply = say(db, f"/t silencio {bad}", group=None)
    assert "Uso: /t silencio HH:MM-HH:MM|no" in reply
    assert saved(db) == (None, None, None)


@pytest.mark.parametrize(("text", "stored"), [
    ("/t ausente 2026-12-05", "2026-12-05"), ("/t away tomorrow", "2026-11-23"), ("/t fora amanhã", "2026-11-23"),
    ("/t ausente hoy", "2026-11-22"), ("/t ausente 26-12-05", "2026-12-05"),
])
def test_away_takes_any_date_form_of_any_language(db: Database, text: str, stored: str) -> None:
    reply = say(db, text, group=None)
    day, month = stored[8:], stored[5:7]
    assert reply.startswith(f"Fuera hasta el {day}/{month} (incluido)")
    assert saved(db)[2] == stored


def test_away_in_the_past_is_refused_and_back_clears_it(db: Database) -> None:
    assert say(db, "/t ausente 2026-11-01", group=None) == "El 01/11 ya pasó: indica hoy o una fecha futura."
    assert saved(db)[2] is None
    say(db, "/t ausente 2026-12-05", group=None)
    assert say(db, "/t voltei", group=None).startswith("¡Hola de nuevo!")
    assert saved(db)[2] is None


def test_replies_follow_the_language_in_force(db: Database) -> None:
    say(db, "/t idioma en", group=None)
    assert say(db, "/t away 2026-12-05", group=None).startswith("Away until 5 Dec (included)")
    assert say(db, "/t back", group=None).startswith("Welcome back!")


def test_list_marks_who_is_away(db: Database) -> None:
    make_group(db, GROUP, name="Casa", members=(ANA, BEA))
    run(db, wa_text("hola", sender=BEA, push_name="Bea"))
    say(db, "/t nueva regar plantas @34600222222", mentioned=(f"{BEA}@s.whatsapp.net",))
    say(db, "/t ausente 2026-12-05", sender=BEA, push_name="Bea", group=None)
    assert "Bea (fuera hasta 05/12)" in say(db, "/t ver")


def test_a_rotation_skips_whoever_is_away_when_the_next_turn_is_created(db: Database) -> None:
    luis = "34600333333"
    make_group(db, GROUP, name="Piso", members=(ANA, BEA, luis))
    people = tuple(f"{p}@s.whatsapp.net" for p in (ANA, BEA, luis))
    say(db, f"/t nueva basura cada lunes @{ANA} @{BEA} @{luis} !turnos", mentioned=people)
    say(db, "/t away 2026-11-30", sender=BEA, group=None)
    run(db, wa_text("/t x 1"), now=datetime(2026, 11, 23, 19, 0, tzinfo=UTC))
    assert assignees(db, 2) == {luis}  # Bea is away through the next Monday
    run(db, wa_text("/t x 2", sender=luis), now=datetime(2026, 11, 30, 19, 0, tzinfo=UTC))
    assert assignees(db, 3) == {ANA}  # still away on the 30th, included
    run(db, wa_text("/t x 3"), now=datetime(2026, 12, 7, 19, 0, tzinfo=UTC))
    assert assignees(db, 4) == {BEA}  # back in turn after her date
