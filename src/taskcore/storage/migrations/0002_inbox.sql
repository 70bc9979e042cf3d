-- The durable inbox of webhook events (SPEC section 17): /webhook stores each event here and answers 2xx only once
-- the row is committed; the processor handles pending rows in id order per chat key and marks each done (or failed,
-- for a bug) in the transaction of its effects. Done rows are deleted by the daily maintenance.
CREATE TABLE inbox (
    id {{id}},
    chat_key TEXT NOT NULL,
    event TEXT,
    path_event TEXT,
    payload TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'done', 'failed')),
    received_at TIMESTAMP NOT NULL,
    done_at TIMESTAMP,
    last_error TEXT
);
CREATE INDEX ix_inbox_status ON inbox (status, id);
CREATE INDEX ix_inbox_done ON inbox (done_at);
