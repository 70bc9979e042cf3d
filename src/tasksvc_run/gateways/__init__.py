"""The gateways' HTTP clients, one per gateway the bot speaks (``taskcore.gateway.port.Gateway``, each over one
aiohttp ClientSession), and the one place that chooses them by GATEWAY_KIND: ``make_gateway`` and ``codec_of`` (SPEC
section 36)."""

from __future__ import annotations

import aiohttp

from taskcore.gateway.evolution.decode import CODEC as EVOLUTION_CODEC
from taskcore.gateway.port import Codec, Gateway
from taskcore.gateway.waha.decode import CODEC as WAHA_CODEC
from taskcore.settings import Settings
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.gateways.waha import WahaGateway

CODECS: dict[str, Codec] = {codec.name: codec for codec in (EVOLUTION_CODEC, WAHA_CODEC)}
"""Each gateway's decoder by its name: the inbox keeps with each event which gateway sent it."""


def codec_of(settings: Settings) -> Codec:
    """The decoder of the gateway in use."""
    return CODECS[settings.gateway_kind]


def make_gateway(session: aiohttp.ClientSession, settings: Settings) -> Gateway:
    """The client of the gateway in use (GATEWAY_KIND)."""
    if settings.gateway_kind == "waha":
        return WahaGateway.from_settings(session, settings)
    return EvolutionGateway.from_settings(session, settings)
