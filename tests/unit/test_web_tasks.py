"""The announcement of a task made on the web (SPEC section 23): its wording, mentions and language."""

from __future__ import annotations

from dataclasses import replace
from datetime import date
from typing import Any

import jsonschema
import pydantic
import pytest

from taskcore.access import GatingMode
from taskcore.errors import ValidationError
from taskcore.i18n import speaking
from taskcore.model import Person, Task
from taskcore.services.web_tasks import Announcing, NewTask, announcement, create_from_web
from taskcore.storage.db import Database
from tasksvc_run import units
from tasksvc_run.web.creation_models import TaskCreate
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group

GROUP = "120363000000000001@g.us"


BASE = Task(id=7, description="Sacar la basura", due_date=None, group_id=GROUP, group_name="Casa",
            created_by="34600000001", created_at=NOW, completed=False, completed_at=None, completed_by=None)


def task(**changes: Any) -> Task:
    return replace(BASE, **changes)


def test_names_the_creator_the_due_date_and_mentions_the_assignees() -> None:
    people = (Person("34600000002", "Bruno"), Person("34600000003", None))
    body = announcement(task(due_date=date(2026, 12, 1), assignees=people), "Ana")
    assert body["text"] == ("Ana ha creado la tarea #7 desde la web: Sacar la basura\n"
                            "Vence el 01/12. Para @34600000002, @34600000003.")
    assert body["mentioned"] == ["34600000002@s.whatsapp.net", "34600000003@s.whatsapp.net"]
    assert body["chat"] == GROUP


def test_a_creator_without_a_known_name_is_mentioned() -> None:
    body = announcement(task(), None)
    assert body["text"] == "@34600000001 ha creado la tarea #7 desde la web: Sacar la basura\nSin asignar."
    assert body["mentioned"] == ["34600000001@s.whatsapp.net"]


def test_a_long_description_is_shortened_as_in_the_chat() -> None:
    head = announcement(task(description="x" * 300), "Ana")["text"].split("\n")[0]
    assert head == f"Ana ha creado la tarea #7 desde la web: {'x' * 79}…"


def test_it_is_written_in_the_language_in_force() -> None:
    with speaking("en"):
        text = announcement(task(due_date=date(2026, 12, 1)), "Ana")["text"]
    assert text == "Ana created task #7 on the web: Sacar la basura\nDue Dec 1. Unassigned."  # never 01/12 (SPEC 39)


def test_assignees_are_refused_on_a_personal_task(db: Database) -> None:
    make_group(db, GROUP, members=("34600000001",))
    new = NewTask("Pan", assignees=("34600000001",))
    with pytest.raises(ValidationError) as refused:
        units.run(db, create_from_web, GatingMode.ENFORCE, user_id="34600000001", new=new, now=NOW,
                  announcing=Announcing(max_attempts=6))
    assert refused.value.field == "assignees"


def _server_takes(body: dict[str, Any]) -> bool:
    """The shell's model parses it and the use case's own rule (no assignees on a personal task) holds."""
    try:
        parsed = TaskCreate.model_validate(body)
    except pydantic.ValidationError:
        return False
    return parsed.group_id is not None or not parsed.assignees


PERSON = "p_" + "a" * 24  # a public id (SPEC section 32)


@pytest.mark.parametrize(("body", "valid"), [
    ({"description": "Pan"}, True),
    ({"description": "Pan", "group_id": None, "assignees": []}, True),
    ({"description": "Pan", "group_id": GROUP, "assignees": [PERSON]}, True),
    ({"description": "Pan", "assignees": [PERSON]}, False),
    ({"description": "Pan", "group_id": None, "assignees": [PERSON]}, False),
    ({"description": "Pan", "group_id": " " + GROUP}, False),
    ({"description": "Pan", "assignees": [PERSON] * 1025, "group_id": GROUP}, False),
    ({"description": "Pan", "lang": "es"}, False),
    ({"description": "Pan", "group_id": GROUP, "assignees": ["34600000002"]}, False),  # digits: not a public id
])
def test_the_document_s_body_schema_says_what_the_server_takes(body: dict[str, Any], valid: bool) -> None:
    schema = {"$ref": "#/components/schemas/TaskCreate", "components": document()["components"]}
    assert jsonschema.Draft202012Validator(schema).is_valid(body) is valid
    assert _server_takes(body) is valid
