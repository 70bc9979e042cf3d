"""WAHA for the tests: its samples (fixtures/gateway/waha, copied from ../shared/gateway/waha/samples), the fake
WAHA serving them, and a webhook receiver on loopback."""

from __future__ import annotations

import copy
import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

from aiohttp import web

from tasksvc_run.devgateway.waha_fake import FakeWaha

WAHA_SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "gateway" / "waha"
__all__ = ["WAHA_SAMPLES", "Delivery", "Receiver", "SampleWaha", "sample", "sample_names"]


@cache
def _loaded(name: str) -> Any:
    return json.loads((WAHA_SAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def sample(name: str) -> Any:
    """A fresh copy of one sample by file name (without .json)."""
    return copy.deepcopy(_loaded(name))


def sample_names() -> set[str]:
    """Every sample's name."""
    return {path.stem for path in WAHA_SAMPLES.glob("*.json")}


@dataclass
class SampleWaha(FakeWaha):
    """The fake WAHA as the samples show it: their session, their bot (15550100000, LID 211000000000001), their
    groups."""

    owner_jid: str | None = "15550100000@s.whatsapp.net"
    owner_lid: str | None = "211000000000001@lid"
    groups: list[dict[str, Any]] = field(default_factory=lambda: list(sample("outbound_groups_list_response_200")))


@dataclass(frozen=True)
class Delivery:
    """One POST the receiver got: its headers and raw body."""

    headers: dict[str, str]
    body: bytes

    @property
    def payload(self) -> Any:
        """The body as JSON."""
        return json.loads(self.body)

    @property
    def event(self) -> str:
        """The envelope's event."""
        return str(self.payload["event"])


@dataclass
class Receiver:
    """A webhook receiver on loopback that keeps every delivery and answers ``status`` (a list: one per delivery,
    the last one repeated)."""

    status: list[int] = field(default_factory=lambda: [200])
    got: list[Delivery] = field(default_factory=list)
    url: str = ""
    _runner: web.AppRunner | None = None

    async def __aenter__(self) -> Receiver:
        app = web.Application()
        app.router.add_post("/webhooks/waha", self._take)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.url = f"http://127.0.0.1:{site._server.sockets[0].getsockname()[1]}/webhooks/waha"  # type: ignore[union-attr]
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._runner is not None:
            await self._runner.cleanup()

    async def _take(self, request: web.Request) -> web.Response:
        self.got.append(Delivery(dict(request.headers), await request.read()))
        return web.json_response({}, status=self.status[min(len(self.got), len(self.status)) - 1])

    def events(self) -> list[str]:
        """The events received, in order."""
        return [delivery.event for delivery in self.got]
