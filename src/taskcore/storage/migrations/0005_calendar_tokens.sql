-- Calendar feeds and personal API tokens (SPEC section 22). Only SHA-256 hashes of the secrets are stored.
-- One feed per user: rotating it replaces the hash, revoking it deletes the row.
CREATE TABLE calendar_feeds (
    user_id TEXT PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL
);

-- Named tokens, many per user; revoking one deletes its row.
CREATE TABLE api_tokens (
    id {{id}},
    user_id TEXT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    created_at TIMESTAMP NOT NULL,
    last_used_at TIMESTAMP
);
CREATE INDEX ix_api_tokens_user ON api_tokens (user_id, id);
