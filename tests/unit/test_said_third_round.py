"""SPEC section 39 through the chat, as Brazilian, Mexican, American and British households write: the group speaks
its people's language and ``/t idioma grupo`` sets it; times in every command as people write them; every date
command suggests the command that was written; the wording; a two-word name beside a namesake; a message whose send
is not settled yet leads to its task."""

from __future__ import annotations

from datetime import UTC, datetime, time

import pytest
from sqlalchemy import select, update

from taskcore.languages import majority_language
from taskcore.names import match_named
from taskcore.queue_rules import JobKind, QueueJob
from taskcore.services import languages
from taskcore.storage import links
from taskcore.storage.db import Database
from taskcore.storage.queue import enqueue
from taskcore.storage.reward_tables import rewards
from taskcore.storage.schema import group_members, outbound_queue, user_preferences
from taskcore.words.read import time_of_day, time_range
from tasksvc_run import units
from tasksvc_run.bot.sending import Sending
from tests.builders import GROUP, NOW, make_group, make_task, wa_reaction, wa_text
from tests.chat_support import assignees, queued, run, task_rows, texts

ES, BR, BR2, UK, MX, US = "34600111111", "5521987654321", "5511912345678", "447911123456", "5215512345678", \
    "13105551234"


def say(db: Database, text: str, sender: str, group: str | None = GROUP, *, now: datetime = NOW,
        **kw: object) -> str:
    run(db, wa_text(text, sender=sender, group=group, **kw), now=now)  # type: ignore[arg-type]
    return texts(db)[-1]


def reminder(db: Database, user: str) -> tuple[str, str]:
    p = user_preferences
    with db.read() as conn:
        row = conn.execute(select(p.c.freq, p.c.time, p.c.quiet_from, p.c.quiet_to).where(p.c.user_id == user)).one()
    return row.time, f"{row.quiet_from}-{row.quiet_to}"


@pytest.fixture
def house(db: Database) -> str:
    return make_group(db, GROUP, name="Casa", members=(BR, BR2, UK, MX, US, ES))


# The group speaks its people's language.

@pytest.mark.parametrize(("read", "default", "spoken"), [
    (["pt", "pt", "es"], "es", "pt"), (["en", "en", "pt"], "es", "en"), (["pt", "en"], "es", "es"),
    (["pt", "pt", "en", "en"], "en", "en"), ([], "pt", "pt"), (["es"], "en", "es"),
])
def test_a_group_speaks_the_language_most_of_its_members_read_ties_to_the_service_s(
        read: list[str], default: str, spoken: str) -> None:
    assert majority_language(read, default) == spoken


def test_the_group_s_language_is_its_members_majority_until_it_chooses_one(db: Database) -> None:
    make_group(db, GROUP, members=(BR, BR2, ES))
    make_group(db, "200@g.us", members=(BR, UK))
    assert units.look(db, languages.group_language, group_id=GROUP, default="es") == "pt"
    assert units.look(db, languages.group_language, group_id="200@g.us", default="es") == "es"  # a tie
    say(db, "/t idioma grupo en", BR)
    assert units.look(db, languages.group_language, group_id=GROUP, default="es") == "en"


def test_a_member_s_language_in_a_group_is_theirs_and_the_group_s_is_set_by_idioma_grupo(db: Database,
                                                                                        house: str) -> None:
    assert say(db, "/t language en", BR) == f"@{BR} From now on I'll write to you in English."
    assert say(db, "/t ver", MX) == f"@{MX} No hay tareas abiertas en este grupo."
    assert say(db, "/t ver", BR) == f"@{BR} No open tasks in this group."
    assert say(db, "/t ver", BR, group=None) == "You have no open tasks."
    assert say(db, "/t idioma grupo pt", MX) == f"@{MX} Neste grupo agora eu escrevo em português."
    assert say(db, "/t ver", UK) == f"@{UK} Não há tarefas abertas neste grupo."


def test_idioma_grupo_in_private_says_where_it_is_set(db: Database) -> None:
    assert say(db, "/t language group en", UK, group=None).startswith(
        "A group's language is chosen in the group: /t language group <language>.")


