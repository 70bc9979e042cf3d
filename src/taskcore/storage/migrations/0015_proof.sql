-- Photo proof (SPEC section 34): one row per task that needs (or needed) a photo to be done.
-- required: the task needs a photo (!foto, /t foto). state: NULL while no photo is kept, 'fetching' while the bot
-- fetches the photo from the gateway (media holds the message as received, to pass back whole), 'waiting' for the
-- approval of the task's creator or a WhatsApp admin of its group, 'approved' once done. The file lives under
-- DATA_DIR/photos with a name the service made (file_name); it is deleted on rejection and PHOTO_RETENTION_DAYS
-- after approval (approved_at).
CREATE TABLE task_proofs (
    task_id BIGINT PRIMARY KEY REFERENCES tasks (id) ON DELETE CASCADE,
    required BOOLEAN NOT NULL,
    state TEXT,
    sent_by TEXT REFERENCES users (id) ON DELETE SET NULL,
    chat_id TEXT,
    message_id TEXT,
    participant TEXT,
    caption TEXT,
    media TEXT,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_at TIMESTAMP,
    file_name TEXT,
    received_at TIMESTAMP,
    kept_at TIMESTAMP,
    approved_at TIMESTAMP
);
CREATE INDEX ix_task_proofs_next ON task_proofs (next_at);
CREATE INDEX ix_task_proofs_approved ON task_proofs (approved_at);
CREATE INDEX ix_task_proofs_message ON task_proofs (message_id);
