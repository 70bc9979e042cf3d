"""The JSON shape of a task's photo proof (SPEC section 34), as task items carry it
(``answer_models.TaskItem.proof``)."""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field


class ProofOut(BaseModel):
    """The photo kept for a task: where it opens, when it was kept, whether it is approved yet."""

    url: str = Field(description="A signed address that expires (about an hour): GET it with a session or token of a "
                                 "member of the task's group to get the image (JPEG, PNG or WebP).")
    at: datetime = Field(description="When the photo was kept (UTC).")
    state: Literal["waiting", "approved"] = Field(description="waiting: for the approval of the task's creator or a "
                                                              "group admin; approved: the task is done.")


class ProofQuery(BaseModel):
    """Query of GET /api/tasks/{id}/proof: the signed address's expiry and signature, as the task item gives them."""

    exp: int = Field(ge=0, le=2**40, description="When the address expires (unix seconds).")
    sig: str = Field(pattern=r"^[0-9a-f]{64}$", description="Its signature (hex).")
