"""WAHA's envelopes beside Evolution's at the webhook, in one run (SPEC section 36, "Measured": the decoder adds no more
than 10% to the bot's CPU per event).

Two bots run side by side, each a child process pinned to core 0 with a SQLite file of its own and WEBHOOK_SECRET set,
set up as ``tasksvc bot`` sets it up (benchmarks/bot_bench.py): one with GATEWAY_KIND=evolution, posted Evolution API's
``messages.upsert`` with the ``X-Webhook-Secret`` header; one with GATEWAY_KIND=waha, posted WAHA's ``message.any``
envelopes (the one message event the bot subscribes to) signed as WAHA signs them (``X-Webhook-Hmac``, HMAC-SHA512 of
the body, and a request id). Both carry the same ``/t nueva`` command from 200 people in 50 LID-addressed groups, shaped
as each gateway's recorded sample of a group text (fixtures/gateway). This process, on core 1, posts them in interleaved
rounds, as fast as answers come, and waits until every reply is queued: events/s and the bot's CPU per event (from
/proc), the steadier figure on a shared machine. Then, in this process, each gateway's decoder alone over every message
sample of its contract: µs per decode, with and without the JSON parse, and per signature check.
"""

from __future__ import annotations

import copy
import json
import statistics
import tempfile
import time
import timeit
from collections.abc import Callable
from pathlib import Path
from typing import Any

from benchmarks import loadgen
from benchmarks.bot_bench import database, run_server, serve_bot, wait_ready
from benchmarks.common import cpu_seconds, free_port, pin
from taskcore.gateway.evolution.decode import CODEC as EVOLUTION
from taskcore.gateway.port import Codec
from taskcore.gateway.waha.decode import CODEC as WAHA
from taskcore.gateway.waha.webhook import signature
from taskcore.storage import migrator

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gateway"
SECRET = "bench-webhook-secret"  # noqa: S105 - a benchmark's own, on loopback
INSTANCE = "taskbot"
GROUPS, PEOPLE = 50, 200
EVENTS, ROUNDS, WARMUP, CONNECTIONS = 1000, 3, 300, 32
KINDS = ("evolution", "waha")
Post = Callable[[int], list[bytes]]


def _sample(name: str) -> dict[str, Any]:
    loaded = json.loads((FIXTURES / name).read_text(encoding="utf-8"))
    if not isinstance(loaded, dict):
        raise TypeError(f"{name}: not a JSON object")
    return loaded


EVOLUTION_SAMPLE = _sample("inbound_messages_upsert_group_text_lid_mention.json")
WAHA_SAMPLE = _sample("waha/inbound_message_group_text_lid_mention.json")


def _who(i: int) -> tuple[str, str, str, str, str]:
    """Message i's group, its author's LID and phone digits, the text and the message id."""
    person = i % PEOPLE
    return (f"1203633{i % GROUPS:011d}@g.us", f"1987654321{person:05d}", f"346000{person:05d}",
            f"/t nueva tarea {i} mañana", f"3A5F0C2E{i:012d}")


def evolution_post(i: int) -> list[bytes]:
    """Message i as Evolution API 2.3.7 posts it (its recorded sample's shape), with the webhook secret header."""
    group, lid, phone, text, message_id = _who(i)
    event = copy.deepcopy(EVOLUTION_SAMPLE)
    data = event["data"]
    data["key"] |= {"remoteJid": group, "id": message_id, "participant": f"{lid}@lid",
                    "participantAlt": f"{phone}@s.whatsapp.net"}
    data |= {"pushName": f"P{phone[-4:]}", "message": {"conversation": text}, "contextInfo": None,
             "messageTimestamp": WAHA_SAMPLE["payload"]["timestamp"]}  # the same moment for both
    body = json.dumps(event).encode()
    return [loadgen.post_json("/webhook", body, {"X-Webhook-Secret": SECRET})]


