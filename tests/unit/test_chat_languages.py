"""The chat in each person's and each group's language (SPEC section 24): chosen, else the phone number's country's,
else DEFAULT_LANGUAGE; a group that chose one is answered in it; private messages in the person's own."""

from __future__ import annotations

from dataclasses import replace

import pytest

from taskcore.i18n import _, speaking
from taskcore.storage import groups, preferences
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tests.builders import GROUP, NOW, make_group, wa_text
from tests.chat_support import policy, queued, run, texts

ES, BR, GB, LID = "34600111111", "5511987654321", "447911123456", "140000000000001"


def say(db: Database, text: str, **kw: object) -> str:
    run(db, wa_text(text, **kw))  # type: ignore[arg-type]
    return texts(db)[-1]


@pytest.mark.parametrize(("sender", "answer"), [
    (ES, "No tienes tareas abiertas."),
    (BR, "Você não tem tarefas abertas."),
    (GB, "You have no open tasks."),
])
def test_a_person_is_answered_in_their_number_s_language_without_any_setting(db: Database, sender: str,
                                                                            answer: str) -> None:
    assert say(db, "/t ver", sender=sender, group=None) == answer


def test_a_number_of_no_language_of_ours_gets_the_default_language(db: Database) -> None:
    run(db, wa_text("/t ver", sender="919876543210", group=None), replace(policy(), language="en"))
    assert texts(db)[-1] == "You have no open tasks."


def test_a_lid_without_a_phone_gets_the_default_language(db: Database) -> None:
    run(db, wa_text("/t ver", sender=LID, group=None), replace(policy(), language="pt"))
    assert texts(db)[-1] == "Você não tem tarefas abertas."


def test_a_chosen_language_wins_over_the_number_s(db: Database) -> None:
    with db.write() as conn:
        ensure_user(conn, BR, NOW)
        preferences.save_language(conn, user_id=BR, lang="en", now=NOW)
    assert say(db, "/t ver", sender=BR, group=None) == "You have no open tasks."


def test_in_a_group_without_a_language_each_person_is_answered_in_their_own(db: Database) -> None:
    make_group(db, GROUP, name="Casa", members=(ES, BR))
    assert say(db, "/t ver", sender=BR) == f"@{BR} Não há tarefas abertas neste grupo."
    assert say(db, "/t ver", sender=ES) == f"@{ES} No hay tareas abiertas en este grupo."


def test_a_group_that_chose_a_language_is_answered_in_it_by_everyone(db: Database) -> None:
    make_group(db, GROUP, name="Casa", members=(ES, BR))
    with db.write() as conn:
        groups.save_group_language(conn, GROUP, "en", NOW)
    assert say(db, "/t ver", sender=BR) == f"@{BR} No open tasks in this group."
    assert say(db, "/t ver", sender=ES) == f"@{ES} No open tasks in this group."


def test_a_link_asked_in_a_group_is_sent_privately_in_the_person_s_own_language(db: Database) -> None:
    make_group(db, GROUP, name="Casa", members=(BR,))
    with db.write() as conn:
        groups.save_group_language(conn, GROUP, "en", NOW)
    run(db, wa_text("/t web", sender=BR))
    reply, link = [job for job in queued(db) if job.kind == "text"]
    assert reply.text == f"@{BR} I've sent it to you privately."
    assert link.chat_id == f"{BR}@s.whatsapp.net"
    assert link.text.startswith("Seu link para entrar na web (vale 15 minutos, um único uso):\n")


def test_a_malformed_command_is_refused_in_the_reader_s_language(db: Database) -> None:
    reply = say(db, "/t calendario ya", sender=GB, group=None)
    assert reply == "Invalid option: «ya».\nUsage: /t calendar [delete]"


def test_the_help_is_in_the_reader_s_language(db: Database) -> None:
    reply = say(db, "/t", sender=BR, group=None)
    assert reply.startswith("Comandos (/t ou /tarea):\n• /t ajuda\n• /t nova <texto>")
    assert "/t nova comprar pão amanhã @Ana" in reply


