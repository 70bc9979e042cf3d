"""Photo proof's words and pure rules (SPEC section 34): ``!foto``, ``/t foto``, ``/t aprobar``, ``/t rechazar`` (a
task's photo or a reward request) in the three languages, a caption that names its task, an image told by its
content, the names of photo files, the signed addresses and the gateway's media answer read with bounds."""

from __future__ import annotations

import base64
import json
from datetime import timedelta

import pytest

from taskcore.chat.commands import CommandSyntaxError, NewTask
from taskcore.chat.grammar import parse_command
from taskcore.chat.proof_args import Approve, PhotoRule, Reject, caption_task
from taskcore.chores.proof import ImageKind, file_name_for, image_kind, is_file_name, proof_signature, signature_ok
from taskcore.gateway.errors import MediaRefused
from taskcore.gateway.evolution.answers import answer_limit, decode_media_answer
from taskcore.services.conversation.registry import SYNTAX
from tests.builders import NOW, TODAY
from tests.chat_support import said

JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 32
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 32
GIF = b"GIF89a" + b"\x00" * 32


def parse(text: str, quoted: int | None = None) -> object:
    return parse_command(text, SYNTAX, today=TODAY, quoted_task=quoted, in_group=True)


@pytest.mark.parametrize("text", ["/t nueva regar las plantas !foto", "/t new water the plants !photo",
                                  "/t nova regar as plantas !FOTO"])
def test_foto_in_a_new_task_makes_it_need_a_photo_in_every_language(text: str) -> None:
    command = parse(text)
    assert isinstance(command, NewTask)
    assert command.photo
    assert "foto" not in command.description.lower()
    assert "photo" not in command.description.lower()


def test_a_new_task_without_the_flag_needs_no_photo() -> None:
    command = parse("/t nueva regar las plantas mañana")
    assert isinstance(command, NewTask)
    assert not command.photo


@pytest.mark.parametrize(("text", "quoted", "expected"), [
    ("/t foto 12", None, PhotoRule(12, required=True)),
    ("/t foto #12 no", None, PhotoRule(12, required=False)),
    ("/t photo 12 off", None, PhotoRule(12, required=False)),
    ("/t foto 12 não", None, PhotoRule(12, required=False)),
    ("/t foto", 7, PhotoRule(7, required=True)),
    ("/t foto no", 7, PhotoRule(7, required=False)),
])
def test_the_photo_rule_is_set_or_cleared(text: str, quoted: int | None, expected: PhotoRule) -> None:
    assert parse(text, quoted) == expected


@pytest.mark.parametrize("text", ["/t foto", "/t foto doce", "/t foto 12 sí", "/t foto 12 no no"])
def test_a_malformed_photo_rule_is_a_usage_error(text: str) -> None:
    with pytest.raises(CommandSyntaxError) as raised:
        parse(text)
    assert "/t foto <id> [no]" in said(raised.value)


@pytest.mark.parametrize(("text", "quoted", "expected"), [
    ("/t aprobar 12", None, Approve(12, None)),
    ("/t approve #12", None, Approve(12, None)),
    ("/t aprovar 12", None, Approve(12, None)),
    ("/t aprobar", 9, Approve(9, None)),
    ("/t aprobar canje 3", None, Approve(None, 3)),
    ("/t aprovar resgate 3", None, Approve(None, 3)),
    ("/t approve request 3", None, Approve(None, 3)),
    ("/t approve redemption 3", 9, Approve(None, 3)),
])
def test_approving_names_a_task_or_a_reward_request(text: str, quoted: int | None, expected: Approve) -> None:
    assert parse(text, quoted) == expected


@pytest.mark.parametrize(("text", "quoted", "expected"), [
    ("/t rechazar 12 no se ve el suelo", None, Reject(12, None, "no se ve el suelo")),
    ("/t reject 12 blurry", None, Reject(12, None, "blurry")),
    ("/t rejeitar 12 escura", None, Reject(12, None, "escura")),
    ("/t recusar 12 escura", None, Reject(12, None, "escura")),
    ("/t rechazar está borrosa", 9, Reject(9, None, "está borrosa")),
    ("/t rechazar canje 3", None, Reject(None, 3, "")),
    ("/t reject request 3 not this week", None, Reject(None, 3, "not this week")),
])
def test_rejecting_names_a_task_with_its_reason_or_a_request(text: str, quoted: int | None,
                                                             expected: Reject) -> None:
    assert parse(text, quoted) == expected


