"""The fake WAHA's answers, route by route (contract sections 4-5): what it answers to each accepted call and what
the call sets off (a send's echo and receipts, a configuration change's restart)."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from tasksvc_run.devgateway import waha_records as records
from tasksvc_run.devgateway import waha_wire as wire
from tasksvc_run.devgateway.acts import BotSent
from tasksvc_run.devgateway.waha_store import bare
from tasksvc_run.devgateway.waha_wire import raw_jid as whatsapp

if TYPE_CHECKING:
    from tasksvc_run.devgateway.waha_fake import FakeWaha

Reply = tuple[int, Any]


@dataclass(frozen=True)
class WahaCall:
    """One request the fake took: its route's name, method, query, JSON body, headers, path parameters, and the
    answer it got (once answered)."""

    route: str
    method: str
    query: dict[str, str]
    body: Any
    headers: dict[str, str]
    params: dict[str, str]
    answer: Any = None


def _members(fake: FakeWaha, chat: str) -> list[str]:
    """A group's members in WAHA's forms, the bot left out: who sends the group's receipts."""
    me = fake.me
    mine = {me.id, me.lid} if me else set()
    group = next((g for g in fake.groups if g.get("JID") == chat), {})
    found = [str(m.get("JID", "")).replace("@s.whatsapp.net", "@c.us") for m in group.get("Participants") or []]
    return [jid for jid in found if jid and jid not in mine]


def _not_working(fake: FakeWaha) -> Reply | None:
    return None if fake.state == "WORKING" else (422, wire.session_not_working(fake.instance, fake.state))


def _quoted(fake: FakeWaha, reply_to: object) -> records.Quoted | None:
    """The quoted message, when the store has it (GOWS sends the text unquoted, silently, when it does not)."""
    found = fake.store.find(reply_to) if isinstance(reply_to, str) and reply_to else None
    if found is None:
        return None
    author = found.get("participant") or (fake.me.id if fake.me and found.get("fromMe") else found.get("from"))
    return records.Quoted(str(found["_data"]["Info"]["ID"]), author, str(found.get("body") or ""))


def send_text(fake: FakeWaha, call: WahaCall) -> Reply:
    """``POST /api/sendText``: checked, refused with 463 when ``effects.refuse_cold`` says so, else sent, stored,
    echoed and acknowledged."""
    problem = wire.check_send_text(call.body) or _not_working(fake)
    if problem is not None:
        return problem
    body, me = call.body, fake.me
    if me is None:
        return 422, wire.session_not_working(fake.instance, "SCAN_QR_CODE")
    if fake.effects.refused(body["chatId"]):
        request = {"path": "/api/sendText", "method": "POST", "body": body, "query": {}}
        return 500, wire.engine_error("2 UNKNOWN: server returned error 463", request)
    record = records.sent_record(me, body["chatId"], body.get("id") or wire.message_id(), body["text"], time.time(),
                                 quoted=_quoted(fake, body.get("reply_to")),
                                 mentions=[m for m in body.get("mentions") or [] if m != "all"])
    fake.store.keep(record)
    for level in fake.effects.ack_levels if fake.effects.statuses else ():
        fake.store.acked(record["id"], level)
    fake.deliveries.emit_all(fake.config, fake.effects.events(record, _members(fake, body["chatId"])), me)
    return 201, records.send_answer(record)


def reaction(fake: FakeWaha, call: WahaCall) -> Reply:
    """``PUT /api/reaction``: the reaction sent, its echo posted as ``message.reaction``."""
    problem = wire.check_reaction(call.body) or _not_working(fake)
    if problem is not None or fake.me is None:
        return problem or (422, wire.session_not_working(fake.instance, "SCAN_QR_CODE"))
    chat = call.body["messageId"].split("_")[1]
    echo = records.reaction_echo(fake.me, chat, wire.message_id(), emoji=call.body["reaction"],
                                 reacted=call.body["messageId"], at=time.time())
    if fake.effects.echo:
        fake.deliveries.emit(fake.config, "message.reaction", echo, fake.me)
    info = {"Chat": wire.raw_jid(chat), "Sender": fake.me.jid, "IsFromMe": True, "ID": echo["id"].split("_")[2]}
    return 200, {"id": echo["id"], "_data": {"Info": info, "Message": {"reactionMessage": {
        "text": call.body["reaction"]}}}}


def session(fake: FakeWaha, call: WahaCall) -> Reply:
    """``GET /api/sessions/{session}``."""
    return 200, {"name": fake.instance, "status": fake.state, "config": copy.deepcopy(fake.config),
                 "me": fake.me.info() if fake.me else None, "presence": "offline",
                 "timestamps": {"activity": int(time.time() * 1000)},
                 "engine": {"engine": "GOWS", "grpc": {"client": "READY", "stream": "READY"}}}


