"""Pydantic models of what the JSON API reads: query strings and bodies (SPEC section 6). They parse; taskcore
still validates (descriptions, times). What it answers is documented by ``answer_models``.
"""

from __future__ import annotations

from datetime import date
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, WithJsonSchema, field_validator

from taskcore.config_types import LanguageCode
from taskcore.dates import parse_iso_date
from taskcore.errors import InvalidDate
from taskcore.services.task_lists import MyTasksQuery
from taskcore.text import VISIBLE_CHARACTER
from taskcore.words.read import time_of_day
from taskcore.zones import known_zone_names
from tasksvc_run.i18n import N_

MAX_PAGE = 1_000_000
MAX_SOON_DAYS = 36_500  # a hundred years: beyond it today + N would leave the calendar
PUBLIC_ID = Field(pattern=r"^p_[a-z2-7]{24}$", description="Public id (SPEC 32): never a phone number.")
_TRUE, _FALSE = frozenset({"true", "1"}), frozenset({"false", "0"})


def _iso_date(value: object) -> date:
    if not isinstance(value, str):
        raise ValueError(N_("debe ser una fecha AAAA-MM-DD"))
    try:
        return parse_iso_date(value)
    except InvalidDate as exc:
        raise ValueError(N_("debe ser una fecha válida AAAA-MM-DD")) from exc


def _query_bool(value: object) -> bool:
    if isinstance(value, bool):
        return value
    word = str(value).strip().lower()
    if word not in _TRUE | _FALSE:
        raise ValueError(N_("debe ser true, false, 1 o 0"))
    return word in _TRUE


def _clamp(low: int, high: int) -> AfterValidator:
    return AfterValidator(lambda number: max(low, min(number, high)))


IsoDate = Annotated[date, BeforeValidator(_iso_date), WithJsonSchema({"type": "string", "format": "date"})]
QueryBool = Annotated[bool, BeforeValidator(_query_bool), WithJsonSchema({"type": "boolean"})]
Freq = Literal["off", "daily", "weekly", "weekdays"]
Completion = Literal["any", "each"]
Lang = LanguageCode


class MyTasksParams(BaseModel):
    """Query of GET /api/me/tasks."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    status: Literal["open", "recent"] = "open"
    search: str | None = Field(None, description="Contained in the description (LIKE, ASCII case ignored).")
    due_before: IsoDate | None = Field(None, alias="dueBefore", description="Due on or before this date.")
    soon_days: int | None = Field(None, alias="soonDays", ge=0, le=MAX_SOON_DAYS,
                                  description="Due on or before today + N days (overdue included).")
    page: Annotated[int, _clamp(1, MAX_PAGE)] = Field(1, description="1-based; clamped to 1..1000000.")
    limit: Annotated[int, _clamp(1, 100)] = Field(20, description="Clamped to 1..100.")

    def to_query(self) -> MyTasksQuery:
        """The use case's query."""
        return MyTasksQuery(status=self.status, search=self.search, due_before=self.due_before,
                            soon_days=self.soon_days, page=self.page, limit=self.limit)


class GroupTasksParams(BaseModel):
    """Query of GET /api/groups/{id}/tasks."""

    model_config = ConfigDict(frozen=True, extra="ignore")

    unassigned_first: QueryBool = Field(False, alias="unassignedFirst", description="true, false, 1 or 0.")
    only_unassigned: QueryBool = Field(False, alias="onlyUnassigned", description="true, false, 1 or 0.")
    limit: Annotated[int, _clamp(1, 100)] = Field(50, description="Clamped to 1..100.")


def _no_default(schema: dict[str, Any]) -> None:
    schema.pop("default", None)  # absent means unchanged


# What the server accepts, declared for clients and for tools that generate requests from the document (SPEC 28):
# taskcore still validates, with its own Spanish messages.
TEXT = {"type": "string", "minLength": 1, "pattern": VISIBLE_CHARACTER}  # not blank once sanitised
POINTS = {"type": "integer", "minimum": 1, "maximum": 10}


def _not_text_nor_bool(value: Any) -> Any:
    if isinstance(value, bool | str):  # JSON's true and "3" are not integers; 3.0 is (as JSON Schema counts them)
        raise ValueError(N_("debe ser un número entero"))
    return value


WholeNumber = Annotated[int, BeforeValidator(_not_text_nor_bool)]
MAX_TIME_WORDS = 40  # a time of day as people write it is short: ``a las 8 de la noche`` is far below


def _time_words(value: str) -> str:
    """A time of day as people write it (``18:30``, ``18h``, ``6:30 pm``, ``às 18h``, ``a las 8``: the chat's one
    reader, SPEC section 39) -> ``HH:MM``."""
    at = time_of_day(value)
    if at is None:
        raise ValueError(N_("debe ser una hora, como 18:30, 18h, 6:30 pm o a las 18"))
    return f"{at:%H:%M}"


