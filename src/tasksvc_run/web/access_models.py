"""Pydantic models of the calendar and API-token endpoints (SPEC section 22); documented like ``models.py``."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from pydantic import BaseModel, ConfigDict, Field, WithJsonSchema

from taskcore.services.tokens import MAX_TOKEN_NAME
from tasksvc_run.web.models import TEXT


class CalendarOut(BaseModel):
    """The secret address of the user's calendar feed; shown once, when it is made."""

    url: str = Field(description="<WEB_BASE_URL>/cal/<token>.ics; the previous address stops working.")


class TokenBody(BaseModel):
    """Body of POST /api/me/tokens."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    # Checked by taskcore (a Spanish 422 naming the field): its length as written, then not blank once cleaned.
    name: Annotated[str, WithJsonSchema({**TEXT, "maxLength": MAX_TOKEN_NAME})] = Field(
        description=f"1 to {MAX_TOKEN_NAME} characters of plain text.")


class TokenCreated(BaseModel):
    """A token just created: the only answer that ever shows ``token``."""

    id: int
    name: str
    token: str = Field(pattern=r"^tsk_[A-Za-z0-9_-]{43}$")
    created_at: datetime


class TokenItem(BaseModel):
    """A token as listed: never the secret."""

    id: int
    name: str
    created_at: datetime
    last_used_at: datetime | None


class TokenList(BaseModel):
    """The user's tokens, oldest first."""

    items: list[TokenItem]
