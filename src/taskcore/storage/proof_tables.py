"""The tables of photo proof (SPEC section 34, migration 0015) on the schema's metadata (``schema.py`` is full)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import BigInteger, Boolean, Column, ForeignKey, Integer, Table, Text

from taskcore.chores.proof import Proof, ProofState
from taskcore.storage.schema import UtcDateTime, metadata, utc_from_db

__all__ = ["PROOF_COLUMNS", "proof_of_row", "task_proofs"]

task_proofs = Table(
    "task_proofs",
    metadata,
    Column("task_id", BigInteger, ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("required", Boolean, nullable=False),
    Column("state", Text),  # None | fetching | waiting | approved (chores.proof.ProofState)
    Column("sent_by", Text, ForeignKey("users.id", ondelete="SET NULL")),
    Column("chat_id", Text),
    Column("message_id", Text, index=True),
    Column("participant", Text),
    Column("caption", Text),
    Column("media", Text),  # the photo's message as received (key and message), while it is being fetched
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("next_at", UtcDateTime, index=True),
    Column("file_name", Text),
    Column("received_at", UtcDateTime),
    Column("kept_at", UtcDateTime),
    Column("approved_at", UtcDateTime, index=True),
)

_KEPT = (ProofState.WAITING.value, ProofState.APPROVED.value)
PROOF_COLUMNS: tuple[Any, ...] = (
    task_proofs.c.required.label("photo_required"),  # NULL (no row): no photo needed
    task_proofs.c.state.label("proof_state"),
    task_proofs.c.kept_at.label("proof_at"),
    task_proofs.c.file_name.label("proof_file"),
)
"""What a task item shows of its photo proof, read with the task (an outer join on ``task_proofs``)."""


def proof_of_row(state: str | None, at: datetime | str | None, file_name: str | None) -> Proof | None:
    """The photo kept for a task (waiting or approved, with its file), None while none is."""
    if state not in _KEPT or at is None or not file_name:
        return None
    return Proof(ProofState(state), utc_from_db(at), file_name)
