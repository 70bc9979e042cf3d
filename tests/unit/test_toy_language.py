"""SPEC section 29: a fourth language is one lexicon file and one line (``taskcore.words.add_language``; the three
languages' line is ``TABLES``). A toy Esperanto lexicon (``eo_words.py``) is read that way, and the chat reads a
command written in its words alone, with the same grammar as the other three."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import date, timedelta

import pytest

from taskcore.chat.commands import Complete, NewTask, SetDue
from taskcore.chat.grammar import command_family, parse_command
from taskcore.conversation import ConversationAction, classify_reply_word
from taskcore.recurrence import parse_recurrence
from taskcore.services.conversation.registry import SYNTAX
from taskcore.words import TABLES, add_language, meaning, remove_language
from tests.unit import eo_words

TODAY = date(2026, 11, 28)


@pytest.fixture
def esperanto() -> Iterator[None]:
    add_language("eo", eo_words.WORDS)
    try:
        yield
    finally:
        remove_language("eo")


def test_a_new_task_for_tomorrow_in_the_fourth_language_s_words(esperanto: None) -> None:
    command = parse_command("/tasko nova aĉeti panon morgaŭ", SYNTAX, today=TODAY)
    assert command == NewTask("aĉeti panon", TODAY + timedelta(days=1), ())


def test_its_words_reach_every_reader(esperanto: None) -> None:
    assert command_family("/tasko farita 3") == "task"
    assert parse_command("/t farita 3", SYNTAX, today=TODAY) == Complete((3,))
    assert parse_command("/t limdato 3 hodiaŭ", SYNTAX, today=TODAY) == SetDue(3, TODAY)
    assert parse_recurrence("ĉiun lundon kaj ĵaŭdon").rule == "FREQ=WEEKLY;BYDAY=MO,TH"
    assert classify_reply_word("Farite!") is ConversationAction.COMPLETE


def test_the_toy_language_leaves_no_trace_once_removed(esperanto: None) -> None:
    remove_language("eo")
    assert "eo" not in TABLES
    assert meaning("family", "/tasko") is None
    assert parse_command("/tasko nova aĉeti panon morgaŭ", SYNTAX, today=TODAY) is None


def test_a_lexicon_whose_word_would_mean_two_things_is_refused() -> None:
    with pytest.raises(ValueError, match="means both"):
        add_language("xx", {"task.nueva": ("ver",)})  # ``ver`` already lists the tasks
    assert "xx" not in TABLES
    assert meaning("task", "ver") == "ver"
