"""The fake gateway for tests: the package's local gateway, serving the sample groups by default."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from taskcore.gateway.evolution import encode
from taskcore.gateway.outbound import outbound_of
from tasksvc_run.devgateway.fake import FakeGateway as _LocalFake
from tasksvc_run.devgateway.fake import GatewayCall

SAMPLES = Path(__file__).resolve().parents[2] / "fixtures" / "gateway"
__all__ = ["FakeGateway", "GatewayCall", "sample", "sample_groups", "wire_body"]


def sample(name: str) -> Any:
    """A sample payload of fixtures/gateway by file name (without .json)."""
    return json.loads((SAMPLES / f"{name}.json").read_text(encoding="utf-8"))


def sample_groups() -> list[dict[str, Any]]:
    """The sample fetchAllGroups answer."""
    return list(sample("outbound_fetchAllGroups_getParticipants_true_response_200"))


def wire_body(payload: Mapping[str, Any]) -> dict[str, Any]:
    """The body Evolution API is sent for a queued payload (the bot's words)."""
    return encode.body_of(outbound_of(payload))


@dataclass
class FakeGateway(_LocalFake):
    """The local gateway with the sample groups."""

    groups: list[dict[str, Any]] = field(default_factory=sample_groups)
