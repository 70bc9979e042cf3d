-- Acting from the conversation (SPEC 18) and shared tasks done by each (SPEC 19).
-- A task's completion mode: any (one completion closes it) or each (every assignee completes their part).
ALTER TABLE tasks ADD COLUMN completion TEXT NOT NULL DEFAULT 'any' CHECK (completion IN ('any', 'each'));
-- An assignee's part of an each-mode task: when they finished it (NULL: pending).
ALTER TABLE task_assignments ADD COLUMN done_at TIMESTAMP;
-- The task a queued text is about (NULL: none, or several); once sent, its message id is linked to the task.
ALTER TABLE outbound_queue ADD COLUMN task_id BIGINT;
-- Replies and reactions find their task through the message they quote or react to: the task's origin message...
CREATE INDEX ix_tasks_origin_message ON tasks (origin_message_id);
-- ...or a bot message about exactly one task, kept while the task is open plus REACTIONS_TTL_DAYS.
CREATE TABLE task_messages (
    message_id TEXT PRIMARY KEY,
    task_id BIGINT NOT NULL REFERENCES tasks (id) ON DELETE CASCADE,
    chat_id TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_task_messages_task ON task_messages (task_id);
