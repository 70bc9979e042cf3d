"""The chat command grammar (SPEC section 5; seed D1-D3 for dates in commands)."""

from collections.abc import Collection
from datetime import date

import pytest

from taskcore.access import GroupStatus
from taskcore.chat.commands import (
    AdminAllow,
    AdminBlock,
    AdminHelp,
    AdminListGroups,
    AdminSync,
    Claim,
    Command,
    CommandSyntaxError,
    Complete,
    Edit,
    Help,
    ListTasks,
    NewTask,
    SetDue,
    SetReminders,
    Unassign,
    WebLink,
)
from taskcore.chat.grammar import parse_command
from taskcore.errors import TaskcoreError, ValidationError
from taskcore.reminders import ReminderFreq
from taskcore.services.conversation.registry import SYNTAX, admin_help_text, help_text
from tests.chat_support import accepted_of, said

TODAY = date(2026, 11, 22)
TOMORROW = date(2026, 11, 23)
ANA = "34600111222"
LUIS = "34600333444"


def parse(text: str, mentioned: Collection[str] = ()) -> Command | None:
    return parse_command(text, SYNTAX, today=TODAY, mentioned=mentioned)


def rejection(text: str, mentioned: Collection[str] = ()) -> CommandSyntaxError:
    with pytest.raises(CommandSyntaxError) as caught:
        parse(text, mentioned)
    return caught.value


# Recognising a command


@pytest.mark.parametrize(
    "text",
    ["hola", "", "   ", "comprar /t pan", "/today", "/tareas", "/t.", "/tnueva pan", "/administrar", "t ver"],
)
def test_ordinary_chat_is_not_a_command(text: str) -> None:
    assert parse(text) is None


@pytest.mark.parametrize("prefix", ["/t", "/tarea", "/T", "/TAREA", "/Tarea"])
def test_both_prefixes_are_recognised_in_any_case(prefix: str) -> None:
    assert parse(f"{prefix} ver") == ListTasks()


def test_a_prefix_may_be_followed_by_any_whitespace() -> None:
    assert parse("/t\nver") == ListTasks()


def test_leading_whitespace_before_the_prefix_is_skipped() -> None:
    assert parse("  \n /t ver") == ListTasks()


def test_leading_mentions_of_the_bot_are_skipped() -> None:
    assert parse("@34600999888 @111 /t ver") == ListTasks()


def test_a_leading_mention_needs_not_be_in_the_mentioned_list_to_be_skipped() -> None:
    assert parse("@34600999888 /t ver", mentioned=()) == ListTasks()


def test_a_leading_word_other_than_a_mention_makes_it_ordinary_chat() -> None:
    assert parse("hola @34600999888 /t ver") is None


def test_a_mention_glued_to_the_prefix_is_not_skipped() -> None:
    assert parse("@34600999888/t ver") is None


def test_a_message_of_only_mentions_is_not_a_command() -> None:
    assert parse("@34600999888 @111") is None


# Help and no-argument commands


@pytest.mark.parametrize("text", ["/t", "/t ayuda", "/t help", "/t AYUDA", "/tarea", "/t ayuda por favor"])
def test_bare_prefix_ayuda_and_help_ask_for_help_ignoring_extra_words(text: str) -> None:
    assert parse(text) == Help()


@pytest.mark.parametrize("text", ["/t ver", "/t ls", "/t list", "/t mis", "/t VER", "/t ver todas"])
def test_ver_and_its_aliases_list_tasks_ignoring_extra_words(text: str) -> None:
    assert parse(text) == ListTasks()


@pytest.mark.parametrize("text", ["/t web", "/t WEB", "/t web ahora"])
def test_web_asks_for_a_login_link_ignoring_extra_words(text: str) -> None:
    assert parse(text) == WebLink()


def test_an_unknown_subcommand_is_rejected_listing_the_subcommands() -> None:
    error = rejection("/t comprar pan")
    assert error.command is None
    assert "nueva" in accepted_of(error)
    assert "recordatorios" in accepted_of(error)
    assert "comprar" in said(error)


# nueva


@pytest.mark.parametrize("alias", ["nueva", "n", "new", "+", "NUEVA", "Nueva"])
def test_nueva_and_its_aliases_create_a_task(alias: str) -> None:
    assert parse(f"/t {alias} comprar pan") == NewTask("comprar pan", None, ())


