"""`tasksvc dev` and its local gateway's port, `tasksvc doctor` and a `tasksvc dev` unit (SPEC section 33): 3009
taken means another free port, a chosen port that is taken is one line naming the variable (no traceback), and
doctor with NODE_ENV=production never checks a development unit."""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tasksvc_run import devmode, exits
from tasksvc_run.devmode import GATEWAY_PORT_VAR, claim_gateway_port, dev_gateway_running

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def taken() -> Iterator[int]:
    """A loopback port something listens on (as another user's `tasksvc dev` would)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield int(sock.getsockname()[1])


def test_a_taken_default_port_gives_the_gateway_a_free_one(taken: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(devmode, "DEV_GATEWAY_PORT", str(taken))
    environ: dict[str, str] = {}
    assert claim_gateway_port(environ) is None
    chosen = int(environ[GATEWAY_PORT_VAR])
    assert chosen != taken
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", chosen))  # free indeed


def test_a_free_default_port_is_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(devmode, "DEV_GATEWAY_PORT", str(devmode.free_port()))
    environ: dict[str, str] = {}
    assert claim_gateway_port(environ) is None
    assert environ == {}


def test_a_chosen_port_that_is_taken_or_no_port_is_one_line_naming_the_variable(taken: int) -> None:
    said = claim_gateway_port({GATEWAY_PORT_VAR: str(taken)})
    assert said == (f"tasksvc dev: port {taken} ({GATEWAY_PORT_VAR}) is taken, perhaps by another `tasksvc dev`: set "
                    f"{GATEWAY_PORT_VAR} to a free port, or unset it to let tasksvc dev choose one")
    assert claim_gateway_port({GATEWAY_PORT_VAR: "30o9"}) == (
        f"tasksvc dev: {GATEWAY_PORT_VAR}='30o9' is not a port number: set it to a free port (1-65535)")
    assert claim_gateway_port({"GATEWAY_API_URL": "http://gw:8080", GATEWAY_PORT_VAR: str(taken)}) is None


def test_dev_on_a_taken_port_exits_with_that_line_and_no_traceback(taken: int, tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", GATEWAY_PORT_VAR: str(taken), "PORT": str(devmode.free_port())}
    done = subprocess.run([sys.executable, "-m", "tasksvc_run", "dev"], env=env, capture_output=True, text=True,
                          timeout=60, check=False, cwd=tmp_path)
    assert done.returncode == exits.CONFIG
    assert done.stderr.splitlines() == [claim_gateway_port({GATEWAY_PORT_VAR: str(taken)})]


def test_a_production_configuration_is_never_checked_against_a_dev_gateway(taken: int) -> None:
    environ = {GATEWAY_PORT_VAR: str(taken)}
    assert dev_gateway_running(environ, node_env=None) == taken
    assert dev_gateway_running(environ, node_env="development") == taken
    assert dev_gateway_running(environ, node_env="production") is None
    assert dev_gateway_running(environ, node_env=" Production") is None


@pytest.mark.parametrize(("node_env", "checks_dev"), [("production", False), (None, True)])
def test_doctor_as_a_process_with_node_env_production_checks_its_own_configuration(
        taken: int, tmp_path: Path, node_env: str | None, checks_dev: bool) -> None:
    env = {"PATH": "/usr/bin:/bin", GATEWAY_PORT_VAR: str(taken), "GATEWAY_TIMEOUT_MS": "500"}
    if node_env:
        (tmp_path / ".env").write_text(f"NODE_ENV={node_env}\n")  # as an operator's .env says it
    done = subprocess.run([sys.executable, "-m", "tasksvc_run", "doctor"], env=env, capture_output=True, text=True,
                          timeout=60, check=False, cwd=tmp_path)
    assert ("Checking the unit of `tasksvc dev`" in done.stdout) is checks_dev, done.stdout
    assert "Traceback" not in done.stderr
