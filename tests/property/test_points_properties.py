"""Points and the balanced rotation's storage (SPEC section 25): ``!N`` in ``/t nueva`` reads as N whatever the words
around it, and a rotation's people and its ``!reparto`` mark survive the ``rotation_people`` column."""

from __future__ import annotations

from datetime import date
from types import SimpleNamespace

from hypothesis import given
from hypothesis import strategies as st

from taskcore.chat.commands import NewTask
from taskcore.chat.grammar import parse_command
from taskcore.model import Series
from taskcore.services.conversation.registry import SYNTAX
from taskcore.storage.tasks import series_columns, series_of

TODAY = date(2026, 11, 26)
user_ids = st.text(alphabet="0123456789abcdef", min_size=1, max_size=15)
words = st.sampled_from(["limpiar", "el", "baño", "pan", "cocina", "2x"])


@given(st.lists(user_ids, min_size=2, max_size=6, unique=True), st.booleans(), st.integers(0, 5))
def test_a_rotation_and_its_mark_survive_the_column(people: list[str], balanced: bool, turn: int) -> None:
    series = Series("FREQ=WEEKLY;BYDAY=MO", "cada lunes", tuple(people), turn % len(people), balanced)
    row = SimpleNamespace(**series_columns(series))
    assert series_of(row) == series


@given(st.lists(words, min_size=1, max_size=5), st.integers(1, 10), st.integers(0, 5))
def test_points_read_as_said_wherever_they_stand(text: list[str], points: int, at: int) -> None:
    said = [*text[:at], f"!{points}", *text[at:]]
    command = parse_command("/t nueva " + " ".join(said), SYNTAX, today=TODAY)
    assert isinstance(command, NewTask)
    assert command.points == points
    assert "!" not in command.description
