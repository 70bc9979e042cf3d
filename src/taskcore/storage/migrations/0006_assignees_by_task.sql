-- The assignees of a page of tasks (GET /api/me/tasks, issue 20): by task, in assignment order, with each part's
-- done_at, read from the index alone (no table row per assignee, no sort).
CREATE INDEX ix_task_assignments_task_order ON task_assignments (task_id, assigned_at, user_id, done_at);
