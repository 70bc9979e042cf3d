"""SQLAlchemy Core tables, as the migrations leave the database (a test compares them)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, overload

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Dialect,
    ForeignKey,
    Integer,
    MetaData,
    Table,
    Text,
    TypeDecorator,
)

from taskcore.storage.utc import default_sqlite_datetime, sqlite_text


class UtcDateTime(TypeDecorator[datetime]):
    """Aware datetimes in, stored as naive UTC, aware UTC out (same on SQLite and PostgreSQL)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        """Convert an aware value to naive UTC; refuse naive values, which are ambiguous."""
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to a UTC column")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        """Attach UTC to the stored naive value."""
        stamp: datetime | None = utc_from_db(value)
        return stamp

    def bind_processor(self, dialect: Dialect) -> Callable[[datetime | None], Any] | None:
        """SQLite's in one step (``utc.sqlite_text``), else SQLAlchemy's two: a tick binds thousands."""
        fused = default_sqlite_datetime(self.impl_instance, dialect)
        return sqlite_text if fused else super().bind_processor(dialect)

    def result_processor(self, dialect: Dialect, coltype: Any) -> Callable[[Any], datetime | None] | None:
        """SQLite's in one parse where the text is ``utc.sqlite_text``'s (``YYYY-MM-DD HH:MM:SS.ffffff``: no room
        for an offset), else ``utc_from_db``, which reads it as SQLAlchemy's DATETIME does; else SQLAlchemy's two."""
        if not default_sqlite_datetime(self.impl_instance, dialect):
            return super().result_processor(dialect, coltype)

        def process(value: str | datetime | None) -> datetime | None:
            if isinstance(value, str) and len(value) == 26 and value[19] == ".":
                return datetime.fromisoformat(value + "+00:00")
            return utc_from_db(value)

        return process


@overload
def utc_from_db(value: None) -> None: ...


@overload
def utc_from_db(value: str | datetime) -> datetime: ...


def utc_from_db(value: str | datetime | None) -> datetime | None:
    """A stored timestamp as the driver returns it (SQLite: text, PostgreSQL: a naive datetime) to aware UTC."""
    if value is None:
        return None
    stamp: datetime = datetime.fromisoformat(value) if isinstance(value, str) else value
    return stamp.replace(tzinfo=UTC) if stamp.tzinfo is None else stamp.astimezone(UTC)


metadata = MetaData()
TS = UtcDateTime

users = Table(
    "users",
    metadata,
    Column("id", Text, primary_key=True),
    Column("display_name", Text),
    Column("created_at", TS, nullable=False),
    Column("last_seen_at", TS),
)

identity_aliases = Table(
    "identity_aliases",
    metadata,
    Column("alias", Text, primary_key=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", TS, nullable=False),
)

groups = Table(
    "groups",
    metadata,
    Column("id", Text, primary_key=True),
    Column("name", Text),
    Column("community_id", Text),
    Column("active", Boolean, nullable=False, default=True),
    Column("created_at", TS, nullable=False),
    Column("last_synced_at", TS),
    Column("lang", Text),
    Column("summary_weekday", Integer),
    Column("summary_time", Text),
    Column("summary_next_at", TS, index=True),
)

allowed_groups = Table(
    "allowed_groups",
    metadata,
    Column("group_id", Text, primary_key=True),
    Column("status", Text, nullable=False),
    Column("discovered_at", TS, nullable=False),
    Column("updated_at", TS, nullable=False),
    Column("updated_by", Text),
)

group_members = Table(
    "group_members",
    metadata,
    Column("group_id", Text, ForeignKey("groups.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("is_admin", Boolean, nullable=False, default=False),
    Column("active", Boolean, nullable=False, default=True),
    Column("first_seen_at", TS, nullable=False),
    Column("last_seen_at", TS, nullable=False),
    Column("inactive_since", TS),
)

tasks = Table(
    "tasks",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("group_id", Text, ForeignKey("groups.id")),
    Column("description", Text, nullable=False),
    Column("due_date", Text),
    Column("created_by", Text, ForeignKey("users.id"), nullable=False),
    Column("created_at", TS, nullable=False),
    Column("completed", Boolean, nullable=False, default=False),
    Column("completed_at", TS),
    Column("completed_by", Text, ForeignKey("users.id")),
    Column("origin_chat_id", Text),
    Column("origin_message_id", Text),
    Column("origin_participant", Text),
    Column("origin_message_at", TS),
    Column("completion", Text, nullable=False, default="any"),
    Column("recurrence_rule", Text),
    Column("recurrence_text", Text),
    Column("rotation_people", Text),
    Column("rotation_turn", Integer),
    Column("points", Integer, nullable=False, server_default="1"),
    Column("nag_every_hours", Integer),
    Column("nag_escalated_at", TS),
    Column("turn_passed_at", TS),
)

task_assignments = Table(
    "task_assignments",
    metadata,
    Column("task_id", BigInteger, ForeignKey("tasks.id", ondelete="CASCADE"), primary_key=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("assigned_at", TS, nullable=False),
    Column("assigned_by", Text),
    Column("done_at", TS),
    Column("nag_count", Integer, nullable=False, server_default="0"),
    Column("nag_last_at", TS),
    Column("nag_next_at", TS, index=True),
)

user_preferences = Table(
    "user_preferences",
    metadata,
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("freq", Text, nullable=False),
    Column("time", Text, nullable=False),
    Column("updated_at", TS, nullable=False),
    Column("tz", Text),
    Column("next_due_at", TS),
    Column("lang", Text),
    Column("quiet_from", Text),
    Column("quiet_to", Text),
    Column("away_until", Text),
)

web_tokens = Table(
    "web_tokens",
    metadata,
    Column("token_hash", Text, primary_key=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", TS, nullable=False),
    Column("expires_at", TS, nullable=False),
    Column("used_at", TS),
)

web_sessions = Table(
    "web_sessions",
    metadata,
    Column("id_hash", Text, primary_key=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", TS, nullable=False),
    Column("last_used_at", TS, nullable=False),
    Column("expires_at", TS, nullable=False),
)

outbound_queue = Table(
    "outbound_queue",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("chat_id", Text, nullable=False),
    Column("kind", Text, nullable=False),
    Column("payload", Text, nullable=False),
    Column("label", Text),
    Column("dedupe_key", Text, unique=True),
    Column("status", Text, nullable=False),
    Column("attempts", Integer, nullable=False, default=0),
    Column("max_attempts", Integer, nullable=False),
    Column("next_attempt_at", TS, nullable=False),
    Column("lease_owner", Text),
    Column("lease_until", TS),
    Column("created_at", TS, nullable=False),
    Column("updated_at", TS, nullable=False),
    Column("sent_at", TS),
    Column("gateway_message_id", Text),
    Column("last_error", Text),
    Column("task_id", BigInteger),
)

reminder_deliveries = Table(
    "reminder_deliveries",
    metadata,
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("slot", Text, primary_key=True),
    Column("outcome", Text, nullable=False),
    Column("recorded_at", TS, nullable=False),
)

task_messages = Table(
    "task_messages",
    metadata,
    Column("message_id", Text, primary_key=True),
    Column("task_id", BigInteger, ForeignKey("tasks.id", ondelete="CASCADE"), nullable=False),
    Column("chat_id", Text, nullable=False),
    Column("created_at", TS, nullable=False),
)

inbound_messages = Table(
    "inbound_messages",
    metadata,
    Column("instance", Text, primary_key=True),
    Column("message_id", Text, primary_key=True),
    Column("seen_at", TS, nullable=False),
)

job_leases = Table(
    "job_leases",
    metadata,
    Column("name", Text, primary_key=True),
    Column("owner", Text, nullable=False),
    Column("lease_until", TS, nullable=False),
)

metric_counters = Table(
    "metric_counters",
    metadata,
    Column("name", Text, primary_key=True),
    Column("label", Text, primary_key=True, default=""),
    Column("value", BigInteger, nullable=False, default=0),
)

inbox = Table(
    "inbox",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("chat_key", Text, nullable=False),
    Column("event", Text),
    Column("path_event", Text),
    Column("payload", Text, nullable=False),
    Column("status", Text, nullable=False),
    Column("received_at", TS, nullable=False),
    Column("done_at", TS),
    Column("last_error", Text),
)

gateway_echoes = Table(  # SPEC section 26: the send.message echoes, a text fingerprint only
    "gateway_echoes", metadata, Column("message_id", Text, primary_key=True), Column("chat_id", Text, nullable=False),
    Column("digest", Text), Column("quoted_id", Text), Column("received_at", TS, nullable=False))

calendar_feeds = Table(
    "calendar_feeds",
    metadata,
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("token_hash", Text, nullable=False, unique=True),
    Column("created_at", TS, nullable=False),
)

api_tokens = Table(
    "api_tokens",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("name", Text, nullable=False),
    Column("token_hash", Text, nullable=False, unique=True),
    Column("created_at", TS, nullable=False),
    Column("last_used_at", TS),
)

held_messages = Table(  # SPEC section 25: what the bot started for a person inside their quiet hours
    "held_messages",
    metadata,
    Column("id", BigInteger().with_variant(Integer, "sqlite"), primary_key=True, autoincrement=True),
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), nullable=False),
    Column("chat_id", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("label", Text),
    Column("dedupe_key", Text, unique=True),
    Column("held_at", TS, nullable=False),
    Column("release_at", TS, nullable=False),
)
