"""The API's answers about itself: problem details (RFC 9457) and the OpenAPI document's own model."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class FieldError(BaseModel):
    """One invalid field."""

    field: str
    message: str


class Problem(BaseModel):
    """RFC 9457 problem details."""

    type: str
    title: str
    status: int
    detail: str
    errors: list[FieldError] | None = None


class OpenApiDocument(BaseModel):
    """This document."""

    model_config = ConfigDict(extra="allow")

    openapi: str
