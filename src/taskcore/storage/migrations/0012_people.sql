-- A person is not a phone number (SPEC section 32).
-- The service's own secrets, made once by the code (random, never in a migration): 'public_ids' is the key of the
-- keyed hash that names people by public id.
CREATE TABLE service_secrets (
    name TEXT PRIMARY KEY,
    secret TEXT NOT NULL,
    created_at TIMESTAMP NOT NULL
);

-- The bot's own ids (its phone number's digits and its LID's), as the gateway's events name them: never a member,
-- never assignable, never counted.
CREATE TABLE bot_ids (
    user_id TEXT PRIMARY KEY,
    seen_at TIMESTAMP NOT NULL
);

-- How a group addresses its members, as the gateway reports it (addressingMode): 'lid', 'pn', or NULL while unknown.
-- A mention in a LID group names the person's LID, never the phone number WhatsApp hides there (SPEC section 31).
ALTER TABLE groups ADD COLUMN addressing TEXT;
