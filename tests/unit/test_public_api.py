"""The names SPEC section 15 makes importable from ``taskcore``, with the ones recurring tasks and time zones add
(issue 18): each typed and documented."""

from __future__ import annotations

import importlib
import inspect
from datetime import date
from typing import get_type_hints

import pytest

import taskcore

ISSUE_18 = ("Recurrence", "parse_recurrence", "next_occurrence", "default_time_zone", "InvalidRecurrence",
            "InvalidTimeZone")


def test_every_public_name_is_exported_and_listed() -> None:
    for name in ("parse_due_date", "format_due_date", "sanitize_description", "reminder_due_slot", *ISSUE_18):
        assert name in taskcore.__all__
        assert hasattr(taskcore, name)


@pytest.mark.parametrize("name", ISSUE_18)
def test_the_recurrence_and_zone_names_are_documented(name: str) -> None:
    assert inspect.getdoc(getattr(taskcore, name))


@pytest.mark.parametrize("name", ["parse_recurrence", "next_occurrence", "default_time_zone"])
def test_the_recurrence_and_zone_functions_are_fully_typed(name: str) -> None:
    function = getattr(taskcore, name)
    hints = get_type_hints(inspect.unwrap(function))
    assert set(inspect.signature(function).parameters) | {"return"} == set(hints)


def test_the_contract_of_the_three_functions() -> None:
    rule = taskcore.parse_recurrence("cada lunes")
    assert isinstance(rule, taskcore.Recurrence)
    assert taskcore.next_occurrence(rule, date(2026, 11, 23), today=date(2026, 11, 24)) == date(2026, 11, 30)
    assert taskcore.next_occurrence(rule.rule, date(2026, 11, 23), today=date(2026, 11, 24)) == date(2026, 11, 30)
    zone = taskcore.default_time_zone("573001234567")
    assert zone is not None
    assert zone.key == "America/Bogota"
    with pytest.raises(taskcore.InvalidRecurrence):
        taskcore.parse_recurrence("cada 0 días")
    with pytest.raises(taskcore.TaskcoreError):
        taskcore.parse_recurrence("cada lunes martes")


def test_every_listed_name_resolves_to_the_object_of_its_module() -> None:
    """The names load on first use (PEP 562); each is the very object its module defines."""
    for name in taskcore.__all__:
        value = getattr(taskcore, name)
        home = importlib.import_module(value.__module__)
        assert getattr(home, name) is value
        assert name in dir(taskcore)


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'parse_everything'"):
        taskcore.parse_everything  # noqa: B018 - the lookup is the test