def test_a_discovered_group_is_announced_to_each_admin_in_their_language(db: Database) -> None:
    rules = replace(policy("discover", admins=(ES, GB)))
    run(db, wa_text("hola", sender=BR, group="120363000000000099@g.us"), rules)
    notices = {job.chat_id: job.text for job in queued(db) if job.kind == "text"}
    assert notices[f"{ES}@s.whatsapp.net"].startswith("Nuevo grupo detectado: 120363000000000099@g.us.")
    assert notices[f"{GB}@s.whatsapp.net"].startswith("New group found: 120363000000000099@g.us.")


def test_outside_any_block_texts_are_spanish_and_inside_one_the_block_s_language() -> None:
    assert _("No tienes tareas abiertas.") == "No tienes tareas abiertas."
    with speaking("pt"):
        assert _("No tienes tareas abiertas.") == "Você não tem tarefas abertas."
        with speaking("xx"):
            assert _("No tienes tareas abiertas.") == "No tienes tareas abiertas."
    assert _("No tienes tareas abiertas.") == "No tienes tareas abiertas."


def test_a_brazilian_creates_a_task_with_portuguese_words_and_is_answered_in_portuguese(db: Database) -> None:
    reply = say(db, "/t nova comprar pão amanhã", sender=BR, group=None)
    assert reply.split("\n")[0] == "Tarefa #1 criada: comprar pão (vence 23/11)"
    assert reply.split("\n")[1].startswith("🕒 Datas e horários no seu fuso horário, ")  # said once (SPEC 30)


def test_an_english_speaker_s_task_with_a_rule_reads_in_english(db: Database) -> None:
    reply = say(db, "/t new take out the bins every monday and thursday", sender=GB, group=None)
    assert reply == "Task #1 created: take out the bins (due 23 Nov) ↻ every Monday and Thursday"
    assert say(db, "/t list", sender=GB, group=None) == (
        "Your open tasks (1):\n*Personal*\n#1 take out the bins · 23 Nov (tomorrow) · ↻ every Monday and Thursday")


def test_a_spanish_reader_sees_the_rule_as_it_was_read(db: Database) -> None:
    reply = say(db, "/t new take out the bins every monday and thursday", sender=ES, group=None)
    assert reply == "Tarea #1 creada: take out the bins (vence 23/11) ↻ cada lunes y jueves"


def test_idioma_in_a_direct_message_switches_the_person_and_answers_in_the_new_language(db: Database) -> None:
    assert say(db, "/t idioma en", group=None) == "From now on I'll write to you in English."
    assert say(db, "/t ver", group=None) == "You have no open tasks."
    assert say(db, "/t language", group=None) == (
        "I write to you in English (you chose it with /t language).\nTo change it: /t language es|pt|en")
    assert say(db, "/t língua português", group=None) == "A partir de agora eu te escrevo em português."


def test_idioma_grupo_switches_the_group_for_everyone_and_not_the_person(db: Database) -> None:
    make_group(db, GROUP, name="Casa", members=(ES, BR))
    assert say(db, "/t idioma grupo en", sender=BR) == f"@{BR} In this group I now write in English."
    assert say(db, "/t ver", sender=ES) == f"@{ES} No open tasks in this group."
    assert say(db, "/t ver", sender=BR, group=None) == "Você não tem tarefas abertas."
    assert say(db, "/t idioma", sender=ES) == (
        f"@{ES} I write to you in Spanish (from your number's country code).\nTo change it: /t language es|pt|en\n"
        "In this group I write in English. To change it: /t language group es|pt|en")


def test_idioma_by_a_member_in_a_group_is_that_member_s_alone(db: Database) -> None:
    """SPEC section 39 (measured: a member's ``/t language en`` switched the whole group)."""
    make_group(db, GROUP, name="Casa", members=(ES, BR))
    assert say(db, "/t language en", sender=BR) == f"@{BR} From now on I'll write to you in English."
    assert say(db, "/t ver", sender=ES) == f"@{ES} No hay tareas abiertas en este grupo."
    assert say(db, "/t ver", sender=BR, group=None) == "You have no open tasks."


def test_an_unknown_language_is_refused_with_the_accepted_ones(db: Database) -> None:
    reply = say(db, "/t idioma fr", sender=BR, group=None)
    assert reply.startswith("Idioma não disponível: «fr». Escolha es, pt ou en.\nUso: /t idioma [grupo] [es|pt|en]")