def test_what_the_bot_starts_in_a_group_is_in_its_members_language(db: Database) -> None:
    """The rotation's own notice (a turn passed by itself) in a Brazilian group that chose nothing."""
    make_group(db, GROUP, members=(BR, BR2))
    with db.write() as conn:
        assert languages.group_language_of(conn, GROUP, "es") == "pt"


# More ways to say done (through the chat; the pure reading is tests/unit/test_conversation.py).

@pytest.mark.parametrize(("sender", "reply"), [
    (MX, "ya quedó"), (MX, "terminé"), (MX, "listo gracias"), (BR, "tá feito"), (BR, "Fiz!"), (UK, "Done, cheers!"),
    (US, "all done"), (UK, "sorted"), (US, "finished it"),
])
def test_a_done_phrase_with_politeness_completes_the_task_replied_to(db: Database, house: str, sender: str,
                                                                    reply: str) -> None:
    run(db, wa_text("/t nueva regar", sender=ES, message_id="ORIGIN1"))
    say(db, reply, sender, quoted="ORIGIN1")
    assert task_rows(db)[0].completed


# One reader of times, everywhere.

@pytest.mark.parametrize(("text", "at"), [
    ("às 18h", time(18)), ("a las 8", time(8)), ("7 pm", time(19)), ("8:00 am", time(8)), ("at 7", time(7)),
    ("a las 8 pm", time(20)), ("às 18h30", time(18, 30)), ("23h", time(23)),
])
def test_a_time_as_people_write_it(text: str, at: time) -> None:
    assert time_of_day(text) == at


@pytest.mark.parametrize("text", ["8", "a las 25", "às", "at 7 xm", "de 23"])
def test_an_hour_alone_is_no_time_and_nonsense_is_none(text: str) -> None:
    assert time_of_day(text) is None


@pytest.mark.parametrize(("text", "window"), [
    ("de 23 a 7", (time(23), time(7))), ("das 23h às 7h", (time(23), time(7))), ("das 23 às 7", (time(23), time(7))),
    ("from 10pm to 7am", (time(22), time(7))), ("de 22:30 a 7", (time(22, 30), time(7))),
])
def test_a_range_as_people_write_it(text: str, window: tuple[time, time]) -> None:
    assert time_range(text) == window
    assert time_range(text.replace("de ", "").replace("das ", "")) in (window, None)


@pytest.mark.parametrize(("sender", "text", "said", "at"), [
    (BR, "/t lembretes diário às 18h", "Lembretes todo dia às 18:00", "18:00"),
    (UK, "/t reminders daily 7 pm", "Reminders every day at 19:00", "19:00"),
    (US, "/t reminders weekdays 8:00 am", "Reminders Monday to Friday at 8:00 AM", "08:00"),
    (MX, "/t recordatorios diario a las 8", "Recordatorios cada día a las 08:00", "08:00"),
])
def test_reminder_times_as_people_write_them(db: Database, sender: str, text: str, said: str, at: str) -> None:
    assert said in say(db, text, sender, group=None)
    assert reminder(db, sender)[0] == at


@pytest.mark.parametrize(("sender", "text"), [(MX, "/t silencio de 23 a 7"), (UK, "/t quiet from 11pm to 7am"),
                                              (BR, "/t silêncio das 23 às 7")])
def test_quiet_hours_as_people_write_them(db: Database, sender: str, text: str) -> None:
    say(db, text, sender, group=None)
    assert reminder(db, sender)[1] == "23:00-07:00"


def test_the_weekly_summary_s_time_as_people_write_it_and_its_day_agreed(db: Database, house: str) -> None:
    assert say(db, "/t resumo semanal domingo às 18h", BR).startswith(
        f"@{BR} Resumo semanal: todo domingo às 18:00 (America/Sao_Paulo)")
    assert "toda segunda-feira às 20:00" in say(db, "/t resumo semanal segunda 20h", BR)
    assert "cada domingo a las 20:00" in say(db, "/t resumen semanal domingo a las 20", MX)


