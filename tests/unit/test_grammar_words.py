"""The chat's words in Spanish, Portuguese and English (SPEC section 24): anyone may use any language's words, and a
command means the same whatever language its words come from; ``pasado mañana`` is one token the grammar refuses,
naming the date it means (SPEC section 23)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest

import taskcore.words.lexicon as word_tables
from taskcore import parse_due_date
from taskcore.access import GroupStatus
from taskcore.chat.commands import (
    AdminAllow,
    AdminBlock,
    AdminHelp,
    AdminListGroups,
    CalendarRevoke,
    Claim,
    Command,
    CommandSyntaxError,
    Complete,
    Help,
    ListTasks,
    NewTask,
    SetDue,
    SetLanguage,
    SetMode,
    SetReminders,
    SetZone,
    StopSeries,
    Unassign,
)
from taskcore.chat.grammar import parse_command
from taskcore.completion import CompletionMode
from taskcore.conversation import ConversationAction, classify_reply_word
from taskcore.errors import InvalidDate
from taskcore.recurrence import Recurrence, parse_recurrence
from taskcore.reminders import ReminderFreq
from taskcore.services.conversation.registry import SYNTAX
from taskcore.words import KINDS, TABLES, key, lookup, meaning
from tests.chat_support import said

TODAY = date(2026, 11, 26)
TOMORROW = TODAY + timedelta(days=1)
MONDAY_THURSDAY = Recurrence("FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves")


def parse(text: str, quoted: int | None = None) -> Command | None:
    return parse_command(text, SYNTAX, today=TODAY, mentioned=("1", "2"), quoted_task=quoted)


def refusal(text: str) -> CommandSyntaxError:
    with pytest.raises(CommandSyntaxError) as caught:
        parse(text)
    return caught.value


@pytest.mark.parametrize(("text", "expected"), [
    ("/t nova comprar pão amanhã", NewTask("comprar pão", TOMORROW, ())),
    ("/t nova comprar pão amanha", NewTask("comprar pão", TOMORROW, ())),
    ("/t new buy bread tomorrow", NewTask("buy bread", TOMORROW, ())),
    ("/t new buy bread TODAY @1", NewTask("buy bread", TODAY, ("1",))),
    ("/t nova pagar conta hoje", NewTask("pagar conta", TODAY, ())),
    ("/t nueva comprar pan mañana", NewTask("comprar pan", TOMORROW, ())),
])
def test_the_date_words_of_every_language_are_the_same_two_days(text: str, expected: NewTask) -> None:
    assert parse(text) == expected


def test_a_second_date_word_in_another_language_rejects_the_command_as_a_second_date_does() -> None:
    assert refusal("/t nueva pan hoy tomorrow").field == "due_date"


def test_the_public_date_reader_reads_every_language_s_date_words_as_the_chat_does() -> None:
    assert parse_due_date("mañana", today=TODAY) == TOMORROW
    for word in ("tomorrow", "amanhã", "Amanha"):
        assert parse_due_date(word, today=TODAY) == TOMORROW
    for word in ("hoje", "today", "HOY"):
        assert parse_due_date(word, today=TODAY) == TODAY
    for word in ("pasado mañana", "day after tomorrow", "depois de amanhã", "ayer"):
        with pytest.raises(InvalidDate):
            parse_due_date(word, today=TODAY)


def test_quoted_date_words_stay_text() -> None:
    assert parse('/t new "tomorrow" hoje') == NewTask("tomorrow", TODAY, ())


@pytest.mark.parametrize("text", [
    "/t nueva sacar basura every monday and thursday @1 @2 !turnos",
    "/t nova sacar basura a cada segunda e quinta @1 @2 !turnos",
    "/t nova sacar basura toda segunda-feira e quinta-feira @1 @2 !turnos",
    "/t new sacar basura every Monday, Thursday @1 @2 !turns",
    "/t nueva sacar basura cada lunes y quinta feira @1 @2 !turnos",
])
def test_a_recurring_task_reads_the_same_in_every_language(text: str) -> None:
    assert parse(text) == NewTask("sacar basura", None, ("1", "2"), recurrence=MONDAY_THURSDAY, rotation=True)


@pytest.mark.parametrize(("rule", "expected"), [
    ("todo dia", "FREQ=DAILY"), ("a cada 2 semanas", "FREQ=WEEKLY;INTERVAL=2"), ("cada mês", "FREQ=MONTHLY"),
    ("every 3 months", "FREQ=MONTHLY;INTERVAL=3"), ("cada dia útil", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"),
    ("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"), ("toda terca", "FREQ=WEEKLY;BYDAY=TU"),
    ("every sunday", "FREQ=WEEKLY;BYDAY=SU"), ("cada sábado e domingo", "FREQ=WEEKLY;BYDAY=SA,SU"),
])
def test_rules_in_portuguese_and_english_make_the_same_rrule(rule: str, expected: str) -> None:
    parsed = parse(f"/t nova regar {rule}")
    assert isinstance(parsed, NewTask)
    assert (parsed.description, parsed.recurrence and parsed.recurrence.rule) == ("regar", expected)
    assert parse_recurrence(rule).rule == expected


def test_todo_and_toda_open_a_rule_only_before_a_rule_word() -> None:
    assert parse("/t nova comprar todo 3 kg") == NewTask("comprar todo 3 kg", None, ())
    assert parse("/t nova limpar toda a casa") == NewTask("limpar toda a casa", None, ())


def test_the_a_of_a_cada_goes_with_the_rule_only_before_cada() -> None:
    parsed = parse("/t nova ir a cada segunda")
    assert isinstance(parsed, NewTask)
    assert (parsed.description, parsed.recurrence) == ("ir", Recurrence("FREQ=WEEKLY;BYDAY=MO", "cada lunes"))


@pytest.mark.parametrize(("text", "expected"), [
    ("/t lembretes diário 08:30", SetReminders(ReminderFreq.DAILY, "08:30")),
    ("/t lembretes diario", SetReminders(ReminderFreq.DAILY, None)),
    ("/t recordatorios dias úteis 08:30", SetReminders(ReminderFreq.WEEKDAYS, "08:30")),
    ("/t reminders Dias Uteis", SetReminders(ReminderFreq.WEEKDAYS, None)),
    ("/t config semanal 7:05", SetReminders(ReminderFreq.WEEKLY, "07:05")),
    ("/t lembretes não", SetReminders(ReminderFreq.OFF, None)),
])
def test_reminder_frequencies_in_every_language(text: str, expected: SetReminders) -> None:
    assert parse(text) == expected


def test_a_reminder_frequency_of_no_language_is_still_refused() -> None:
    assert refusal("/t lembretes às vezes").field == "freq"


@pytest.mark.parametrize(("text", "expected"), [
    ("/t feito 3 4", Complete((3, 4))),
    ("/t pegar 3", Claim(3)),
    ("/t largar 3", Unassign(3)),
    ("/t drop 3", Unassign(3)),
    ("/t data 3 sem", SetDue(3, None)),
    ("/t data 3 amanhã", SetDue(3, TOMORROW)),
    ("/t due 3 today", SetDue(3, TODAY)),
    ("/t modo 3 um", SetMode(3, CompletionMode.ANY)),
    ("/t mode 3 all", SetMode(3, CompletionMode.EACH)),
    ("/t parar 3", StopSeries(3)),
    ("/t fuso sem", SetZone(None)),
    ("/t calendário apagar", CalendarRevoke()),
    ("/t lista", ListTasks()),
    ("/t AJUDA", Help()),
    ("/admin groups pendentes", AdminListGroups(GroupStatus.PENDING)),
    ("/admin grupos allowed", AdminListGroups(GroupStatus.ALLOWED)),
    ("/admin permitir aqui", AdminAllow(None)),
    ("/admin block here", AdminBlock(None)),
    ("/admin ajuda", AdminHelp()),
])
def test_subcommands_and_their_words_in_portuguese_and_english(text: str, expected: Command) -> None:
    assert parse(text) == expected


def test_a_date_word_in_a_reply_acts_on_the_quoted_task() -> None:
    assert parse("/t data amanhã", quoted=7) == SetDue(7, TOMORROW)


@pytest.mark.parametrize(("text", "code"), [
    ("/t idioma pt", "pt"), ("/t language en", "en"), ("/t língua es", "es"), ("/t lingua português", "pt"),
    ("/t idioma", None), ("/t language", None),
])
def test_idioma_names_a_language_or_nothing(text: str, code: str | None) -> None:
    assert parse(text) == SetLanguage(code)


def test_idioma_refuses_a_language_the_bot_does_not_speak_and_extra_words() -> None:
    assert refusal("/t idioma klingon").field == "lang"
    assert refusal("/t idioma pt en").field == "lang"


@pytest.mark.parametrize(("text", "action"), [
    ("done", ConversationAction.COMPLETE), ("Feito", ConversationAction.COMPLETE),
    ("hecho", ConversationAction.COMPLETE),
    ("mine", ConversationAction.CLAIM), (" EU ", ConversationAction.CLAIM), ("yo", ConversationAction.CLAIM),
])
def test_reply_words_of_every_language(text: str, action: ConversationAction) -> None:
    assert classify_reply_word(text) is action


def test_a_reply_word_inside_a_sentence_is_still_chat() -> None:
    assert classify_reply_word("eu acho que sim") is None


@pytest.mark.parametrize("words", ["pasado mañana", "pasado manana", "Pasado  Mañana", "depois de amanhã",
                                   "day after tomorrow"])
def test_pasado_manana_is_one_token_refused_with_the_date_it_means_and_the_command(words: str) -> None:
    error = refusal(f"/t nueva comprar pan {words}")
    assert (error.command, error.field) == ("nueva", "due_date")
    assert "2026-11-28" in said(error)
    assert "/t nueva comprar pan 2026-11-28" in said(error)  # the command as written, ready to copy (SPEC 39)
    assert "Fechas: " in said(error)


def test_pasado_manana_in_fecha_names_the_command_with_the_task_id() -> None:
    error = refusal("/t fecha 12 pasado mañana")
    assert (error.command, error.field) == ("fecha", "due_date")
    assert "«pasado mañana»" in said(error)
    assert "/t fecha 12 2026-11-28" in said(error)


def test_pasado_before_manana_is_always_the_phrase_and_pasado_alone_is_text() -> None:
    assert refusal("/t nueva pagar lo del año pasado mañana").field == "due_date"
    assert parse("/t nueva ver pasado") == NewTask("ver pasado", None, ())
    assert parse("/t nueva pasado 2026-12-01") == NewTask("pasado", date(2026, 12, 1), ())


def test_pasado_manana_in_quotes_stays_text() -> None:
    assert parse('/t nueva "pasado mañana" hoy') == NewTask("pasado mañana", TODAY, ())


def test_every_language_has_a_word_for_every_meaning_of_the_commands() -> None:
    shared = {name for name in TABLES["es"] if not name.startswith("rule.intro_if")}
    for lang, table in TABLES.items():
        assert shared <= set(table), (lang, shared - set(table))


def test_no_word_means_two_things_of_one_kind() -> None:
    for kind in KINDS:
        for table in TABLES.values():
            for name, words in table.items():
                if name.startswith(f"{kind}."):
                    assert all(lookup(kind)[key(word)] == name.partition(".")[2] for word in words)


def test_a_table_where_a_word_means_two_things_of_one_kind_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    clash = {"es": {"freq.daily": ("diario",)}, "pt": {"freq.weekly": ("Diário",)}}
    monkeypatch.setattr(word_tables, "TABLES", clash)
    with pytest.raises(ValueError, match="diario"):
        word_tables._joined("freq")


def test_accents_and_case_are_optional() -> None:
    assert meaning("date", "AMANHA") == meaning("date", "amanhã") == "tomorrow"
    assert meaning("weekday", "terca-feira") == "1"
    assert meaning("task", "LÍNGUA") == meaning("task", "lingua") == "idioma"
