"""SQLAlchemy Core tables, as the migrations leave the database (a test compares them): people, groups, tasks and
the web's here; what the bot keeps to deliver its messages (quiet hours, echoes, delivery states) in
``storage.delivery_schema``, named here too, so that every table is ``schema.<name>`` and on ``metadata``."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, ForeignKey, Integer, Table, Text

from taskcore.storage.delivery_schema import (
    gateway_echoes,
    held_messages,
    message_deliveries,
    private_contacts,
    reachout_locks,
    sending_since,
    started_sends,
    unreachable_held,
    unreachable_people,
)
from taskcore.storage.metadata import TS, metadata
from taskcore.storage.utc import UtcDateTime, utc_from_db

__all__ = ["UtcDateTime", "gateway_echoes", "held_messages", "message_deliveries", "metadata", "private_contacts",
           "reachout_locks", "sending_since", "started_sends", "unreachable_held", "unreachable_people",
           "utc_from_db"]

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
    Column("addressing", Text),  # SPEC section 31: 'lid', 'pn' or unknown
    Column("time_zone", Text),  # SPEC section 30
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
    Column("points_held_at", TS),  # SPEC section 38: its self-made points wait for someone else's approval since
    Column("missed_at", TS),  # SPEC section 41: when the tick looked at it past its date
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

list_stamps = Table(  # SPEC section 42: moved by the database's triggers on every write that changes a person's list
    "list_stamps",
    metadata,
    Column("user_id", Text, primary_key=True),
    Column("stamp", BigInteger, nullable=False),
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
    Column("quiet_from", Text), Column("quiet_to", Text), Column("away_until", Text),
    Column("zone_told_at", TS),  # SPEC section 30
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
    Column("gateway", Text, nullable=False, server_default="evolution"),  # whose decoder reads it (SPEC 36)
)

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

service_secrets = Table(  # SPEC section 32: the service's own keys, made once by the code
    "service_secrets", metadata, Column("name", Text, primary_key=True), Column("secret", Text, nullable=False),
    Column("created_at", TS, nullable=False))

bot_ids = Table(  # SPEC section 32: the bot's own ids, never a member
    "bot_ids", metadata, Column("user_id", Text, primary_key=True), Column("seen_at", TS, nullable=False))
