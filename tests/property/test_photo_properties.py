"""Hostile photos (SPEC section 34): whatever a photo's webhook carries (captions, contexts, sizes, ids of any shape)
is read without failing, and handled through the road without failing; whatever bytes the gateway answers with are
kept only when they are an image within the limit, under a name the service made, inside the photo folder."""

from __future__ import annotations

import base64
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from taskcore.chores.proof import image_kind, is_file_name
from taskcore.gateway.errors import MediaRefused
from taskcore.gateway.events import Ignored, InboundPhoto
from taskcore.gateway.evolution.answers import decode_media_answer
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.storage import migrator
from taskcore.storage.db import Database, sqlite_url
from tests.builders import GROUP, make_group, wa_photo
from tests.chat_support import policy, run
from tests.property.test_webhook_properties import json_values

HOSTILE = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
odd = st.one_of(json_values, st.sampled_from(["../../etc/passwd", "hecho 1", "/t x 1", "\x00", "hecho " + "9" * 30,
                                              "A" * 5000, "", "1"]))


@st.composite
def hostile_photos(draw: st.DrawFn) -> dict[str, Any]:
    payload = wa_photo(caption="hecho 1", message_id=draw(st.sampled_from(["P1", "../x", "a/b", "\u202e", "Z" * 300])),
                       quoted=draw(st.none() | st.text(max_size=20)))
    image = payload["data"]["message"]["imageMessage"]  # type: ignore[index]
    for name in ("caption", "fileLength", "contextInfo", "mimetype", "url"):
        if draw(st.booleans()):
            image[name] = draw(odd)
    if draw(st.booleans()):
        payload["data"]["contextInfo"] = draw(odd)  # type: ignore[index]
    return payload


@HOSTILE
@given(payload=hostile_photos())
def test_any_photo_event_is_read_without_failing(payload: dict[str, Any]) -> None:
    event = parse_event(payload)
    assert isinstance(event, InboundPhoto | Ignored)
    if isinstance(event, InboundPhoto):
        kept = json.loads(event.media)
        assert set(kept) == {"key", "message"}
        assert "base64" not in kept["message"]


def test_a_hostile_photo_is_handled_without_failing(tmp_path: Path) -> None:
    db = Database.from_url(sqlite_url(tmp_path / "tasks.db"))
    migrator.migrate(db)
    make_group(db, GROUP, members=("34600111111",))
    rules = replace(policy(), data_dir=str(tmp_path))
    run(db, {"event": "messages.upsert", "instance": "taskbot",
             "data": {"key": {"id": "T", "remoteJid": GROUP, "participant": "34600111111@s.whatsapp.net"},
                      "message": {"conversation": "/t nueva regar !foto"}}}, rules)

    @HOSTILE
    @given(payload=hostile_photos())
    def handled(payload: dict[str, Any]) -> None:
        event = parse_event(payload)
        if isinstance(event, InboundPhoto):
            run(db, payload, rules)  # raises if the road fails

    handled()
    assert sorted(p.name for p in tmp_path.iterdir()) in (["tasks.db"], ["tasks.db", "tasks.db-shm", "tasks.db-wal"])
    db.dispose()


@HOSTILE
@given(data=st.binary(max_size=2048), wrapped=st.booleans(), limit=st.integers(1, 1500))
def test_only_images_within_the_limit_come_out_of_a_media_answer(data: bytes, wrapped: bool, limit: int) -> None:
    text = base64.b64encode(data).decode()
    body = json.dumps({"base64": f"data:image/jpeg;base64,{text}" if wrapped else text}).encode()
    if not data or len(data) > limit:
        with pytest.raises(MediaRefused, match="unreadable" if not data else "too_big"):
            decode_media_answer(body, max_bytes=limit)
        return
    decoded = decode_media_answer(body, max_bytes=limit)
    assert decoded == data
    kind = image_kind(decoded)
    assert kind is None or is_file_name(f"1-{'0' * 32}.{kind.value}")