def test_nueva_joins_the_words_with_single_spaces() -> None:
    assert parse("/t nueva  comprar\t\tpan \n integral ") == NewTask("comprar pan integral", None, ())


def test_d1_a_full_year_date_anywhere_is_the_due_date() -> None:
    assert parse("/t nueva comprar 2026-12-05 pan") == NewTask("comprar pan", date(2026, 12, 5), ())


def test_d1_a_two_digit_year_date_is_the_due_date_in_20yy() -> None:
    assert parse("/t nueva 27-01-31 comprar pan") == NewTask("comprar pan", date(2027, 1, 31), ())


@pytest.mark.parametrize(
    ("word", "due"), [("hoy", TODAY), ("HOY", TODAY), ("mañana", TOMORROW), ("manana", TOMORROW)]
)
def test_d2_hoy_and_manana_in_any_case_are_the_due_date(word: str, due: date) -> None:
    assert parse(f"/t nueva comprar pan {word}") == NewTask("comprar pan", due, ())


def test_two_dates_reject_the_command() -> None:
    error = rejection("/t nueva comprar pan hoy 2026-12-05")
    assert error.command == "nueva"
    assert "Fechas:" in accepted_of(error)


@pytest.mark.parametrize("bad", ["25-12", "12/25/2025", "2025-3-5", "2025-02-30"])
def test_d3_a_rejected_date_like_token_rejects_the_whole_command_showing_the_date_forms(bad: str) -> None:
    error = rejection(f"/t nueva comprar pan {bad}")
    assert error.command == "nueva"
    assert error.field == "due_date"
    assert "/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos|!reparto] [!N] [!insistir]" in (
        accepted_of(error))
    assert "AAAA-MM-DD, AA-MM-DD" in said(error)
    assert bad in said(error)


def test_a_number_without_separators_is_text_not_a_date() -> None:
    assert parse("/t nueva comprar 2 kg") == NewTask("comprar 2 kg", None, ())


def test_text_between_double_quotes_is_literal_and_never_a_date() -> None:
    assert parse('/t nueva "comprar 2/3 kg" mañana') == NewTask("comprar 2/3 kg", TOMORROW, ())


def test_text_between_curly_quotes_is_literal_and_never_a_date() -> None:
    assert parse("/t nueva “comprar 2/3 kg” mañana") == NewTask("comprar 2/3 kg", TOMORROW, ())


def test_a_quoted_date_word_stays_text_beside_a_real_date() -> None:
    assert parse('/t nueva llamar "mañana" hoy') == NewTask("llamar mañana", TODAY, ())


def test_a_quoted_mention_stays_text_even_when_mentioned() -> None:
    assert parse(f'/t nueva avisar a "@{ANA}"', mentioned=[ANA]) == NewTask(f"avisar a @{ANA}", None, ())


def test_an_unclosed_quote_runs_to_the_end_of_the_message() -> None:
    assert parse('/t nueva hoy "pintar 1/2 pared mañana') == NewTask("pintar 1/2 pared mañana", TODAY, ())


def test_only_quotes_leave_an_empty_description_and_are_rejected() -> None:
    assert rejection('/t nueva "" hoy').field == "description"


def test_mentions_in_the_mentioned_list_become_assignees_in_order() -> None:
    command = parse(f"/t nueva @{LUIS} revisar @{ANA} informe", mentioned=[ANA, LUIS])
    assert command == NewTask("revisar informe", None, (LUIS, ANA))


def test_a_repeated_mention_assigns_once() -> None:
    assert parse(f"/t nueva revisar @{ANA} @{ANA}", mentioned=[ANA]) == NewTask("revisar", None, (ANA,))


def test_a_short_at_number_not_in_the_mentioned_list_stays_text() -> None:
    assert parse("/t nueva comprar @2 kilos", mentioned=[LUIS]) == NewTask("comprar @2 kilos", None, ())


def test_a_typed_number_not_in_the_mentioned_list_is_read_as_a_mention() -> None:
    assert parse(f"/t nueva llamar @{ANA}", mentioned=[LUIS]) == NewTask("llamar", None, (ANA,))


def test_an_at_word_that_is_not_digits_stays_text() -> None:
    assert parse("/t nueva escribir a @ana", mentioned=[ANA]) == NewTask("escribir a @ana", None, ())


def test_a_task_of_only_a_date_and_mentions_is_rejected_for_lack_of_text() -> None:
    error = rejection(f"/t nueva mañana @{ANA}", mentioned=[ANA])
    assert error.command == "nueva"
    assert error.field == "description"


