"""Properties of the chat command grammar (SPEC section 5).

The strategies stay here rather than in tests/strategies.py: only this module uses them.
"""

from collections.abc import Callable
from datetime import date, timedelta
from random import Random

from hypothesis import assume, given
from hypothesis import strategies as st

from taskcore.chat import new_task_args
from taskcore.chat.commands import CommandSyntaxError, Complete, NewTask
from taskcore.chat.grammar import parse_command
from taskcore.recurrence import is_intro
from taskcore.services.conversation.registry import SYNTAX
from taskcore.text import sanitize_description
from taskcore.words.read import flag
from taskcore.words.read import is_date_like as is_due_word
from tests.chat_support import said

TODAY = date(2026, 11, 22)
PREFIXES = ("/t", "/tarea", "/admin")

VOCABULARY = (
    *PREFIXES,
    "/T",
    "nueva",
    "+",
    "x",
    "hecho",
    "tomar",
    "soltar",
    "fecha",
    "editar",
    "recordatorios",
    "web",
    "ver",
    "grupos",
    "permitir",
    "bloquear",
    "sync",
    "aquí",
    "hoy",
    "mañana",
    "MANANA",
    "25-12",
    "12/25/2025",
    "2025-3-5",
    "2025-02-30",
    "26-01-01",
    "2026-12-05",
    "#12",
    "#",
    "0",
    "-3",
    "9" * 30,
    "@123",
    "@",
    "sin",
    "diario",
    "laborables",
    "off",
    "7:30",
    "24:00",
    "123@g.us",
    "1-2@g.us",
    '"',
    "“",
    "”",
    ",",
    "<b>",
    "\u200b",
)

mentioned_ids = st.lists(st.sampled_from(["123", "34600111222", "9"]), max_size=3)
"""Digits of contextInfo.mentionedJid, overlapping the @-tokens of the vocabulary."""

token_soup = st.lists(st.one_of(st.sampled_from(VOCABULARY), st.text(max_size=6)), max_size=8).map(" ".join)
"""Messages made of command words, dates, ids, quotes and noise, in any order."""

messages = st.one_of(
    st.text(),
    st.builds(
        "".join, st.tuples(st.sampled_from(["/t ", "/tarea ", "/admin ", "@123 /t nueva "]), st.text())
    ),
    token_soup,
    st.builds(lambda prefix, soup: f"{prefix} {soup}", st.sampled_from(PREFIXES), token_soup),
)
"""Arbitrary text, biased towards things that look like commands."""

plain_words = st.text(alphabet="abcdefghijklmnopqrstuvwxyzñáéíóúABCZ¿?.!", min_size=1, max_size=10).filter(
    lambda word: not is_due_word(word) and not is_intro(word) and flag(word) is None
)
"""Words that are neither dates (in any language), rule openers, flags (``!fair``), mentions, quotes nor markup."""

due_dates = st.dates(min_value=date(2000, 1, 1), max_value=date(2099, 12, 31))


def written(due: date) -> str:
    """How a user may type ``due`` in a command: hoy, mañana, YYYY-MM-DD or YY-MM-DD."""
    if due == TODAY:
        return "hoy"
    if due == TODAY + timedelta(days=1):
        return "mañana"
    return due.isoformat() if due.day % 2 else due.strftime("%y-%m-%d")


@given(messages, mentioned_ids)
def test_any_text_is_a_command_none_or_a_command_syntax_error(text: str, mentioned: list[str]) -> None:
    try:
        parse_command(text, SYNTAX, today=TODAY, mentioned=mentioned)
    except CommandSyntaxError as error:
        reply = said(error)
    else:
        return
    assert "\nUso: " in reply


@given(st.characters().filter(lambda ch: ch not in "/@" and not ch.isspace()), st.text())
def test_text_not_starting_with_a_mention_or_slash_is_never_a_command(first: str, rest: str) -> None:
    assert parse_command(first + rest, SYNTAX, today=TODAY) is None


@given(st.sampled_from(PREFIXES), st.text(min_size=1).filter(lambda tail: not tail[0].isspace()), st.text())
def test_a_prefix_glued_to_more_text_is_never_a_command(prefix: str, tail: str, rest: str) -> None:
    assume((prefix + tail).split()[0].lower() not in PREFIXES)
    assert parse_command(prefix + tail + rest, SYNTAX, today=TODAY) is None


@given(
    st.lists(plain_words, min_size=1, max_size=8),
    st.one_of(st.none(), due_dates),
    st.lists(st.sampled_from(["123", "456", "789"]), max_size=4),
    st.randoms(use_true_random=False),
)
def test_a_valid_nueva_round_trips_description_date_and_mentions(
    words: list[str], due: date | None, mentions: list[str], rng: Random
) -> None:
    tokens = list(words)
    extras = [f"@{digits}" for digits in mentions] + ([written(due)] if due is not None else [])
    for extra in extras:
        tokens.insert(rng.randint(0, len(tokens)), extra)
    command = parse_command("/t nueva " + " ".join(tokens), SYNTAX, today=TODAY, mentioned=["123", "456", "789"])
    in_order = tuple(dict.fromkeys(token[1:] for token in tokens if token.startswith("@")))
    assert command == NewTask(" ".join(words), due, in_order)


@given(st.text().filter(lambda text: not set(text) & set('"“”')), st.one_of(st.none(), due_dates))
def test_quoted_text_round_trips_literally(text: str, due: date | None) -> None:
    try:
        expected = sanitize_description(text)
    except ValueError:
        return
    date_word = f" {written(due)}" if due is not None else ""
    command = parse_command(f'/t nueva "{text}"{date_word}', SYNTAX, today=TODAY, mentioned=["123"])
    assert command == NewTask(expected, due, ())


@given(
    st.lists(st.integers(min_value=1, max_value=10**18 - 1), min_size=1, max_size=6),
    st.sampled_from([" ", ",", ", "]),
)
def test_x_round_trips_its_ids_without_repeats(ids: list[int], separator: str) -> None:
    text = "/t x " + separator.join(f"#{task_id}" if task_id % 2 else str(task_id) for task_id in ids)
    assert parse_command(text, SYNTAX, today=TODAY) == Complete(tuple(dict.fromkeys(ids)))


nueva_words = st.lists(st.one_of(
    st.sampled_from((*VOCABULARY, "cada", "CÁDA", "every", "lunes", "día", "semana", "3", "!todos", "!TURNOS",
                     "!turns", "“x”", "\x1c", "\x85", "\xa0", "\u3000", "\t", "ǅ", "ß", "İ")),
    st.text(max_size=6),
), max_size=8).map(" ".join)
"""``/t nueva`` arguments: plain words, dates, rule words, flags, quotes, odd whitespace and case."""


@given(nueva_words, mentioned_ids)
def test_nueva_reads_plain_words_as_the_full_grammar_does(args: str, mentioned: list[str]) -> None:
    def outcome(parse: Callable[[str, new_task_args.Context], NewTask]) -> NewTask | str:
        try:
            return parse(args, new_task_args.Context(TODAY, frozenset(mentioned)))
        except CommandSyntaxError as exc:
            return said(exc)

    assert outcome(new_task_args.parse_new) == outcome(new_task_args.parse_new_chunks)
