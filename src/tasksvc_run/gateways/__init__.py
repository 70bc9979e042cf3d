"""The gateways' HTTP clients, one per gateway the bot speaks (``taskcore.gateway.port.Gateway``), and the one place
that chooses them by GATEWAY_KIND: ``make_gateway`` and ``codec_of`` (SPEC section 36)."""

from __future__ import annotations

import aiohttp

from taskcore.gateway.evolution.decode import CODEC as EVOLUTION_CODEC
from taskcore.gateway.port import Codec, Gateway
from taskcore.settings import Settings
from tasksvc_run.gateways.evolution import EvolutionGateway

CODECS: dict[str, Codec] = {EVOLUTION_CODEC.name: EVOLUTION_CODEC}
"""Each gateway's decoder by its name: the inbox keeps with each event which gateway sent it."""


def codec_of(settings: Settings) -> Codec:
    """The decoder of the gateway in use."""
    return CODECS[settings.gateway_kind]


def make_gateway(session: aiohttp.ClientSession, settings: Settings) -> Gateway:
    """The client of the gateway in use (GATEWAY_KIND)."""
    return EvolutionGateway.from_settings(session, settings)
