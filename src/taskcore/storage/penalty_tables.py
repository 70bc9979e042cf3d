"""The tables of missed chores and the kitchen display (SPEC section 41, migration 0021) on the schema's metadata
(``schema.py`` is full)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, Table, Text, UniqueConstraint

from taskcore.storage.metadata import TS, metadata

__all__ = ["display_links", "group_penalties", "missed_chores"]

group_penalties = Table(
    "group_penalties", metadata,
    Column("group_id", Text, ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True),
    Column("points", Integer, nullable=False),
    Column("since", TS, nullable=False),
    Column("set_by", Text, ForeignKey("users.id", ondelete="SET NULL")),
)

missed_chores = Table(
    "missed_chores", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("task_id", BigInteger, ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False),
    Column("group_id", Text, ForeignKey("groups.id", ondelete="CASCADE"), nullable=False),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("due_date", Text, nullable=False),
    Column("points", Integer, nullable=False),
    Column("state", Text, nullable=False),  # waiting | applied | excused (chores.missed.MissedState)
    Column("found_at", TS, nullable=False),
    Column("decided_by", Text, ForeignKey("users.id", ondelete="SET NULL")),
    Column("decided_at", TS),
    Column("reason", Text),
    UniqueConstraint("task_id", "user_id"),
)

display_links = Table(
    "display_links", metadata,
    Column("group_id", Text, ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True),
    Column("token_hash", Text, nullable=False, unique=True),
    Column("created_by", Text, ForeignKey("users.id", ondelete="SET NULL")),
    Column("created_at", TS, nullable=False),
)
