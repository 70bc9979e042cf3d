-- Every message arrives (SPEC section 31).
-- The last status the gateway reported (messages.update) of each message the bot sent, by its key id.
CREATE TABLE message_deliveries (
    message_id TEXT PRIMARY KEY,
    chat_id TEXT NOT NULL,
    status TEXT NOT NULL,
    error_code TEXT,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_message_deliveries_updated ON message_deliveries (updated_at);
-- Who wrote to the bot in private, when last, and from which address (a direct message to anyone else is a cold
-- one; a person known only by a LID is written to at the LID they wrote from).
CREATE TABLE private_contacts (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    last_at TIMESTAMP NOT NULL,
    jid TEXT
);
-- People a direct message could not reach (since: NULL once they wrote in private again; told_at: the last group
-- note, at most one a week).
CREATE TABLE unreachable_people (
    user_id TEXT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
    since TIMESTAMP,
    message_id TEXT,
    told_at TIMESTAMP
);
CREATE INDEX ix_unreachable_people_since ON unreachable_people (since);
-- What was held for an unreachable person: their last reminder digest, a pending nag per task (kind).
CREATE TABLE unreachable_held (
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    kind TEXT NOT NULL,
    chat_id TEXT NOT NULL,
    text TEXT NOT NULL,
    label TEXT,
    held_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, kind)
);
-- Each 463 on a cold direct message (the reach-out guard's pause runs from the latest).
CREATE TABLE reachout_locks (
    message_id TEXT PRIMARY KEY,
    user_id TEXT NOT NULL,
    locked_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_reachout_locks_at ON reachout_locks (locked_at);
-- What the bot started itself (reminders, nags, notices, summaries...) as it went out, for the hourly and daily caps
-- and the identical-text cap (digest: a fingerprint of the text); rows older than a day are deleted.
CREATE TABLE started_sends (
    job_id BIGINT PRIMARY KEY,
    chat_id TEXT NOT NULL,
    digest TEXT,
    started_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_started_sends_at ON started_sends (started_at);
CREATE INDEX ix_started_sends_digest ON started_sends (digest, started_at);
-- The first send the database recorded (the warm-up of a new number counts its days from it).
CREATE TABLE sending_since (
    id INTEGER PRIMARY KEY,
    first_at TIMESTAMP NOT NULL
);
