"""SPEC section 33 on deploy/: the backups volume is the service's to write (the Dockerfile makes BACKUP_DIR its
user's), every service's log is rotated, and /metrics is private behind Caddy unless METRICS_TOKEN is set (Caddy
itself run on loopback in front of a stand-in for the service)."""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.unit.test_deploy_compose import DEPLOY, ROOT, SERVICE, TLS, environment, services

DOCKERFILE = ROOT / "Dockerfile"


def instructions() -> list[tuple[str, str]]:
    """The Dockerfile's instructions (continuation lines joined), comments left out."""
    text = re.sub(r"\\\n", " ", DOCKERFILE.read_text(encoding="utf-8"))
    found = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            keyword, _, rest = line.strip().partition(" ")
            found.append((keyword.upper(), rest.strip()))
    return found


def test_the_image_makes_backup_dir_and_data_dir_its_users_before_it_becomes_that_user() -> None:
    steps = instructions()
    [user_at] = [i for i, (keyword, _) in enumerate(steps) if keyword == "USER"]
    user = steps[user_at][1]
    runs = " ".join(rest for keyword, rest in steps[:user_at] if keyword == "RUN")
    assert re.search(rf"useradd .*--uid 10001 .*\b{user}\b", runs)
    env = environment(SERVICE)
    [volumes] = [json.loads(rest) for keyword, rest in steps if keyword == "VOLUME"]
    for folder in (env["BACKUP_DIR"], env["DATA_DIR"]):
        assert re.search(rf"mkdir -p [^&]*{re.escape(folder)}\b", runs), f"the image does not make {folder}"
        assert re.search(rf"chown {user}:{user} [^&]*{re.escape(folder)}\b", runs), f"{folder} is not {user}'s"
        assert folder in volumes
        assert any(str(v).endswith(f":{folder}") for v in services()[SERVICE]["volumes"])


def test_every_service_rotates_its_log_by_size_and_count() -> None:
    for name, spec in services().items():
        logging = spec.get("logging", {})
        assert logging.get("driver") == "json-file", name
        assert re.fullmatch(r"\d+m", logging["options"]["max-size"]), name
        assert int(logging["options"]["max-file"]) >= 2, name


def test_the_service_gets_log_level_info_by_default() -> None:
    assert environment(SERVICE)["LOG_LEVEL"] == "${LOG_LEVEL:-info}"
    assert environment(TLS)["METRICS_TOKEN_FILE"] == environment(SERVICE)["METRICS_TOKEN_FILE"] == (
        "${METRICS_TOKEN_FILE:-}")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class _Service(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = f"service saw {self.path}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: object) -> None:
        pass


@contextmanager
def caddy_in_front(metrics_token: str) -> Iterator[int]:
    """deploy/Caddyfile as Caddy adapts it, served on a loopback port without TLS, proxying to a stand-in service."""
    caddy = shutil.which("caddy")
    if caddy is None:  # Debian's caddy, installed by .ci/run; the structural tests above always run
        if os.environ.get("CI"):
            pytest.fail("caddy is missing: .ci/run installs Debian's caddy package")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    env = {**os.environ, "DOMAIN": "tareas.example.org", "METRICS_TOKEN": metrics_token}
    adapted = subprocess.run([caddy, "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],  # noqa: S603
                             capture_output=True, text=True, timeout=30, check=True, env=env)
    config = json.loads(adapted.stdout)
    service = ThreadingHTTPServer(("127.0.0.1", 0), _Service)
    threading.Thread(target=service.serve_forever, daemon=True).start()
    port = free_port()
    [server] = config["apps"]["http"]["servers"].values()
    server["listen"] = [f"127.0.0.1:{port}"]
    server["automatic_https"] = {"disable": True}
    config["admin"] = {"disabled": True}
    text = json.dumps(config).replace('"tasksvc:3000"', f'"127.0.0.1:{service.server_port}"')
    process = subprocess.Popen([caddy, "run", "--config", "-"],  # noqa: S603
                               stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env=env, text=True)
    assert process.stdin is not None
    process.stdin.write(text)
    process.stdin.close()
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)
        service.shutdown()
        service.server_close()


def get(port: int, path: str) -> tuple[int, str]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Host": "tareas.example.org"})
    try:
        with urllib.request.urlopen(request, timeout=5) as answer:  # noqa: S310 - loopback
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as refused:
        refused.close()
        return refused.code, ""


def test_caddy_answers_404_for_metrics_without_a_token_and_forwards_the_rest() -> None:
    with caddy_in_front("") as port:
        assert get(port, "/metrics")[0] == 404
        assert get(port, "/metrics/")[0] == 404
        assert get(port, "/metrics?name=x")[0] == 404
        assert get(port, "/login") == (200, "service saw /login")
        assert get(port, "/metricsfoo") == (200, "service saw /metricsfoo")


def test_caddy_forwards_metrics_when_a_token_is_set() -> None:
    with caddy_in_front("a-metrics-token") as port:
        assert get(port, "/metrics") == (200, "service saw /metrics")


def test_the_image_carries_its_release_as_oci_labels_and_builds_with_it() -> None:
    steps = instructions()
    args = {rest.split("=", 1)[0] for keyword, rest in steps if keyword == "ARG"}
    assert {"VERSION", "REVISION"} <= args
    labels = " ".join(rest for keyword, rest in steps if keyword == "LABEL")
    assert 'org.opencontainers.image.version="${VERSION}"' in labels
    assert 'org.opencontainers.image.revision="${REVISION}"' in labels
    [install] = [rest for keyword, rest in steps if keyword == "RUN" and "pip install" in rest]
    assert 'SETUPTOOLS_SCM_PRETEND_VERSION_FOR_TASKSVC="${VERSION}"' in install
    assert "SETUPTOOLS_SCM_PRETEND_METADATA_FOR_TASKSVC=" in install
    build = services()[SERVICE]["build"]["args"]
    assert build == {"VERSION": "${TASKSVC_VERSION:-0.0.0}", "REVISION": "${TASKSVC_REVISION:-unknown}"}


@pytest.mark.slow
def test_the_images_user_writes_a_new_backups_volume_where_docker_runs(tmp_path: Path) -> None:
    """Where a Docker daemon answers: build the image, mount a new named volume on BACKUP_DIR, write there as the
    image's own user (the parsed checks above hold everywhere; this one needs the daemon)."""
    docker = shutil.which("docker")
    if docker is None or subprocess.run([docker, "info"], capture_output=True, timeout=30, check=False).returncode:  # noqa: S603
        pytest.skip("no Docker daemon answers here; the Dockerfile is checked by parsing above")
    tag, volume = f"tasksvc-backups-test:{os.getpid()}", f"tasksvc-backups-test-{os.getpid()}"
    subprocess.run([docker, "build", "-q", "-t", tag, str(ROOT)], check=True, timeout=1200, capture_output=True)  # noqa: S603
    try:
        backup_dir = environment(SERVICE)["BACKUP_DIR"]
        wrote = subprocess.run([docker, "run", "--rm", "-v", f"{volume}:{backup_dir}", tag, "python", "-c",  # noqa: S603
                                f"import os; open('{backup_dir}/probe', 'w').write('x'); print(os.getuid())"],
                               capture_output=True, text=True, timeout=120, check=False)
        assert wrote.returncode == 0, wrote.stderr
        assert wrote.stdout.strip() == "10001"
    finally:
        subprocess.run([docker, "volume", "rm", "-f", volume], capture_output=True, timeout=60, check=False)  # noqa: S603
        subprocess.run([docker, "image", "rm", "-f", tag], capture_output=True, timeout=60, check=False)  # noqa: S603
