-- SPEC section 30: the first reply that used a person's zone for a date or a time named it once; when it did.
ALTER TABLE user_preferences ADD COLUMN zone_told_at TIMESTAMP;
