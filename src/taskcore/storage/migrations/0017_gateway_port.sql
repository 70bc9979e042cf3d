-- Two gateways, one port (SPEC section 36).
-- The inbox keeps which gateway sent each event, so that its decoder reads it again (every event stored before is
-- Evolution API's).
ALTER TABLE inbox ADD COLUMN gateway TEXT NOT NULL DEFAULT 'evolution';

-- The outbound queue keeps a message in the bot's words (taskcore.gateway.outbound), and the gateway in use encodes
-- it when it sends. Rows queued before the upgrade hold Evolution API's sendText or sendReaction body: converted,
-- whatever their status, so that a message waiting, held or failed (and queued again by `tasksvc retry`) goes out
-- through either gateway. A text: {chat, text, quote?: {id, chat, from_me, participant, text}, mentioned?}; a
-- reaction: {chat, message_id, emoji, participant, from_me}.
-- only sqlite
UPDATE outbound_queue SET payload = json_object(
    'chat', CASE WHEN instr(json_extract(payload, '$.number'), '@') > 0 THEN json_extract(payload, '$.number')
                 ELSE json_extract(payload, '$.number') || '@s.whatsapp.net' END,
    'text', coalesce(json_extract(payload, '$.text'), ''),
    'quote', CASE WHEN json_extract(payload, '$.quoted.key.id') IS NULL THEN NULL ELSE json_object(
        'id', json_extract(payload, '$.quoted.key.id'),
        'chat', json_extract(payload, '$.quoted.key.remoteJid'),
        'from_me', json(CASE WHEN json_extract(payload, '$.quoted.key.fromMe') THEN 'true' ELSE 'false' END),
        'participant', json_extract(payload, '$.quoted.key.participant'),
        'text', json_extract(payload, '$.quoted.message.conversation')) END,
    'mentioned', json(coalesce(json_extract(payload, '$.mentioned'), '[]')))
WHERE kind = 'text' AND json_valid(payload) AND json_extract(payload, '$.number') IS NOT NULL;

-- only sqlite
UPDATE outbound_queue SET payload = json_object(
    'chat', json_extract(payload, '$.key.remoteJid'),
    'message_id', json_extract(payload, '$.key.id'),
    'emoji', coalesce(json_extract(payload, '$.reaction'), ''),
    'participant', json_extract(payload, '$.key.participant'),
    'from_me', json(CASE WHEN json_extract(payload, '$.key.fromMe') THEN 'true' ELSE 'false' END))
WHERE kind = 'reaction' AND json_valid(payload) AND json_extract(payload, '$.key.id') IS NOT NULL;

-- only postgresql
UPDATE outbound_queue SET payload = jsonb_build_object(
    'chat', CASE WHEN position('@' IN payload::jsonb ->> 'number') > 0 THEN payload::jsonb ->> 'number'
                 ELSE (payload::jsonb ->> 'number') || '@s.whatsapp.net' END,
    'text', coalesce(payload::jsonb ->> 'text', ''),
    'quote', CASE WHEN payload::jsonb #>> '{quoted,key,id}' IS NULL THEN NULL ELSE jsonb_build_object(
        'id', payload::jsonb #>> '{quoted,key,id}',
        'chat', payload::jsonb #>> '{quoted,key,remoteJid}',
        'from_me', coalesce((payload::jsonb #>> '{quoted,key,fromMe}')::boolean, false),
        'participant', payload::jsonb #>> '{quoted,key,participant}',
        'text', payload::jsonb #>> '{quoted,message,conversation}') END,
    'mentioned', coalesce(payload::jsonb -> 'mentioned', '[]'::jsonb))::text
WHERE kind = 'text' AND payload::jsonb ? 'number';

-- only postgresql
UPDATE outbound_queue SET payload = jsonb_build_object(
    'chat', payload::jsonb #>> '{key,remoteJid}',
    'message_id', payload::jsonb #>> '{key,id}',
    'emoji', coalesce(payload::jsonb ->> 'reaction', ''),
    'participant', payload::jsonb #>> '{key,participant}',
    'from_me', coalesce((payload::jsonb #>> '{key,fromMe}')::boolean, false))::text
WHERE kind = 'reaction' AND payload::jsonb #>> '{key,id}' IS NOT NULL;