def test_nueva_without_text_is_rejected_with_its_usage() -> None:
    assert accepted_of(rejection("/t nueva")) == (
        "/t nueva <texto> [cada <regla>] [fecha] [@mención...] [!todos] [!turnos|!reparto] [!N] [!insistir] "
        "[: <elemento>, <elemento>...]")


def test_a_description_over_1000_characters_is_rejected() -> None:
    assert rejection("/t nueva " + "a" * 1001).field == "description"


def test_a_description_of_exactly_1000_characters_is_accepted() -> None:
    assert parse("/t nueva " + "a" * 1000) == NewTask("a" * 1000, None, ())


def test_the_description_is_sanitised_like_the_web() -> None:
    assert parse("/t nueva <b>pan</b>\u200b integral") == NewTask("pan integral", None, ())


# x / hecho / done


@pytest.mark.parametrize("alias", ["x", "hecho", "done", "X", "HECHO"])
def test_x_and_its_aliases_complete_tasks(alias: str) -> None:
    assert parse(f"/t {alias} 12") == Complete((12,))


@pytest.mark.parametrize("ids", ["3 5 7", "3,5,7", "3, 5 ,7", "#3 #5,#7", "3,,5  ,  7,"])
def test_x_takes_several_ids_separated_by_spaces_or_commas(ids: str) -> None:
    assert parse(f"/t x {ids}") == Complete((3, 5, 7))


def test_x_drops_repeated_ids_keeping_the_first_order() -> None:
    assert parse("/t x 5 3 5 #3 9") == Complete((5, 3, 9))


def test_x_without_ids_is_rejected() -> None:
    assert rejection("/t x").field == "task_id"


@pytest.mark.parametrize("bad", ["0", "-1", "abc", "#", "##3", "3a", "１２", "1" * 19])
def test_a_task_id_that_is_not_a_positive_integer_is_rejected(bad: str) -> None:
    error = rejection(f"/t x 1 {bad}")
    assert error.command == "x"
    assert error.field == "task_id"


def test_an_item_beside_a_whole_task_is_rejected_naming_the_items() -> None:
    """``1.5`` is item 5 of task 1 (SPEC section 41): ticked alone, never beside a task completed whole."""
    error = rejection("/t x 1 1.5")
    assert (error.command, error.field) == ("x", "items")


# tomar / soltar


@pytest.mark.parametrize("alias", ["tomar", "claim", "TOMAR"])
def test_tomar_and_claim_claim_one_task(alias: str) -> None:
    assert parse(f"/t {alias} #12") == Claim(12)


@pytest.mark.parametrize("alias", ["soltar", "unassign", "dejar"])
def test_soltar_and_its_aliases_unassign_one_task(alias: str) -> None:
    assert parse(f"/t {alias} 12") == Unassign(12)


@pytest.mark.parametrize("text", ["/t tomar", "/t tomar 3 4", "/t soltar", "/t soltar 3 por favor"])
def test_tomar_and_soltar_take_exactly_one_id(text: str) -> None:
    assert rejection(text).command in {"tomar", "soltar"}


def test_tomar_with_a_bad_id_is_rejected() -> None:
    assert rejection("/t tomar doce").field == "task_id"


# fecha / due


@pytest.mark.parametrize("alias", ["fecha", "due", "FECHA"])
def test_fecha_and_due_set_the_due_date(alias: str) -> None:
    assert parse(f"/t {alias} #4 2026-12-05") == SetDue(4, date(2026, 12, 5))


@pytest.mark.parametrize(
    ("word", "due"), [("hoy", TODAY), ("Mañana", TOMORROW), ("26-01-02", date(2026, 1, 2))]
)
def test_d1_d2_fecha_accepts_every_accepted_form(word: str, due: date) -> None:
    assert parse(f"/t fecha 4 {word}") == SetDue(4, due)


@pytest.mark.parametrize("word", ["sin", "SIN", "none", "None"])
def test_fecha_sin_or_none_clears_the_due_date(word: str) -> None:
    assert parse(f"/t fecha 4 {word}") == SetDue(4, None)


@pytest.mark.parametrize("bad", ["25-12", "12/25/2025", "2025-3-5", "2025-02-30", "pronto"])
def test_d3_fecha_with_a_rejected_date_shows_the_date_forms(bad: str) -> None:
    error = rejection(f"/t fecha 4 {bad}")
    assert error.command == "fecha"
    assert error.field == "due_date"
    assert "Fechas: AAAA-MM-DD" in accepted_of(error)