def session_update(fake: FakeWaha, call: WahaCall) -> Reply:
    """``PUT /api/sessions/{session}``: the whole configuration replaced and the session restarted (its
    ``session.status`` posted to the new configuration's webhooks)."""
    problem = wire.check_session_update(call.body)
    if problem is not None:
        return problem
    fake.config = copy.deepcopy(call.body["config"])
    fake.restarts += 1
    if fake.state == "WORKING":
        fake.set_connection("STARTING")
        fake.set_connection("WORKING")
    return 200, {"name": fake.instance, "status": fake.state, "config": copy.deepcopy(fake.config)}


def groups(fake: FakeWaha, call: WahaCall) -> Reply:
    """``GET /api/{session}/groups``; ``exclude=participants`` leaves them out."""
    listed = copy.deepcopy(fake.groups)
    if "participants" in call.query.get("exclude", ""):
        for group in listed:
            group.pop("Participants", None)
    return 200, listed


def participants(fake: FakeWaha, call: WahaCall) -> Reply:
    """``GET /api/{session}/groups/{id}/participants/v2``: the configured list, else the group's own."""
    group_id = call.params["group"]
    if group_id in fake.participants:
        return 200, copy.deepcopy(fake.participants[group_id])
    group = next((g for g in fake.groups if g.get("JID") == group_id), None)
    if group is None:
        request = {"path": f"/api/{fake.instance}/groups/{group_id}/participants/v2", "method": "GET"}
        return 500, wire.engine_error("2 UNKNOWN: info query returned status 404: item-not-found", request)
    return 200, wire.group_participants_v2(group)


def chat_messages(fake: FakeWaha, call: WahaCall) -> Reply:
    """``GET /api/{session}/chats/{chat}/messages``: the store's messages of that chat."""
    return 200, fake.store.listed(call.params["chat"], call.query)


def chat_message(fake: FakeWaha, call: WahaCall) -> Reply:
    """``GET /api/{session}/chats/{chat}/messages/{id}``: one stored message, by bare or serialized id (404 when
    the store does not have it, as WEBJS answers: GOWS's answer is UNCONFIRMED)."""
    found = fake.store.find(call.params["message"])
    return (200, found) if found is not None else (404, wire.not_found("Message not found"))


def lids(fake: FakeWaha, call: WahaCall) -> Reply:
    """``GET /api/{session}/lids/{lid}``: the phone WAHA knows for a LID, from the groups or ``fake.lids``."""
    lid = call.params["lid"] if "@" in call.params["lid"] else call.params["lid"] + "@lid"
    known = {str(m.get("LID")): str(m.get("PhoneNumber") or "").replace("@s.whatsapp.net", "@c.us") or None
             for g in fake.groups for m in g.get("Participants") or [] if m.get("LID")}
    known |= fake.lids
    return 200, {"lid": lid, "pn": known.get(lid)}


ANSWERS: dict[str, Callable[[FakeWaha, WahaCall], Reply]] = {
    "sendText": send_text, "reaction": reaction, "session": session, "session/update": session_update,
    "me": lambda fake, _call: (200, fake.me.info() if fake.me else None), "groups": groups,
    "participants": participants, "new-message-id": lambda _fake, _call: (200, {"id": wire.message_id()}),
    "chat/messages": chat_messages, "chat/message": chat_message, "lids": lids,
    "version": lambda fake, _call: (200, {"version": fake.version, "engine": "GOWS", "tier": "CORE",
                                          "browser": None}),
}


def read_send(route: str, body: Any, answer: Any) -> BotSent | None:
    """A sendText or reaction the fake accepted, in the port's words (None for any other call)."""
    ident = bare(str(answer["id"])) if isinstance(answer, dict) and answer.get("id") else None
    if route == "sendText":
        mentions = tuple(whatsapp(m) for m in body.get("mentions") or () if m != "all")
        quoted = bare(body["reply_to"]) if body.get("reply_to") else None
        return BotSent(whatsapp(body["chatId"]), ident, text=str(body["text"]), quoted=quoted, mentions=mentions)
    if route == "reaction":
        parts = str(body["messageId"]).split("_")
        return BotSent(whatsapp(parts[1]), ident, quoted=parts[2], emoji=str(body["reaction"]))
    return None


def reply(fake: FakeWaha, call: WahaCall) -> Reply:
    """The status and answer of one accepted call."""
    return ANSWERS[call.route](fake, call)
