-- Missed chores, reviewed (SPEC section 41): a group's penalty in points for a missed occurrence of a recurring
-- chore, set by a group admin (0 turns it off: the row stays with points 0). ``since``: when it was last turned on;
-- only occurrences due on or after that day (in the group's zone) can count as missed.
CREATE TABLE group_penalties (
    group_id TEXT PRIMARY KEY REFERENCES groups (id) ON DELETE CASCADE,
    points INTEGER NOT NULL CHECK (points BETWEEN 0 AND 100),
    since TIMESTAMP NOT NULL,
    set_by TEXT REFERENCES users (id) ON DELETE SET NULL
);

-- One row per occurrence and person who missed it, found by the chores tick once (UNIQUE), at the penalty it had
-- then; it waits ('waiting') for a group admin to apply it (then it is deducted from the person's points in that
-- group) or excuse it (the reason optional).
CREATE TABLE missed_chores (
    id {{id}},
    task_id BIGINT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    group_id TEXT NOT NULL REFERENCES groups (id) ON DELETE CASCADE,
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    due_date TEXT NOT NULL,
    points INTEGER NOT NULL CHECK (points >= 1),
    state TEXT NOT NULL CHECK (state IN ('waiting', 'applied', 'excused')),
    found_at TIMESTAMP NOT NULL,
    decided_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    decided_at TIMESTAMP,
    reason TEXT,
    UNIQUE (task_id, user_id)
);
CREATE INDEX ix_missed_chores_group_state ON missed_chores (group_id, state);
CREATE INDEX ix_missed_chores_person ON missed_chores (user_id, group_id, state);

-- When the tick looked at an occurrence past its date (missed or not, it is looked at once); the index keeps the
-- tick's read to the open recurring occurrences not looked at yet.
ALTER TABLE tasks ADD COLUMN missed_at TIMESTAMP;
CREATE INDEX ix_tasks_missed ON tasks (completed, missed_at, due_date) WHERE recurrence_rule IS NOT NULL;

-- A display for the kitchen (SPEC section 41): one secret read-only address per group, stored as the SHA-256 hash
-- of its token; a new one replaces the hash (the old address stops working), revoking deletes the row.
CREATE TABLE display_links (
    group_id TEXT PRIMARY KEY REFERENCES groups (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    created_at TIMESTAMP NOT NULL
);
