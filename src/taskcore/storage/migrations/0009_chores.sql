-- Chores that run themselves (SPEC section 25).
-- Quiet hours (local HH:MM, both or neither) and away (through that date) per person.
ALTER TABLE user_preferences ADD COLUMN quiet_from TEXT;
ALTER TABLE user_preferences ADD COLUMN quiet_to TEXT;
ALTER TABLE user_preferences ADD COLUMN away_until TEXT;
-- Effort: points per task (1-10). Nagging: the interval, NULL when the task does not nag; the one group notice.
-- Missed turns: when the occurrence's turn passed on by itself (once).
ALTER TABLE tasks ADD COLUMN points INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tasks ADD COLUMN nag_every_hours INTEGER;
ALTER TABLE tasks ADD COLUMN nag_escalated_at TIMESTAMP;
ALTER TABLE tasks ADD COLUMN turn_passed_at TIMESTAMP;
-- Each assignee's nags: how many were sent, the last one, and when the next is due (the scheduler's index).
ALTER TABLE task_assignments ADD COLUMN nag_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE task_assignments ADD COLUMN nag_last_at TIMESTAMP;
ALTER TABLE task_assignments ADD COLUMN nag_next_at TIMESTAMP;
CREATE INDEX ix_task_assignments_nag_next ON task_assignments (nag_next_at);
-- The weekly summary of a group: weekday (0 = Monday), local HH:MM, and the next instant it is due (the index).
ALTER TABLE groups ADD COLUMN summary_weekday INTEGER;
ALTER TABLE groups ADD COLUMN summary_time TEXT;
ALTER TABLE groups ADD COLUMN summary_next_at TIMESTAMP;
CREATE INDEX ix_groups_summary_next ON groups (summary_next_at);
-- Messages the bot started for a person during their quiet hours, held until the window ends and then sent merged
-- into one message (release_at: the scheduler's index).
CREATE TABLE held_messages (
    id {{id}},
    user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
    chat_id TEXT NOT NULL,
    text TEXT NOT NULL,
    label TEXT,
    dedupe_key TEXT UNIQUE,
    held_at TIMESTAMP NOT NULL,
    release_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_held_messages_release ON held_messages (release_at, user_id);
