"""Photo proof end to end (SPEC section 34): the real bot on 127.0.0.1 over a real SQLite file, the fake gateway as a
loopback server holding the photos. A ``!foto`` task is not done without a photo, is done only once its photo is
approved, a rejected photo is gone from disk; a photo of the wrong type or size, a hostile answer or a photo for
another group's task is refused with a reply, never crashes the bot and never leaves a file."""

from __future__ import annotations

import base64
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from sqlalchemy import select, update

from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.proof_tables import task_proofs
from tasksvc_run import keys
from tests.builders import GROUP, make_group, wa_photo, wa_text
from tests.chat_support import task_rows
from tests.integration.watchdog_harness import WatchedBot, watched_bot

ANA, LUIS, BEA = "34600111111", "34600333333", "34600444444"
OTHER_GROUP = "120363300000000099@g.us"
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01" + bytes(range(256)) * 8
GIF = b"GIF89a\x01\x00\x01\x00" + b"\x00" * 64
WAIT = 10.0


@pytest.fixture
async def bot(sqlite_db: Database, tmp_path: Path) -> AsyncIterator[WatchedBot]:
    for group in (GROUP, OTHER_GROUP):
        make_group(sqlite_db, group, name="Casa", members=(ANA, LUIS, BEA))
    with sqlite_db.write() as conn:
        conn.execute(update(schema.group_members).where(schema.group_members.c.user_id == BEA).values(is_admin=True))
    async with watched_bot(sqlite_db, DATA_DIR=str(tmp_path), PHOTO_MAX_MB="1") as running:
        yield running


def photos(tmp_path: Path) -> list[str]:
    folder = tmp_path / "photos"
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def outside_files(tmp_path: Path) -> list[str]:
    """Every file under DATA_DIR but the database and the photos folder."""
    return sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                  if p.is_file() and p.parent.name != "photos" and not p.name.startswith("tasks.db"))


async def post(bot: WatchedBot, payload: dict[str, object]) -> None:
    url = bot.app[keys.SETTINGS].webhook_url
    assert url is not None
    async with aiohttp.ClientSession() as session, session.post(url, json=payload) as answer:
        assert answer.status == 200, await answer.text()


async def said(bot: WatchedBot, words: str) -> str:
    """The first text the bot sent containing ``words`` (waiting for it, bounded)."""
    await bot.gateway.wait_for(lambda gw: any(words in text for text in gw.sent_texts()), within=WAIT)
    return next(text for text in bot.gateway.sent_texts() if words in text)


async def photo_task(bot: WatchedBot) -> None:
    await post(bot, wa_text(f"/t nueva limpiar el baño @{LUIS} !foto", sender=ANA, message_id="ORIGIN",
                            mentioned=(f"{LUIS}@s.whatsapp.net",)))
    await said(bot, "#1 necesita una foto")


async def send_photo(bot: WatchedBot, message_id: str, data: bytes | None = JPEG, **kw: Any) -> None:
    if data is not None:
        bot.gateway.media.give(message_id, data)
    await post(bot, wa_photo(kw.pop("caption", None), sender=kw.pop("sender", LUIS), push_name="Luis",
                             message_id=message_id, quoted=kw.pop("quoted", "ORIGIN"), **kw))


async def test_a_foto_task_is_done_only_with_an_approved_photo_and_a_rejected_one_is_gone(
    bot: WatchedBot, tmp_path: Path,
) -> None:
    await photo_task(bot)
    await post(bot, wa_text("/t x 1", sender=LUIS, push_name="Luis"))
    await said(bot, "Falta la foto de #1")
    await send_photo(bot, "PHOTO1")
    assert f"@{ANA} o @{BEA}" in await said(bot, "Foto de #1 «limpiar el baño» recibida")
    [fetch] = bot.gateway.calls_to("getBase64FromMediaMessage")
    assert fetch.body["convertToMp4"] is False
    assert fetch.body["message"]["key"]["id"] == "PHOTO1"  # the whole message as received, key and message
    assert fetch.body["message"]["message"]["imageMessage"]["contextInfo"]["stanzaId"] == "ORIGIN"
    [kept] = photos(tmp_path)
    assert (tmp_path / "photos" / kept).read_bytes() == JPEG
    await post(bot, wa_text("/t rechazar 1 no se ve el suelo", sender=ANA))
    await said(bot, "Foto de #1 rechazada: no se ve el suelo")
    await bot.until(lambda: photos(tmp_path) == [], within=WAIT)
    assert not task_rows(bot.db)[0].completed
    await send_photo(bot, "PHOTO2", caption="hecho 1", quoted=None)
    await bot.gateway.wait_for(lambda gw: sum("recibida" in t for t in gw.sent_texts()) == 2, within=WAIT)
    assert not task_rows(bot.db)[0].completed
    await post(bot, wa_text("/t aprobar 1", sender=BEA, push_name="Bea"))
    await said(bot, "✅ Foto aprobada: #1 «limpiar el baño» hecha por")
    await bot.until(lambda: bool(task_rows(bot.db)[0].completed), within=WAIT)
    assert task_rows(bot.db)[0].completed_by == LUIS
    assert len(photos(tmp_path)) == 1
    assert outside_files(tmp_path) == []


