"""Photo proof (SPEC section 34): what the approvals list shows of a photo that waits for someone's approval.

A placeholder of the rewards branch: the photo branch owns this module and replaces it with its own (same fields).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass(frozen=True, slots=True)
class PendingPhoto:
    """A task's photo waiting for approval: ``task_id`` is the number people use in the chat."""

    task_id: int
    group_id: str
    group_name: str
    description: str
    assignee_name: str
    at: datetime
