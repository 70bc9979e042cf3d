"""Fixtures the integration tests of the outbound side share: the fake gateway on loopback and a client of it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from taskcore.gateway.client import GatewayClient
from tests.fakes.gateway import FakeGateway


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    """The fake gateway (a loopback HTTP server speaking the contract); a test module may define its own."""
    async with FakeGateway() as gw:
        yield gw


@pytest.fixture
async def client(gateway: FakeGateway) -> AsyncIterator[GatewayClient]:
    """A gateway client of ``gateway``, instance ``taskbot``, 2 s timeout."""
    async with aiohttp.ClientSession() as session:
        yield GatewayClient(session, base_url=gateway.url, instance="taskbot", api_key="test-api-key",
                            timeout_ms=2000)
