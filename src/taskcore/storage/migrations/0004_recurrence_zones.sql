-- Recurring tasks (SPEC section 20) and each person's time zone (SPEC section 21).
-- A task of a series carries its rule (the pinned RRULE and its Spanish reading) and, when the people take turns,
-- their ids in turn order (space-separated) with the index of the one whose turn this occurrence is.
ALTER TABLE tasks ADD COLUMN recurrence_rule TEXT;
ALTER TABLE tasks ADD COLUMN recurrence_text TEXT;
ALTER TABLE tasks ADD COLUMN rotation_people TEXT;
ALTER TABLE tasks ADD COLUMN rotation_turn INTEGER;

-- tz: the zone the user chose (NULL: their number's country, else TZ). next_due_at: the instant (UTC) from which
-- the reminder tick looks at the row again; NULL when reminders are off. The saved rows are looked at by the first
-- tick (the epoch), which plans each in its user's zone.
ALTER TABLE user_preferences ADD COLUMN tz TEXT;
ALTER TABLE user_preferences ADD COLUMN next_due_at TIMESTAMP;
UPDATE user_preferences SET next_due_at = '1970-01-01 00:00:00.000000' WHERE freq <> 'off';
CREATE INDEX ix_user_preferences_next_due ON user_preferences (next_due_at);
DROP INDEX ix_user_preferences_due;