# Every date command suggests the command that was written.

@pytest.mark.parametrize(("sender", "text", "hint"), [
    (UK, "/t due 1 Dec 14", "💡 If you meant 2026-12-14: /t due 1 2026-12-14"),
    (US, "/t due 1 12/14", "💡 If you meant 2026-12-14: /t due 1 2026-12-14"),
    (US, "/t due 1 monday", "💡 If you meant 2026-11-23: /t due 1 2026-11-23"),
    (BR, "/t prazo 1 sexta", "💡 Se você quis dizer 2026-11-27: /t prazo 1 2026-11-27"),
    (MX, "/t fecha 1 14 dic", "💡 Si querías el 2026-12-14: /t fecha 1 2026-12-14"),
    (BR, "/t fora sexta", "💡 Se você quis dizer 2026-11-27: /t fora 2026-11-27"),
    (UK, "/t away Dec 14", "💡 If you meant 2026-12-14: /t away 2026-12-14"),
    (MX, "/t ausente viernes", "💡 Si querías el 2026-11-27: /t ausente 2026-11-27"),
    (BR, "/t nova dentista 30/11/2026", "💡 Se você quis dizer 2026-11-30: /t nova dentista 2026-11-30"),
    (BR, "/t nova lixo toda segunda 30/11", "💡 Se você quis dizer 2026-11-30: /t nova lixo toda segunda 2026-11-30"),
])
def test_every_date_command_suggests_the_written_command_with_the_person_s_text(
        db: Database, house: str, sender: str, text: str, hint: str) -> None:
    make_task(db, creator=sender, description="dentista", group_id=GROUP)
    reply = say(db, text, sender)
    assert reply.endswith("\n" + hint)  # the last line: ready to copy, the person's own text in it


def test_a_date_command_without_a_date_it_could_mean_is_refused_as_before(db: Database, house: str) -> None:
    make_task(db, creator=UK, description="bins", group_id=GROUP)
    reply = say(db, "/t due 1 some day", UK)
    assert reply == f"@{UK} Too many arguments.\nUsage: /t due <id> <date>|none"


# Wording.

def test_zero_counts_as_plural_in_portuguese(db: Database, house: str) -> None:
    assert say(db, "/t pontos", BR).startswith(f"@{BR} Você tem 0 pontos neste grupo.")


def test_the_fair_share_is_named_in_the_reader_s_words(db: Database, house: str) -> None:
    people = (f"{BR}@s.whatsapp.net", f"{BR2}@s.whatsapp.net")
    reply = say(db, f"/t nova lixo toda segunda @{BR} @{BR2} !divisão", BR, mentioned=people)
    assert f"Divisão justa: @{BR}, @{BR2}" in reply
    assert "Por turnos" not in reply
    reply = say(db, f"/t new bins every monday @{BR} @{BR2} !reparto", UK, mentioned=people)
    assert f"Fair share: @{BR}, @{BR2}" in reply


def test_the_next_person_in_a_rotation_is_mentioned(db: Database, house: str) -> None:
    people = (f"{BR}@s.whatsapp.net", f"{BR2}@s.whatsapp.net")
    say(db, f"/t nova lixo toda segunda @{BR} @{BR2} !turnos", BR, mentioned=people)
    reply = say(db, "/t feito 1", BR, now=datetime(2026, 11, 23, 19, 0, tzinfo=UTC))
    assert reply.endswith(f"Próxima: #2, 30/11 · vez de @{BR2}")
    assert f"{BR2}@s.whatsapp.net" in queued(db)[-1].payload["mentioned"]


