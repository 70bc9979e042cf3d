-- Initial schema (SPEC section 3). Placeholders: {{id}} is the dialect's auto-increment integer primary key.
CREATE TABLE users (
    id TEXT PRIMARY KEY,
    display_name TEXT,
    created_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP
);

CREATE TABLE identity_aliases (
    alias TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_identity_aliases_user ON identity_aliases (user_id);

CREATE TABLE groups (
    id TEXT PRIMARY KEY,
    name TEXT,
    community_id TEXT,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    created_at TIMESTAMP NOT NULL,
    last_synced_at TIMESTAMP
);

CREATE TABLE allowed_groups (
    group_id TEXT PRIMARY KEY,
    status TEXT NOT NULL CHECK (status IN ('pending', 'allowed', 'blocked')),
    discovered_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    updated_by TEXT
);
CREATE INDEX ix_allowed_groups_status ON allowed_groups (status);

CREATE TABLE group_members (
    group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    is_admin BOOLEAN NOT NULL DEFAULT FALSE,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    first_seen_at TIMESTAMP NOT NULL,
    last_seen_at TIMESTAMP NOT NULL,
    inactive_since TIMESTAMP,
    PRIMARY KEY (group_id, user_id)
);
CREATE INDEX ix_group_members_user ON group_members (user_id, active, group_id);
CREATE INDEX ix_group_members_inactive ON group_members (inactive_since);

CREATE TABLE tasks (
    id {{id}},
    group_id TEXT REFERENCES groups (id),
    description TEXT NOT NULL,
    due_date TEXT,
    created_by TEXT NOT NULL REFERENCES users (id),
    created_at TIMESTAMP NOT NULL,
    completed BOOLEAN NOT NULL DEFAULT FALSE,
    completed_at TIMESTAMP,
    completed_by TEXT REFERENCES users (id),
    origin_chat_id TEXT,
    origin_message_id TEXT,
    origin_participant TEXT,
    origin_message_at TIMESTAMP
);
CREATE INDEX ix_tasks_group_open ON tasks (group_id, completed, due_date);
CREATE INDEX ix_tasks_personal_creator ON tasks (created_by, completed, due_date);
CREATE INDEX ix_tasks_completed_at ON tasks (completed_at);

CREATE TABLE task_assignments (
    task_id BIGINT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    assigned_at TIMESTAMP NOT NULL,
    assigned_by TEXT,
    PRIMARY KEY (task_id, user_id)
);
CREATE INDEX ix_task_assignments_user ON task_assignments (user_id, task_id);

CREATE TABLE user_preferences (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    freq TEXT NOT NULL CHECK (freq IN ('off', 'daily', 'weekly', 'weekdays')),
    time TEXT NOT NULL,
    updated_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_user_preferences_due ON user_preferences (time, freq);

CREATE TABLE web_tokens (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL,
    used_at TIMESTAMP
);
CREATE INDEX ix_web_tokens_expires ON web_tokens (expires_at);

CREATE TABLE web_sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP NOT NULL,
    expires_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_web_sessions_user ON web_sessions (user_id);
CREATE INDEX ix_web_sessions_expires ON web_sessions (expires_at);

CREATE TABLE outbound_queue (
    id {{id}},
    chat_id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('text', 'reaction')),
    payload TEXT NOT NULL,
    label TEXT,
    dedupe_key TEXT UNIQUE,
    status TEXT NOT NULL CHECK (status IN ('pending', 'sending', 'sent', 'failed')),
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    next_attempt_at TIMESTAMP NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMP,
    created_at TIMESTAMP NOT NULL,
    updated_at TIMESTAMP NOT NULL,
    sent_at TIMESTAMP,
    gateway_message_id TEXT,
    last_error TEXT
);
CREATE INDEX ix_outbound_queue_chat ON outbound_queue (chat_id, status, id);
CREATE INDEX ix_outbound_queue_due ON outbound_queue (status, next_attempt_at);

CREATE TABLE reminder_deliveries (
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    slot TEXT NOT NULL,
    outcome TEXT NOT NULL CHECK (outcome IN ('sent', 'empty', 'late')),
    recorded_at TIMESTAMP NOT NULL,
    PRIMARY KEY (user_id, slot)
);
CREATE INDEX ix_reminder_deliveries_recorded ON reminder_deliveries (recorded_at);

CREATE TABLE inbound_messages (
    instance TEXT NOT NULL,
    message_id TEXT NOT NULL,
    seen_at TIMESTAMP NOT NULL,
    PRIMARY KEY (instance, message_id)
);
CREATE INDEX ix_inbound_messages_seen ON inbound_messages (seen_at);

CREATE TABLE job_leases (
    name TEXT PRIMARY KEY,
    owner TEXT NOT NULL,
    lease_until TIMESTAMP NOT NULL
);

CREATE TABLE metric_counters (
    name TEXT NOT NULL,
    label TEXT NOT NULL DEFAULT '',
    value BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (name, label)
);
