"""Pydantic models of creating a task from the web and of a group's members (SPEC section 23); documented like
``models.py``."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema

from taskcore.checklists import MAX_ITEM_LENGTH, MAX_ITEMS
from taskcore.chores.points import DEFAULT_POINTS
from taskcore.public_ids import PUBLIC_ID_PATTERN
from taskcore.text import MAX_DESCRIPTION
from tasksvc_run.web.models import POINTS, TEXT, IsoDate, NagIn, WholeNumber

GROUP_ID = r"[0-9]+(-[0-9]+)?@g\.us"  # as GET /api/me/groups lists it
USER_ID = PUBLIC_ID_PATTERN  # a public id, as GET /api/groups/{id}/members lists it (SPEC section 32)
MAX_ASSIGNEES = 1024  # a WhatsApp group's largest size


def _matching(pattern: str, message: str) -> AfterValidator:
    def check(value: str) -> str:
        if not re.fullmatch(pattern, value):
            raise ValueError(message)
        return value

    return AfterValidator(check)


def _at_most(limit: int, message: str) -> BeforeValidator:
    def check(value: Any) -> Any:
        if isinstance(value, list) and len(value) > limit:
            raise ValueError(message)
        return value

    return BeforeValidator(check)


GroupId = Annotated[str, _matching(GROUP_ID, "debe ser el id de un grupo: <dígitos>@g.us"),
                    WithJsonSchema({"type": "string", "pattern": f"^{GROUP_ID}$"})]
UserId = Annotated[str, _matching(USER_ID, "debe ser el id público de una persona (p_…)"),
                   WithJsonSchema({"type": "string", "pattern": f"^{USER_ID}$"})]


def _personal_rules(schema: dict[str, Any]) -> None:
    """A personal task takes no assignees; only a group task with a due date nags (SPEC section 25)."""
    in_a_group = {"required": ["group_id"], "properties": {"group_id": {"type": "string"}}}
    dated_group = {"required": ["group_id", "due_date"],
                   "properties": {"group_id": {"type": "string"}, "due_date": {"type": "string"}}}
    schema["allOf"] = [{"anyOf": [in_a_group, {"properties": {"assignees": {"maxItems": 0}}}]},
                       {"anyOf": [dated_group, {"properties": {"nag": {"type": "null"}}}]}]


class TaskCreate(BaseModel):
    """Body of POST /api/tasks: a personal task (no group: it is assigned to its creator and takes no assignees), or
    a task of one of my groups for some of its active members (none: unassigned); its points, and nagging (a group
    task with a due date only)."""

    model_config = ConfigDict(frozen=True, extra="forbid", json_schema_extra=_personal_rules)

    # As PATCH's: its length is checked once sanitised (taskcore), so the schema cannot carry it as a maxLength.
    description: Annotated[str, WithJsonSchema(TEXT)] = Field(
        description=f"Plain text, 1 to {MAX_DESCRIPTION} characters after sanitising (as in the chat).")
    due_date: IsoDate | None = Field(None, description="YYYY-MM-DD; absent or null: no due date.")
    group_id: GroupId | None = Field(None, description="One of my groups; absent or null: a personal task.")
    assignees: Annotated[list[UserId], _at_most(MAX_ASSIGNEES, f"admite hasta {MAX_ASSIGNEES} personas")] = Field(
        default_factory=list, json_schema_extra={"maxItems": MAX_ASSIGNEES},
        description="Active members of the group by public id (p_…, as its members list gives them); a personal "
                    "task takes none.")
    points: Annotated[WholeNumber, WithJsonSchema(POINTS)] = Field(
        DEFAULT_POINTS, ge=1, le=10, description="Effort, 1 to 10 (SPEC section 25); absent: 1.")
    nag: NagIn | None = Field(None, description="Nag every N hours once overdue: a group task with a due date "
                                                "only; absent or null: it does not nag.")
    items: Annotated[list[Annotated[str, WithJsonSchema(TEXT)]],
                     _at_most(MAX_ITEMS, f"admite hasta {MAX_ITEMS} elementos")] = Field(
        default_factory=list, json_schema_extra={"maxItems": MAX_ITEMS},
        description=f"Its checklist (SPEC section 41): up to {MAX_ITEMS} items, each 1 to {MAX_ITEM_LENGTH} "
                    "characters after sanitising; absent: none.")


class MemberOut(BaseModel):
    """An active member of a group (never the bot)."""

    id: str = Field(pattern=f"^{PUBLIC_ID_PATTERN}$", description="Public id: p_ and 24 characters, stable for the "
                                                                  "person; never a phone number.")
    name: str | None = Field(description="The name WhatsApp shows; null when unknown.")


class MemberList(BaseModel):
    """A group's active members, by name."""

    items: list[MemberOut]