TimeWords = Annotated[str, Field(min_length=1, max_length=MAX_TIME_WORDS), AfterValidator(_time_words)]
"""A time of day as the chat reads it, stored and answered as ``HH:MM``."""


def _zone_schema(schema: dict[str, Any]) -> None:
    schema.pop("default", None)
    schema["anyOf"] = [{"type": "string", "minLength": 1, "maxLength": 64}, {"type": "null"}]
    schema["examples"] = ["America/Bogota", "Tijuana", known_zone_names()[0]]


class QuietWindow(BaseModel):
    """Quiet hours (SPEC section 25): local HH:MM, ``from`` included, ``to`` excluded; may cross midnight."""

    model_config = ConfigDict(frozen=True, extra="forbid", populate_by_name=True)

    start: TimeWords = Field(alias="from", description="A time of day in the user's zone, as the chat reads it "
                                                        "(23:00, 23h, 11 pm, a las 23); answered as HH:MM, 24 h.")
    end: TimeWords = Field(alias="to", description="A time of day as the chat reads it; not the same as from.")


class PreferencesBody(BaseModel):
    """Body of POST /api/me/preferences; an absent (or null) time keeps the saved one; an absent tz keeps the zone,
    a null one goes back to the default (the phone number's country, else TZ)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    freq: Freq
    time: Annotated[TimeWords | None, WithJsonSchema({"anyOf": [
        {"type": "string", "minLength": 1, "maxLength": MAX_TIME_WORDS}, {"type": "null"}]})] = Field(
        None, description="A time of day as the chat reads it (8:30, 8h30, 8:30 am, 20h, às 20h, a las 8); "
                          "answered as HH:MM, 24 h.")
    tz: str | None = Field(None, max_length=64, description="An IANA time zone (any case is accepted), e.g. "
                                                            "America/Bogota, or a city's name as /t zona takes it "
                                                            "(Tijuana, Ciudad de México, Córdoba, AR); null: the "
                                                            "default.", json_schema_extra=_zone_schema)
    lang: Lang | None = Field(None, description="The language of the bot's messages and the pages (its code); "
                                                "null forgets the choice (the phone number's country's, else "
                                                "DEFAULT_LANGUAGE); absent keeps it.", json_schema_extra=_no_default)
    quiet: QuietWindow | None = Field(None, description="Quiet hours: what the bot starts for you inside them waits, "
                                                        "merged, until they end; null removes them; absent keeps "
                                                        "them.", json_schema_extra=_no_default)
    away_until: IsoDate | None = Field(None, description="YYYY-MM-DD, today or later: no reminders or nags through "
                                                         "that date and rotations skip you; null: back; absent "
                                                         "keeps it.", json_schema_extra=_no_default)


class NagIn(BaseModel):
    """Nagging asked of a task (SPEC section 25): a direct message to each pending assignee every N hours once the
    task is overdue."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    every_hours: WholeNumber = Field(ge=1, le=168, description="Hours between two nags of one person, 1 to "
                                                                     "168 (one week).")


class TaskPatch(BaseModel):
    """Body of PATCH /api/tasks/{id}; absent keys stay unchanged, a null due_date clears it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    due_date: IsoDate | None = Field(None, description="YYYY-MM-DD; null clears it.", json_schema_extra=_no_default)
    description: Annotated[str | None, WithJsonSchema(TEXT)] = Field(
        None, description="Plain text, 1 to 1000 characters after sanitising.", json_schema_extra=_no_default)
    completion: Annotated[Completion | None, WithJsonSchema({"type": "string", "enum": ["any", "each"]})] = Field(
        None, description="any: one completion closes the task; each: every assignee completes their part "
                          "(group tasks only).", json_schema_extra=_no_default)
    recurrence: None = Field(None, description="null ends the series: no occurrence follows this one.",
                             json_schema_extra=_no_default)
    points: Annotated[WholeNumber | None, WithJsonSchema(POINTS)] = Field(
        None, ge=1, le=10, description="Effort, 1 to 10 (SPEC section 25).", json_schema_extra=_no_default)
    nag: NagIn | None = Field(None, description="Nag every N hours once overdue (a group task with a due date: "
                                                "else 403); null stops it.", json_schema_extra=_no_default)

    @field_validator("description", mode="before")
    @classmethod
    def _description_not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError(N_("debe ser texto"))
        return value

    @field_validator("completion", mode="before")
    @classmethod
    def _completion_not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError(N_("debe ser any o each"))
        return value

    @field_validator("points", mode="before")
    @classmethod
    def _points_not_null(cls, value: Any) -> Any:
        if value is None:
            raise ValueError(N_("debe ser un número entero del 1 al 10"))
        return value

    @field_validator("recurrence", mode="before")
    @classmethod
    def _only_null(cls, value: Any) -> Any:
        if value is not None:
            raise ValueError(N_("solo admite null (terminar la serie); las reglas se crean desde el chat"))
        return value
