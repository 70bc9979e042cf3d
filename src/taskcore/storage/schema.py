"""SQLAlchemy Core tables, as the migrations leave the database (a test compares them)."""

from __future__ import annotations

from sqlalchemy import BigInteger, Boolean, Column, ForeignKey, Integer, MetaData, Table, Text

from taskcore.storage.utc import UtcDateTime, utc_from_db

__all__ = ["UtcDateTime", "metadata", "utc_from_db"]


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

# SPEC section 31: delivery states, people the bot cannot reach in private, the reach-out guard.
message_deliveries = Table(
    "message_deliveries", metadata, Column("message_id", Text, primary_key=True),
    Column("chat_id", Text, nullable=False), Column("status", Text, nullable=False), Column("error_code", Text),
    Column("updated_at", TS, nullable=False))

private_contacts = Table(
    "private_contacts", metadata,
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("last_at", TS, nullable=False), Column("jid", Text))

unreachable_people = Table(
    "unreachable_people", metadata,
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("since", TS), Column("message_id", Text), Column("told_at", TS))

unreachable_held = Table(
    "unreachable_held", metadata,
    Column("user_id", Text, ForeignKey("users.id", ondelete="CASCADE"), primary_key=True),
    Column("kind", Text, primary_key=True), Column("chat_id", Text, nullable=False),
    Column("text", Text, nullable=False), Column("label", Text), Column("held_at", TS, nullable=False))

reachout_locks = Table(
    "reachout_locks", metadata, Column("message_id", Text, primary_key=True), Column("user_id", Text, nullable=False),
    Column("locked_at", TS, nullable=False))

started_sends = Table(
    "started_sends", metadata, Column("job_id", BigInteger, primary_key=True, autoincrement=False),
    Column("chat_id", Text, nullable=False), Column("digest", Text), Column("started_at", TS, nullable=False))

sending_since = Table(
    "sending_since", metadata, Column("id", Integer, primary_key=True, autoincrement=False),
    Column("first_at", TS, nullable=False))

service_secrets = Table(  # SPEC section 32: the service's own keys, made once by the code
    "service_secrets", metadata, Column("name", Text, primary_key=True), Column("secret", Text, nullable=False),
    Column("created_at", TS, nullable=False))

bot_ids = Table(  # SPEC section 32: the bot's own ids, never a member
    "bot_ids", metadata, Column("user_id", Text, primary_key=True), Column("seen_at", TS, nullable=False))