@pytest.mark.parametrize("text", ["/t fecha", "/t fecha 4", "/t fecha 4 hoy mañana", "/t fecha hoy 4"])
def test_fecha_needs_an_id_and_one_date(text: str) -> None:
    assert rejection(text).command == "fecha"


# editar / edit


@pytest.mark.parametrize("alias", ["editar", "edit"])
def test_editar_and_edit_replace_the_description(alias: str) -> None:
    assert parse(f"/t {alias} 7 comprar pan integral") == Edit(7, "comprar pan integral")


def test_editar_takes_the_text_literally_with_dates_mentions_and_quotes() -> None:
    command = parse(f'/t editar #7 llamar "a Ana" mañana @{ANA} 25-12', mentioned=[ANA])
    assert command == Edit(7, f'llamar "a Ana" mañana @{ANA} 25-12')


def test_editar_sanitises_the_text() -> None:
    assert parse("/t editar 7  pan \n\n <i>integral</i>") == Edit(7, "pan integral")


@pytest.mark.parametrize("text", ["/t editar", "/t editar 7", "/t editar 7   "])
def test_editar_without_text_is_rejected(text: str) -> None:
    assert rejection(text).command == "editar"


def test_editar_with_a_bad_id_is_rejected() -> None:
    assert rejection("/t editar pan integral").field == "task_id"


# recordatorios / config / reminders


@pytest.mark.parametrize("alias", ["recordatorios", "config", "reminders"])
def test_recordatorios_and_its_aliases_set_the_reminder_preference(alias: str) -> None:
    assert parse(f"/t {alias} diario 7:05") == SetReminders(ReminderFreq.DAILY, "07:05")


@pytest.mark.parametrize(
    ("word", "freq"),
    [
        ("off", ReminderFreq.OFF),
        ("diario", ReminderFreq.DAILY),
        ("laborables", ReminderFreq.WEEKDAYS),
        ("semanal", ReminderFreq.WEEKLY),
        ("daily", ReminderFreq.DAILY),
        ("weekdays", ReminderFreq.WEEKDAYS),
        ("weekly", ReminderFreq.WEEKLY),
    ],
)
def test_recordatorios_accepts_spanish_and_english_frequencies(word: str, freq: ReminderFreq) -> None:
    assert parse(f"/t recordatorios {word}") == SetReminders(freq, None)


def test_recordatorios_without_a_time_leaves_the_time_unset() -> None:
    assert parse("/t recordatorios semanal") == SetReminders(ReminderFreq.WEEKLY, None)


@pytest.mark.parametrize("text", ["/t recordatorios", "/t recordatorios diario 08:30 ya"])
def test_recordatorios_takes_a_frequency_and_at_most_a_time(text: str) -> None:
    assert rejection(text).command == "recordatorios"


def test_recordatorios_with_an_unknown_frequency_is_rejected() -> None:
    assert rejection("/t recordatorios nunca").field == "freq"


@pytest.mark.parametrize("bad", ["24:00", "7", "07:60", "7.30"])
def test_recordatorios_with_a_bad_time_is_rejected(bad: str) -> None:
    assert rejection(f"/t recordatorios diario {bad}").field == "time"


# /admin


@pytest.mark.parametrize("text", ["/admin", "/ADMIN", "/admin ayuda", "/admin help", "@111 /admin"])
def test_bare_admin_or_admin_ayuda_asks_for_admin_help(text: str) -> None:
    assert parse(text) == AdminHelp()


@pytest.mark.parametrize("alias", ["grupos", "groups", "GRUPOS"])
def test_admin_grupos_lists_every_group(alias: str) -> None:
    assert parse(f"/admin {alias}") == AdminListGroups(None)


@pytest.mark.parametrize(
    ("word", "status"),
    [
        ("pendientes", GroupStatus.PENDING),
        ("permitidos", GroupStatus.ALLOWED),
        ("bloqueados", GroupStatus.BLOCKED),
        ("pending", GroupStatus.PENDING),
        ("allowed", GroupStatus.ALLOWED),
        ("Blocked", GroupStatus.BLOCKED),
    ],
)
def test_admin_grupos_filters_by_status_in_spanish_or_english(word: str, status: GroupStatus) -> None:
    assert parse(f"/admin grupos {word}") == AdminListGroups(status)


