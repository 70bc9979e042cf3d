"""The tables the bot keeps to deliver its messages (SPEC sections 25, 26 and 31): what it held inside someone's
quiet hours, the echoes of its sends, each message's delivery state, who wrote to it in private, people it cannot
reach and what waits for them, the reach-out guard, and the sends it started (the caps). ``storage.schema`` names
them with the others."""

from __future__ import annotations

from sqlalchemy import BigInteger, Column, ForeignKey, Integer, Table, Text

from taskcore.storage.metadata import TS, metadata

gateway_echoes = Table(  # SPEC section 26: the send.message echoes, a text fingerprint only
    "gateway_echoes", metadata, Column("message_id", Text, primary_key=True), Column("chat_id", Text, nullable=False),
    Column("digest", Text), Column("quoted_id", Text), Column("received_at", TS, nullable=False))

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
