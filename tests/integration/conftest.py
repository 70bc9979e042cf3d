"""Fixtures the integration tests of the outbound side share: the fake gateway on loopback and a client of it; the
event loops the tests run on."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Mapping

import aiohttp
import pytest

from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.proxy.app import new_loop
from tests.fakes.gateway import FakeGateway

Loops = Mapping[str, Callable[[], asyncio.AbstractEventLoop]]
ASYNCIO_LOOP: Loops = {"asyncio": asyncio.new_event_loop}
PROXY_LOOPS: Loops = {"asyncio": asyncio.new_event_loop, "uvloop": new_loop}


def pytest_asyncio_loop_factories(config: pytest.Config, item: pytest.Item) -> Loops:
    """The proxy's tests run on asyncio's loop and on uvloop's (`tasksvc proxy` serves on it), the rest on asyncio's."""
    return PROXY_LOOPS if item.path.name.startswith("test_proxy") else ASYNCIO_LOOP


@pytest.fixture
async def gateway() -> AsyncIterator[FakeGateway]:
    """The fake gateway (a loopback HTTP server speaking the contract); a test module may define its own."""
    async with FakeGateway() as gw:
        yield gw


@pytest.fixture
async def client(gateway: FakeGateway) -> AsyncIterator[EvolutionGateway]:
    """A gateway client of ``gateway``, instance ``taskbot``, 2 s timeout."""
    async with aiohttp.ClientSession() as session:
        yield EvolutionGateway(session, base_url=gateway.url, instance="taskbot", api_key="test-api-key",
                            timeout_ms=2000)