def test_admin_grupos_status_is_the_plain_stored_string() -> None:
    command = parse("/admin grupos pendientes")
    assert isinstance(command, AdminListGroups)
    assert command.status == "pending"


@pytest.mark.parametrize("text", ["/admin grupos todos", "/admin grupos pendientes bloqueados"])
def test_admin_grupos_with_an_unknown_status_is_rejected(text: str) -> None:
    assert rejection(text).command == "admin grupos"


@pytest.mark.parametrize("alias", ["permitir", "allow"])
def test_admin_permitir_allows_a_group_by_id(alias: str) -> None:
    assert parse(f"/admin {alias} 120363012345@g.us") == AdminAllow("120363012345@g.us")


@pytest.mark.parametrize("alias", ["bloquear", "block"])
def test_admin_bloquear_blocks_a_group_by_id(alias: str) -> None:
    assert parse(f"/admin {alias} 34600111222-1600000000@g.us") == AdminBlock("34600111222-1600000000@g.us")


@pytest.mark.parametrize("here", ["aquí", "aqui", "AQUÍ", "here"])
def test_admin_permitir_and_bloquear_aqui_mean_the_current_chat(here: str) -> None:
    assert parse(f"/admin permitir {here}") == AdminAllow(None)
    assert parse(f"/admin bloquear {here}") == AdminBlock(None)


@pytest.mark.parametrize("bad", ["123", "abc@g.us", "123@s.whatsapp.net", "123@G.US"])
def test_admin_a_malformed_group_id_is_rejected_showing_the_group_form(bad: str) -> None:
    error = rejection(f"/admin permitir {bad}")
    assert error.field == "group_id"
    assert "<dígitos>@g.us" in said(error)


@pytest.mark.parametrize("text", ["/admin permitir", "/admin bloquear", "/admin bloquear aquí 123@g.us"])
def test_admin_permitir_and_bloquear_take_exactly_one_group(text: str) -> None:
    assert rejection(text).command in {"admin permitir", "admin bloquear"}


def test_admin_sync_asks_for_a_group_sync() -> None:
    assert parse("/admin SYNC") == AdminSync()


def test_an_unknown_admin_subcommand_is_rejected_listing_the_admin_subcommands() -> None:
    error = rejection("/admin borrar")
    assert error.command == "admin"
    assert "permitir" in accepted_of(error)


def test_every_admin_error_says_it_is_an_admin_command_so_non_admins_get_no_reply() -> None:
    assert rejection("/admin borrar").admin
    assert rejection("/admin permitir 1").admin
    assert not rejection("/t borrar").admin


# Errors and names


def test_the_syntax_error_is_a_validation_error_and_a_value_error() -> None:
    error = rejection("/t x")
    assert isinstance(error, ValidationError)
    assert isinstance(error, TaskcoreError)
    assert isinstance(error, ValueError)


def test_the_syntax_error_reply_says_what_was_wrong_and_the_accepted_form() -> None:
    assert said(rejection("/t tomar")) == "Faltan datos.\nUso: /t tomar <id>"


def test_a_very_long_bad_token_is_shortened_in_the_reply() -> None:
    short = str(rejection("/t zz"))
    assert len(str(rejection("/t " + "z" * 5000))) <= len(short) + 40  # the token cut at 40 characters and "…"


def test_every_command_class_names_its_spanish_subcommand() -> None:
    assert [cls.name for cls in (Help, NewTask, ListTasks, Complete, Claim, Unassign, SetDue, Edit)] == [
        "ayuda",
        "nueva",
        "ver",
        "x",
        "tomar",
        "soltar",
        "fecha",
        "editar",
    ]
    assert [SetReminders.name, WebLink.name, AdminHelp.name, AdminAllow.name] == [
        "recordatorios",
        "web",
        "admin",
        "admin permitir",
    ]


def test_commands_are_frozen_values() -> None:
    command = Claim(3)
    with pytest.raises(AttributeError):
        command.task_id = 4  # type: ignore[misc]


@pytest.mark.parametrize(
    "usage", ["nueva", "ver", "x ", "tomar", "soltar", "fecha", "editar", "recordatorios", "web"]
)
def test_the_help_shows_every_task_command(usage: str) -> None:
    assert f"/t {usage}" in help_text()


@pytest.mark.parametrize("usage", ["grupos", "permitir", "bloquear", "sync"])
def test_the_admin_help_shows_every_admin_command(usage: str) -> None:
    assert f"/admin {usage}" in admin_help_text()