@pytest.mark.parametrize(("text", "name", "price"), [
    ("/t prêmio novo 20 pontos: escolher o filme", "escolher o filme", 20),
    ("/t prêmio novo pizza por 15 pontos", "pizza", 15),
    ("/t reward new movie night for 30 points", "movie night", 30),
    ("/t premio nuevo 50 puntos - ir al cine", "ir al cine", 50),
    ("/t premio nuevo helado 10", "helado", 10),
])
def test_a_reward_s_name_loses_the_price_words(db: Database, house: str, text: str, name: str, price: int) -> None:
    with db.write() as conn:
        conn.execute(update(group_members).where(group_members.c.user_id == BR).values(is_admin=True))
    say(db, text, BR)
    with db.read() as conn:
        assert conn.execute(select(rewards.c.name, rewards.c.points)).one() == (name, price)


# Left from round two.

def test_a_two_word_name_is_taken_whole_beside_a_namesake(db: Database) -> None:
    make_group(db, GROUP, members=(ES,))
    for sender, name in ((MX, "Luis Martínez"), (US, "Luis Pérez")):
        run(db, wa_text("hola", sender=sender, push_name=name))
    say(db, "/t nueva llamar al fontanero @Luis Martínez mañana", ES)
    assert task_rows(db)[0].description == "llamar al fontanero"
    assert assignees(db, 1) == {MX}
    assert "No sé a quién te refieres con @Luis" in say(db, "/t nueva regar @Luis mañana", ES)


def test_match_named_takes_the_namesake_whose_surname_follows() -> None:
    members = [("1", "Luis Martínez"), ("2", "Luis Pérez"), ("3", "Ana")]
    assert match_named("@Luis", members, ["Martinez", "mañana"]) == ["1"]
    assert match_named("@luis", members, ["mañana"]) == ["1", "2"]
    assert match_named("@Ana", members, []) == ["3"]


def test_a_message_whose_send_is_not_settled_leads_to_its_task(db: Database) -> None:
    """The id chosen before the send (WAHA), its answer not come yet: a ✅ on it finds the task (SPEC section 39)."""
    make_group(db, GROUP, members=(ES,))
    task = make_task(db, creator=ES, description="barrer", group_id=GROUP)
    with db.write() as conn:
        job = enqueue(conn, chat_id=GROUP, kind=JobKind.TEXT, payload={"text": "x"}, max_attempts=3, now=NOW,
                      task_id=task.id)
        assert links.task_of_message(conn, "CHOSEN1") is None
        conn.execute(update(outbound_queue).where(outbound_queue.c.id == job).values(gateway_message_id="CHOSEN1"))
        assert links.task_of_message(conn, "CHOSEN1") == task.id
    run(db, wa_reaction("✅", "CHOSEN1", sender=ES))
    assert task_rows(db)[0].completed


def test_a_reaction_waits_while_a_text_to_its_chat_is_being_sent() -> None:
    sending = Sending()
    job = QueueJob(7, GROUP, JobKind.TEXT, {"text": "Tarefa #1 criada"}, "reply", 1, 3)
    sending.started(job)
    assert sending.awaiting("NEW1", None, GROUP)
    assert not sending.awaiting("NEW1", None, "other@g.us")
    sending.answered(7, "NEW1")
    assert sending.awaiting("NEW1", None, GROUP)
    sending.done(7)
    assert not sending.awaiting("NEW1", None, GROUP)


def test_a_date_of_several_words_in_a_reply_to_the_task_s_message_is_suggested_too(db: Database, house: str) -> None:
    run(db, wa_text("/t new bins", sender=UK, message_id="ORIGIN2"))
    reply = say(db, "/t due Dec 14", UK, quoted="ORIGIN2")
    assert reply.endswith("\n💡 If you meant 2026-12-14: /t due 2026-12-14")


@pytest.mark.parametrize(("sender", "refusal"), [
    (UK, "Invalid time: «25 pm»; write it like 8:30 am, 8 pm, 20:00 or at 8 pm.\nUsage: /t reminders"),
    (BR, "Hora inválida: «25 pm»; escreva como 8:30, 20h, 8 pm ou às 20h.\nUso: /t lembretes"),
])
def test_a_time_it_cannot_read_is_refused_with_the_forms_it_reads(db: Database, sender: str, refusal: str) -> None:
    assert say(db, "/t reminders daily 25 pm", sender, group=None).startswith(refusal)
