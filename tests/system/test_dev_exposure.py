"""`tasksvc dev` signs its development user in without a link, so it listens on loopback only unless HOST says
otherwise (SPEC section 16); a production unit listens on every interface (a container's published port)."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tasksvc_run.devmode import apply_dev_environment
from tests.system.unit import Unit, unit_env

LISTEN = "0A"


def listening_addresses(port: int) -> set[str]:
    """The IPv4 addresses a socket listens on at ``port`` (from /proc/net/tcp)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        address, hex_port = local.split(":")
        if state == LISTEN and int(hex_port, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(address)[::-1]))
    return found


def test_dev_mode_defaults_host_to_loopback() -> None:
    environ: dict[str, str] = {}
    apply_dev_environment(environ)
    assert environ["HOST"] == "127.0.0.1"


def test_an_operators_host_is_kept_in_dev_mode() -> None:
    environ = {"HOST": "0.0.0.0"}  # noqa: S104 - the value under test
    apply_dev_environment(environ)
    assert environ["HOST"] == "0.0.0.0"  # noqa: S104


@pytest.mark.parametrize(("command", "extra", "expected"), [
    ("dev", {}, {"127.0.0.1"}),
    ("dev", {"HOST": "0.0.0.0"}, {"0.0.0.0"}),  # noqa: S104
    ("run", {}, {"0.0.0.0"}),  # noqa: S104
])
def test_the_public_port_listens_where_it_should(tmp_path: Path, command: str, extra: dict[str, str],
                                                  expected: set[str]) -> None:
    env = unit_env(tmp_path, **extra)
    if command == "dev":
        del env["NODE_ENV"], env["DB_PATH"]  # dev mode chooses them
    unit = Unit(command, env, tmp_path)
    try:
        unit.start()
        assert listening_addresses(unit.port) == expected
    finally:
        assert unit.stop() == 0, unit.log()