def waha_envelope(i: int, event: str = "message.any") -> bytes:
    """Message i as WAHA 2026.7 (GOWS) posts it (its recorded sample's shape)."""
    group, lid, phone, text, message_id = _who(i)
    envelope = copy.deepcopy(WAHA_SAMPLE)
    envelope |= {"id": f"evt_01k20q8m3z7w5t2c9x{i:08d}", "event": event}
    payload = envelope["payload"]
    payload |= {"id": f"false_{group}_{message_id}_{lid}@lid", "from": group, "body": text, "to": f"{lid}@lid",
                "participant": f"{lid}@lid"}
    payload["_data"]["Info"] |= {"Chat": group, "Sender": f"{lid}@lid", "SenderAlt": f"{phone}@s.whatsapp.net",
                                 "ID": message_id, "PushName": f"P{phone[-4:]}"}
    payload["_data"]["Message"] = payload["_data"]["RawMessage"] = {"extendedTextMessage": {"text": text}}
    return json.dumps(envelope).encode()


def _signed(body: bytes, request_id: str) -> bytes:
    headers = {"X-Webhook-Request-Id": request_id, "X-Webhook-Timestamp": "1786010000412",
               "X-Webhook-Hmac": signature(body, SECRET), "X-Webhook-Hmac-Algorithm": "sha512"}
    return loadgen.post_json("/webhook", body, headers)


def waha_post(i: int) -> list[bytes]:
    """Message i's ``message.any`` delivery, signed."""
    return [_signed(waha_envelope(i), f"01k20q5e80b2n4m6q8{i:08d}")]


POSTS: dict[str, tuple[str, Post]] = {"evolution": ("evolution", evolution_post), "waha": ("waha", waha_post)}


class Bot:
    """A bot child process of one gateway kind, its database and the replies it has queued."""

    def __init__(self, kind: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix=f"gateway-bench-{kind}-"))
        self.db, env, self._drop = database(self.folder)
        migrator.migrate(self.db)
        self.port = free_port()
        self.process = run_server(serve_bot, {**env, "GATEWAY_KIND": kind, "WEBHOOK_SECRET": SECRET,
                                              "GATEWAY_API_INSTANCE": INSTANCE}, self.port)
        wait_ready(self.port)
        self.posted = 0  # chat messages posted so far, each one reply

    def replies(self) -> int:
        """Replies queued so far."""
        with self.db.read() as conn:
            return int(conn.exec_driver_sql("SELECT count(*) FROM outbound_queue").scalar_one())

    def post(self, make: Post, count: int) -> tuple[float, float, int]:
        """Post ``count`` messages made by ``make`` and wait until each has its reply; (seconds, CPU seconds,
        requests)."""
        requests = [request for i in range(self.posted, self.posted + count) for request in make(i)]
        self.posted += count
        cpu, started = cpu_seconds(self.process.pid or 0), time.perf_counter()
        loadgen.run_load(self.port, requests, CONNECTIONS)
        deadline = time.monotonic() + 120
        while self.replies() < self.posted:
            if time.monotonic() > deadline:
                raise RuntimeError(f"only {self.replies()} of {self.posted} replies queued")
            time.sleep(0.005)
        return time.perf_counter() - started, cpu_seconds(self.process.pid or 0) - cpu, len(requests)

    def stop(self) -> None:
        """Stop the child and drop its database."""
        self.process.terminate()
        self.process.join(5)
        self.db.dispose()
        self._drop()


