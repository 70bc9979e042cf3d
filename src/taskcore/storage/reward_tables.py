"""The rewards' tables (SPEC section 34, migration 0016) on the schema's metadata: ``storage.schema`` is full, and
``taskcore.storage`` imports this module so that the metadata always holds them."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, Table, Text

from taskcore.storage.metadata import TS, metadata

rewards = Table(
    "rewards", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("group_id", Text, ForeignKey("groups.id", ondelete="CASCADE"), nullable=False),
    Column("name", Text, nullable=False),
    Column("points", Integer, nullable=False),
    Column("created_by", Text, ForeignKey("users.id", ondelete="SET NULL")),
    Column("created_at", TS, nullable=False),
    Column("deleted_at", TS),
)

reward_requests = Table(
    "reward_requests", metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("reward_id", BigInteger, ForeignKey("rewards.id", ondelete="CASCADE"), nullable=False),
    Column("group_id", Text, ForeignKey("groups.id", ondelete="CASCADE"), nullable=False),
    Column("requester", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("points", Integer, nullable=False),
    Column("state", Text, nullable=False),
    Column("requested_at", TS, nullable=False),
    Column("decided_by", Text, ForeignKey("users.id", ondelete="SET NULL")),
    Column("decided_at", TS),
    Column("reason", Text),
)
