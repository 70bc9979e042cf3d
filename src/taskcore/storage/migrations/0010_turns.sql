-- Missed turns (SPEC section 25): the scheduler reads the open rotation occurrences past their date that have not
-- passed on yet; this index keeps that read to them.
CREATE INDEX ix_tasks_late_turns ON tasks (completed, turn_passed_at, due_date) WHERE rotation_people IS NOT NULL;
