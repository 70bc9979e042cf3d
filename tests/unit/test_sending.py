"""What the worker is sending right now (SPEC section 31): a reply waits only for a send under way, never for an
older message."""

from __future__ import annotations

from taskcore.gateway.echo import text_digest
from taskcore.gateway.events import InboundPhoto
from taskcore.gateway.evolution.decode import decode as parse_event
from taskcore.queue_rules import JobKind, QueueJob
from tasksvc_run.bot.delivered import _quoted_send
from tasksvc_run.bot.sending import Sending
from tasksvc_run.bot.webhook import _for_delivery
from tests.builders import BOT_PHONE, GROUP, wa_reaction, wa_text


def job(job_id: int, text: str) -> QueueJob:
    return QueueJob(job_id, "120363300000000010@g.us", JobKind.TEXT, {"text": text}, "reply", 1, 6)


def test_an_answered_send_is_awaited_until_its_outcome_is_recorded() -> None:
    sending = Sending()
    sending.started(job(1, "Tarea #1 creada: pan"))
    assert sending.awaiting("3EB0A", text_digest("Tarea #1 creada: pan"))  # under way, its id not known yet
    assert not sending.awaiting("3EB0A", text_digest("otra cosa"))
    assert not sending.awaiting("3EB0A", None)
    sending.answered(1, "3EB0A")
    assert sending.awaiting("3EB0A", None)
    sending.done(1)
    assert not sending.awaiting("3EB0A", text_digest("Tarea #1 creada: pan"))


def test_what_a_reply_or_reaction_names() -> None:
    bot = f"{BOT_PHONE}@s.whatsapp.net"
    reply = wa_text("hecho", quoted="3EB0A")
    reply["data"]["contextInfo"]["quotedMessage"] = {"conversation": "Tarea #1 creada: pan"}  # type: ignore[index]
    assert _quoted_send(parse_event(reply)) == ("3EB0A", text_digest("Tarea #1 creada: pan"), None)
    to_a_person = wa_text("hecho", quoted="AB12")
    to_a_person["data"]["contextInfo"]["participant"] = "34600999999@s.whatsapp.net"  # type: ignore[index]
    assert _quoted_send(parse_event(to_a_person)) is None
    assert to_a_person["data"]["contextInfo"]["participant"] != bot  # type: ignore[index]
    reaction = wa_reaction("👍", "3EB0B")
    assert _quoted_send(parse_event(reaction)) == ("3EB0B", None, GROUP)  # its chat: it carries no text (SPEC 39)
    on_theirs = wa_reaction("👍", "AB13", target_from_me=False, target_author="34600999999@s.whatsapp.net")
    assert _quoted_send(parse_event(on_theirs)) is None
    plain = wa_text("hola")
    assert _quoted_send(parse_event(plain)) is None


def test_a_photo_names_what_its_message_replies_to() -> None:
    """A photo that proves a task by replying to the bot's message just sent waits for that send's record too."""
    photo = wa_text("hecho", quoted="3EB0C")
    data = photo["data"]
    data["contextInfo"]["quotedMessage"] = {"conversation": "#1 necesita una foto"}  # type: ignore[index]
    data["message"] = {"imageMessage": {"url": "https://mmg.whatsapp.net/x", "mimetype": "image/jpeg",  # type: ignore[index]
                                        "caption": "hecho", "contextInfo": data["contextInfo"]}}  # type: ignore[index]
    data["messageType"] = "imageMessage"  # type: ignore[index]
    event = parse_event(photo)
    assert isinstance(event, InboundPhoto)
    assert _quoted_send(event) == ("3EB0C", text_digest("#1 necesita una foto"), None)
    assert _for_delivery(event)