def huge_answer() -> dict[str, object]:
    """A gateway answer whose base64 is far beyond PHOTO_MAX_MB (24 MB of text)."""
    return {"mediaType": "imageMessage", "mimetype": "image/jpeg", "base64": "A" * (24 * 1024 * 1024)}


@pytest.mark.parametrize(("data", "answer", "says"), [
    (GIF, None, "solo acepto JPEG, PNG o WebP"),
    (b"%PDF-1.7\n" + b"0" * 100, None, "solo acepto JPEG, PNG o WebP"),
    (JPEG * 600, None, "pasa de 1 MB"),
    (None, huge_answer(), "pasa de 1 MB"),
    (None, {"base64": "not base64 at all!"}, "No pude descargar la foto de #1"),
    (None, {"base64": base64.b64encode(b"../../etc/passwd").decode(), "fileName": "../../../tasks.db"},
     "solo acepto JPEG, PNG o WebP"),
])
async def test_a_photo_of_another_type_or_size_or_a_hostile_answer_is_refused_and_leaves_no_file(
    bot: WatchedBot, tmp_path: Path, data: bytes | None, answer: dict[str, object] | None, says: str,
) -> None:
    await photo_task(bot)
    if answer is not None:
        bot.gateway.media.answers["PHOTO1"] = answer
    await send_photo(bot, "PHOTO1", data)
    await said(bot, says)
    assert photos(tmp_path) == []
    assert outside_files(tmp_path) == []
    await post(bot, wa_text("/t ver", sender=ANA))  # the bot goes on
    await said(bot, "limpiar el baño")
    assert not task_rows(bot.db)[0].completed


async def test_a_photo_stating_a_size_beyond_the_limit_is_refused_before_any_fetch(bot: WatchedBot) -> None:
    await photo_task(bot)
    await send_photo(bot, "PHOTO1", file_length=50 * 1024 * 1024)
    await said(bot, "pasa de 1 MB")
    assert bot.gateway.calls_to("getBase64FromMediaMessage") == []


async def test_a_photo_for_a_task_of_another_group_is_refused_with_a_reply(bot: WatchedBot, tmp_path: Path) -> None:
    await post(bot, wa_text(f"/t nueva regar @{LUIS} !foto", sender=ANA, group=OTHER_GROUP, message_id="ELSEWHERE",
                            mentioned=(f"{LUIS}@s.whatsapp.net",)))
    await said(bot, "#1 necesita una foto")
    await send_photo(bot, "PHOTO1", caption="hecho 1", quoted=None)
    await said(bot, "No encuentro la tarea #1 en este grupo.")
    assert bot.gateway.calls_to("getBase64FromMediaMessage") == []
    assert photos(tmp_path) == []


def retry_planned(bot: WatchedBot) -> bool:
    """The photo's next fetch is planned within 30 s (not the 2 minutes of a fetch's claim)."""
    with bot.db.read() as conn:
        due = conn.execute(select(task_proofs.c.next_at)).scalar_one()
    return due is not None and due <= bot.clock.now() + timedelta(seconds=30)


async def test_a_fetch_that_fails_is_tried_again_then_refused_with_a_reply(bot: WatchedBot, tmp_path: Path) -> None:
    await photo_task(bot)
    bot.gateway.fail_next(3, status=500, route="getBase64FromMediaMessage")
    await send_photo(bot, "PHOTO1")
    for failures in (1, 2):
        await bot.gateway.wait_for(lambda gw, n=failures: len(gw.failed) >= n, within=WAIT)
        await bot.until(lambda: retry_planned(bot), within=WAIT)  # the fetcher let go of it, to try again later
        bot.clock.advance(timedelta(seconds=31))
        bot.app[keys.PHOTOS].notify()
    await said(bot, "No pude descargar la foto de #1; envíala otra vez.")
    assert len(bot.gateway.failed) == 3
    assert photos(tmp_path) == []
