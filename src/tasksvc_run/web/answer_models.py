"""Pydantic models of what the JSON API answers (SPEC section 6): task items, lists, groups and preferences. They
document what the renderers in ``render.py`` produce; a test checks real responses against them through the OpenAPI
document.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from tasksvc_run.web.models import PUBLIC_ID, Completion, Freq, Lang, QuietWindow
from tasksvc_run.web.proof_models import ProofOut


class PersonOut(BaseModel):
    """An assignee, with their part of an each-mode task (in the any mode never done)."""

    id: str = PUBLIC_ID
    name: str | None
    done: bool
    done_at: datetime | None


class RecurrenceOut(BaseModel):
    """How a recurring task repeats (SPEC section 20)."""

    rule: str = Field(description="RFC 5545 RRULE, e.g. FREQ=WEEKLY;BYDAY=MO,TH; a season is its BYMONTH, and a "
                      "chore with two seasons has two RRULEs, one per line (SPEC section 41), e.g. "
                      "FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9\nFREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYMONTH=1,2,3,10,11,12")
    text: str = Field(description="In the reader's language, e.g. cada lunes y jueves, every Monday from April to "
                      "September, every 2 weeks the rest")
    rotation: list[str] = Field(description="Who takes turns, public ids (p_…) in order; empty when nobody does.")


class ItemOut(BaseModel):
    """An item of a task's checklist (SPEC section 41)."""

    n: int = Field(ge=1, le=20, description="Its number in the task, from 1 (what /t x 12.2 ticks).")
    text: str
    done: bool = Field(description="Ticked.")


class NagOut(BaseModel):
    """A task that nags its pending assignees once overdue (SPEC section 25)."""

    every_hours: int = Field(ge=1, le=168, description="Hours between two nags of one person.")


class TaskItem(BaseModel):
    """A task as every endpoint returns it; timestamps are ISO 8601 in UTC with Z."""

    id: int
    description: str
    due_date: date | None
    group_id: str | None
    group_name: str | None
    completion: Completion
    assignees: list[PersonOut]
    created_by: str | None = Field(description="Public id of who created it; null once they asked to be forgotten.")
    created_at: datetime
    completed: bool
    completed_at: datetime | None
    completed_by: str | None = Field(description="Public id of who completed it (an any task), else null.")
    recurrence: RecurrenceOut | None
    points: int = Field(ge=1, le=10, description="Effort, 1 to 10 (SPEC section 25); 1 unless set.")
    nag: NagOut | None = Field(None, description="Nagging (SPEC section 25): null when the task does not nag.")
    photo_required: bool = Field(False, description="Done only with a photo, once approved (SPEC section 34).")
    proof: ProofOut | None = Field(None, description="The photo kept for the task; null while none is.")
    items: list[ItemOut] = Field(default_factory=list, description="Its checklist, in order (SPEC section 41): up "
                                 "to 20 items; the task is done when every one is ticked.")


class CompletedTask(TaskItem):
    """The task completed; for a recurring one, the next occurrence the completion created."""

    next: TaskItem | None = Field(description="The occurrence created by this completion, else null.")


class TaskList(BaseModel):
    """One page of tasks."""

    model_config = ConfigDict(populate_by_name=True)

    items: list[TaskItem]
    page: int
    limit: int
    total: int
    has_more: bool = Field(alias="hasMore")


class GroupCounts(BaseModel):
    """Open and unassigned tasks of a group."""

    open: int
    unassigned: int


class GroupItem(BaseModel):
    """A group the user sees."""

    id: str
    name: str | None
    active: bool
    counts: GroupCounts


class GroupList(BaseModel):
    """The user's groups, by name."""

    items: list[GroupItem]


class PreferencesOut(BaseModel):
    """A reminder preference and the time zone its slots are in."""

    freq: Freq
    time: str = Field(pattern=r"^[0-9]{2}:[0-9]{2}$")
    tz: str = Field(description="The IANA zone in force for this user.")
    tz_source: Literal["user", "phone", "default"] = Field(
        description="user: chosen; phone: the phone number's country; default: TZ.")
    lang: Lang = Field(description="The language in force: chosen, else the phone number's country's, else "
                                   "DEFAULT_LANGUAGE.")
    quiet: QuietWindow | None = Field(description="Quiet hours in the zone tz; null when none.")
    away_until: date | None = Field(description="The last day away (YYYY-MM-DD); null when not away.")
