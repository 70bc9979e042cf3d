-- The echoes (send.message) of what the gateway sent for the bot (SPEC section 26): recorded by whichever unit the
-- gateway's webhook reached, read by every unit's echo watchdog and by the settling of in-doubt sends. The text is
-- kept only as a fingerprint. Rows older than a day are deleted by the watchdog.
CREATE TABLE gateway_echoes (
    message_id TEXT PRIMARY KEY,
    chat_id TEXT NOT NULL,
    digest TEXT,
    quoted_id TEXT,
    received_at TIMESTAMP NOT NULL
);
CREATE INDEX ix_gateway_echoes_chat ON gateway_echoes (chat_id, received_at);
CREATE INDEX ix_gateway_echoes_received ON gateway_echoes (received_at);
CREATE INDEX ix_outbound_queue_gateway_message ON outbound_queue (gateway_message_id);