@pytest.mark.parametrize(("text", "says"), [
    ("/t rechazar 12", "Falta el motivo"),
    ("/t rechazar", "Falta el id de la tarea"),
    ("/t rechazar canje", "Falta el número del canje"),
    ("/t aprobar canje tres", "Número de canje no válido"),
    ("/t aprobar 12 13", "Sobran datos"),
])
def test_a_rejection_without_its_reason_or_number_is_a_clear_usage_error(text: str, says: str) -> None:
    with pytest.raises(CommandSyntaxError) as raised:
        parse(text)
    assert said(raised.value).startswith(says)


@pytest.mark.parametrize(("caption", "task"), [
    ("hecho 12", 12), ("Hecho #12", 12), ("#12 listo", 12), ("¡Listo! 12", 12), ("done 7", 7), ("feito 7", 7),
    ("/t x 12", 12), ("ya está 12", 12), ("12 ✅", 12),
    ("hecho", None), ("mira 12", None), ("hecho 1 2", None), ("hecho 0", None), ("", None), (None, None),
    ("hecho 12 " + "x" * 300, None),
])
def test_a_caption_names_its_task_with_a_done_word_and_the_number(caption: str | None, task: int | None) -> None:
    assert caption_task(caption) == task


@pytest.mark.parametrize(("data", "kind"), [
    (JPEG, ImageKind.JPEG), (PNG, ImageKind.PNG), (WEBP, ImageKind.WEBP), (GIF, None), (b"", None),
    (b"\xff\xd8", None), (b"RIFF\x00\x00\x00\x00AVI LIST", None), (b"<svg xmlns='http://www.w3.org/2000/svg'/>", None),
    (b"%PDF-1.7", None),
])
def test_an_image_is_told_by_its_first_bytes(data: bytes, kind: ImageKind | None) -> None:
    assert image_kind(data) == kind


def test_photo_file_names_are_made_by_the_service_and_nothing_else_passes() -> None:
    name = file_name_for(12, ImageKind.PNG)
    assert is_file_name(name)
    assert name.startswith("12-")
    assert name.endswith(".png")
    assert file_name_for(12, ImageKind.PNG) != name
    for hostile in ("../tasks.db", "12-" + "0" * 32 + ".png/../../x", "/etc/passwd", "12-abc.png",
                    "12-" + "0" * 32 + ".gif", "", "photos/12-" + "0" * 32 + ".jpg"):
        assert not is_file_name(hostile)


def test_a_signature_opens_its_photo_until_it_expires_and_nothing_else() -> None:
    key, name = b"k" * 32, file_name_for(5, ImageKind.JPEG)
    expires = int((NOW + timedelta(hours=1)).timestamp())
    sig = proof_signature(key, 5, name, expires)
    assert signature_ok(key, 5, name, expires, sig, now=NOW)
    assert not signature_ok(key, 5, name, expires, sig, now=NOW + timedelta(hours=2))
    assert not signature_ok(key, 6, name, expires, sig, now=NOW)
    assert not signature_ok(key, 5, file_name_for(5, ImageKind.JPEG), expires, sig, now=NOW)
    assert not signature_ok(key, 5, name, expires + 600, sig, now=NOW)
    assert not signature_ok(b"x" * 32, 5, name, expires, sig, now=NOW)
    assert not signature_ok(key, 5, name, expires, "é" * 64, now=NOW)


def answer(data: bytes, **extra: object) -> bytes:
    return json.dumps({"mediaType": "imageMessage", "mimetype": "image/jpeg",
                       "base64": base64.b64encode(data).decode(), **extra}).encode()


def test_the_media_answer_gives_the_photo_s_bytes() -> None:
    assert decode_media_answer(answer(JPEG), max_bytes=1024) == JPEG
    data_uri = json.dumps({"base64": "data:image/png;base64," + base64.b64encode(PNG).decode()}).encode()
    assert decode_media_answer(data_uri, max_bytes=1024) == PNG


@pytest.mark.parametrize(("body", "reason"), [
    (answer(b"\xff" * 2000), "too_big"),
    (b"{" + b" " * (answer_limit(1024) + 1), "too_big"),
    (json.dumps({"base64": "A" * 100_000}).encode(), "too_big"),
    (b"not json", "unreadable"),
    (b"[1, 2]", "unreadable"),
    (json.dumps({"base64": "!!!!"}).encode(), "unreadable"),
    (json.dumps({"base64": 12}).encode(), "unreadable"),
    (json.dumps({"mimetype": "image/jpeg"}).encode(), "unreadable"),
    (b"[" * 5000, "unreadable"),
])
def test_a_media_answer_too_big_or_unreadable_is_refused(body: bytes, reason: str) -> None:
    with pytest.raises(MediaRefused) as raised:
        decode_media_answer(body, max_bytes=1024)
    assert raised.value.reason == reason
