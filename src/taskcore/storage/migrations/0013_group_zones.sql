-- A group's time zone (SPEC section 30): NULL until a member chooses it with /t zona in the group, or until the
-- weekly summary is set there (then the zone of the person who set it); what the group schedules runs in it.
ALTER TABLE groups ADD COLUMN time_zone TEXT;