def webhook(quick: bool = False) -> dict[str, dict[str, float]]:
    """Per kind: chat messages/s end to end (reply queued, median of rounds), requests/s, and CPU per request and
    per chat message (µs, over all rounds)."""
    pin(1)
    events, rounds = (300, 2) if quick else (EVENTS, ROUNDS)
    bots = {kind: Bot(kind) for kind in ("evolution", "waha")}
    rates: dict[str, list[float]] = {kind: [] for kind in KINDS}
    cpu = dict.fromkeys(KINDS, 0.0)
    requests = dict.fromkeys(KINDS, 0)
    try:
        time.sleep(1.0)
        for gateway, make in (POSTS["evolution"], POSTS["waha"]):
            bots[gateway].post(make, WARMUP)
        for _ in range(rounds):  # interleaved: a busy spell of the machine hits every kind alike
            for kind, (gateway, make) in POSTS.items():
                seconds, spent, sent = bots[gateway].post(make, events)
                rates[kind].append(events / seconds)
                cpu[kind] += spent
                requests[kind] += sent
    finally:
        for bot in bots.values():
            bot.stop()
    messages = events * rounds
    return {kind: {"messages_per_s": statistics.median(rates[kind]), "cpu_per_request_us": cpu[kind] /
                   requests[kind] * 1e6, "cpu_per_message_us": cpu[kind] / messages * 1e6} for kind in KINDS}


def _samples() -> dict[str, dict[str, bytes]]:
    """Each gateway's message samples (raw bodies) by file name."""
    found = {"evolution": sorted(FIXTURES.glob("inbound_messages_upsert_*.json")),
             "waha": sorted((FIXTURES / "waha").glob("inbound_message_*.json"))}
    return {kind: {path.stem: json.dumps(json.loads(path.read_bytes())).encode() for path in paths}
            for kind, paths in found.items()}


def _us(call: Callable[[], object], number: int) -> float:
    """µs per call, the best of five repeats of ``number`` calls."""
    return min(timeit.repeat(call, number=number, repeat=5)) / number * 1e6


def decoders(number: int = 2000) -> list[tuple[str, str, float, float]]:
    """(gateway, sample, µs per decode of the parsed JSON, µs per parse + decode) of every message sample."""
    codecs: dict[str, Codec] = {"evolution": EVOLUTION, "waha": WAHA}
    rows = []
    for kind, samples in _samples().items():
        codec = codecs[kind]
        for name, body in samples.items():
            parsed = json.loads(body)
            rows.append((kind, name, _us(lambda c=codec, p=parsed: c.decode(p), number),
                         _us(lambda c=codec, b=body: c.decode(json.loads(b)), number)))
    return rows


def signatures(number: int = 2000) -> dict[str, float]:
    """µs per signature check of one bench message: Evolution's header compare, WAHA's HMAC-SHA512 of the body."""
    evolution_body, waha_body = json.dumps(EVOLUTION_SAMPLE).encode(), waha_envelope(0)
    waha_headers = {"X-Webhook-Hmac": signature(waha_body, SECRET), "X-Webhook-Hmac-Algorithm": "sha512"}
    return {"evolution": _us(lambda: EVOLUTION.authentic({"X-Webhook-Secret": SECRET}, evolution_body, SECRET),
                             number),
            "waha": _us(lambda: WAHA.authentic(waha_headers, waha_body, SECRET), number)}


def main() -> None:
    """Print the webhook figures of both gateways, their ratio, and the decoders' own cost."""
    figures = webhook()
    evolution = figures["evolution"]
    print(f"'/t nueva' in {GROUPS} LID groups, {PEOPLE} people; {ROUNDS} interleaved rounds of {EVENTS} messages; "
          "bots on core 0 (SQLite, WEBHOOK_SECRET set), client on core 1")
    print("| gateway | messages/s (reply queued) | CPU per request, µs | CPU per message, µs | CPU / Evolution's |")
    print("|---|---:|---:|---:|---:|")
    for kind, row in figures.items():
        print(f"| {kind} | {row['messages_per_s']:,.0f} | {row['cpu_per_request_us']:,.0f} | "
              f"{row['cpu_per_message_us']:,.0f} | {row['cpu_per_message_us'] / evolution['cpu_per_message_us']:.2f} |")
    print("\n| gateway | sample | decode, µs | parse + decode, µs |\n|---|---|---:|---:|")
    for kind, name, decode, parse in decoders():
        print(f"| {kind} | {name} | {decode:.1f} | {parse:.1f} |")
    for kind, us in signatures().items():
        print(f"signature check, {kind}: {us:.1f} µs")


if __name__ == "__main__":
    main()
