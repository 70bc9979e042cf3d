"""deploy/compose.yaml and deploy/.env.example: pinned images, known variable names, every ${VAR} documented, and the
webhook URL, secret and API key wired between the service and the gateway."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from taskcore.gateway.diagnostics import Verdict, webhook_url_check
from taskcore.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SERVICE, GATEWAY, GATEWAY_DB = "tasksvc", "evolution-api", "evolution-postgres"
GATEWAY_IMAGE = "evoapicloud/evolution-api:v2.3.7"
# Evolution API v2.3 variables this file may set (its .env.example and src/config/env.config.ts).
GATEWAY_VARIABLES = frozenset({
    "SERVER_TYPE", "SERVER_PORT", "SERVER_URL", "AUTHENTICATION_API_KEY", "AUTHENTICATION_EXPOSE_IN_FETCH_INSTANCES",
    "DATABASE_ENABLED", "DATABASE_PROVIDER", "DATABASE_CONNECTION_URI", "DATABASE_CONNECTION_CLIENT_NAME",
    "DATABASE_SAVE_DATA_INSTANCE", "DATABASE_SAVE_DATA_NEW_MESSAGE", "DATABASE_SAVE_MESSAGE_UPDATE",
    "DATABASE_SAVE_DATA_CONTACTS", "DATABASE_SAVE_DATA_CHATS", "DATABASE_SAVE_DATA_LABELS",
    "DATABASE_SAVE_DATA_HISTORIC", "CACHE_REDIS_ENABLED", "CACHE_REDIS_URI", "CACHE_LOCAL_ENABLED",
    "TELEMETRY_ENABLED", "DEL_INSTANCE", "WEBHOOK_GLOBAL_ENABLED", "CONFIG_SESSION_PHONE_CLIENT", "LOG_LEVEL",
    "LOG_BAILEYS", "LANGUAGE",
})
POSTGRES_VARIABLES = frozenset({"POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB"})
_REFERENCE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}")


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    assert isinstance(loaded, dict)
    return loaded


def services() -> dict[str, dict[str, Any]]:
    return dict(compose()["services"])


def environment(service: str) -> dict[str, str]:
    env = services()[service].get("environment", {})
    assert isinstance(env, dict), f"{service}: write environment as a mapping"
    return {str(name): str(value) for name, value in env.items()}


def interpolated(value: str, values: dict[str, str]) -> str:
    """Compose's ${VAR}, ${VAR:-default} and ${VAR:?error} with the given values."""
    def replace(match: re.Match[str]) -> str:
        name, operator, default = match.groups()
        if values.get(name):
            return values[name]
        assert operator != ":?", f"{name} is required"
        return default or ""
    return _REFERENCE.sub(replace, value)


def documented_variables() -> dict[str, str]:
    """Each VAR=value of .env.example whose line is preceded by a comment saying what it is."""
    lines = (DEPLOY / ".env.example").read_text(encoding="utf-8").splitlines()
    found: dict[str, str] = {}
    for number, line in enumerate(lines):
        if line and not line.startswith("#"):
            name, sep, value = line.partition("=")
            assert sep, f"line {number + 1}: not VAR=value: {line!r}"
            assert re.fullmatch(r"[A-Z][A-Z0-9_]*", name), f"line {number + 1}: not a variable name: {name!r}"
            assert lines[number - 1].startswith("# "), f"{name} has no comment saying what it is"
            assert name not in found, f"{name} appears twice"
            found[name] = value
    return found


EXAMPLE_VALUES = {"GATEWAY_API_KEY": "k3y", "WEBHOOK_SECRET": "s3cret", "WEB_BASE_URL": "https://tareas.example.org",
                  "GATEWAY_DB_PASSWORD": "pw"}


def test_every_image_is_pinned_to_a_version_and_the_gateway_to_2_3_7() -> None:
    images = {name: spec.get("image", "") for name, spec in services().items()}
    assert images[GATEWAY] == GATEWAY_IMAGE
    for name, image in images.items():
        repository, _, tag = image.rpartition(":")
        assert repository, f"{name}: {image!r} has no tag"
        assert tag != "latest", f"{name}: {image!r} is not pinned"
        assert "$" not in image, f"{name}: the image must not come from a variable"
    assert re.fullmatch(r"postgres:16(\.\d+)?", images[GATEWAY_DB])


def test_the_service_is_built_from_the_repositorys_dockerfile() -> None:
    build = services()[SERVICE]["build"]
    context = (DEPLOY / build["context"]).resolve()
    assert context == ROOT
    assert (context / build["dockerfile"]).is_file()


def test_every_variable_the_service_gets_is_a_setting() -> None:
    known = {name.upper() for name in Settings.model_fields}
    assert set(environment(SERVICE)) - known == set()


def test_the_gateway_and_its_database_get_only_variables_they_know() -> None:
    assert set(environment(GATEWAY)) - GATEWAY_VARIABLES == set()
    assert set(environment(GATEWAY_DB)) == POSTGRES_VARIABLES


def test_the_gateways_telemetry_is_off_and_it_needs_no_redis() -> None:
    env = environment(GATEWAY)
    assert env["TELEMETRY_ENABLED"] == "false"
    assert (env["CACHE_REDIS_ENABLED"], env["CACHE_LOCAL_ENABLED"]) == ("false", "true")
    assert not any("redis" in spec.get("image", "") for spec in services().values())
    assert env["DATABASE_PROVIDER"] == "postgresql"


def test_every_variable_used_is_documented_in_the_example_and_every_documented_one_is_used() -> None:
    used = set(_REFERENCE.findall((DEPLOY / "compose.yaml").read_text(encoding="utf-8")))
    used_names = {name for name, _, _ in used}
    assert used_names - set(documented_variables()) == set()
    assert set(documented_variables()) - used_names == set()


def test_the_example_can_be_filled_in_and_every_required_variable_is_marked_required() -> None:
    required = {name for name, operator, _ in _REFERENCE.findall((DEPLOY / "compose.yaml").read_text()) if
                operator == ":?"}
    text = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    required_block = text.split("# --- required ---", 1)[1].split("# --- optional ---", 1)[0]
    assert required == set(re.findall(r"^([A-Z_]+)=", required_block, flags=re.MULTILINE))
    assert all(documented_variables()[name] == "" for name in required)  # no default secret to forget


def test_each_service_keeps_its_data_in_one_named_volume_of_its_own() -> None:
    declared = set(compose()["volumes"])
    owners: dict[str, str] = {}
    for name, spec in services().items():
        volumes = [str(v).split(":", 1)[0] for v in spec.get("volumes", [])]
        assert len(volumes) == 1, f"{name}: {volumes}"
        assert volumes[0] in declared, f"{name}: {volumes[0]} is not a named volume"
        assert volumes[0] not in owners, f"{name} shares {volumes[0]}"
        owners[volumes[0]] = name
    assert set(owners) == declared
    assert services()[SERVICE]["volumes"] == ["tasksvc-data:/app/data"]


def test_the_webhook_url_points_at_the_services_proxy_and_the_gateway_url_at_the_gateway() -> None:
    service, gateway = environment(SERVICE), environment(GATEWAY)
    hook = urlsplit(interpolated(service["WEBHOOK_URL"], EXAMPLE_VALUES))
    assert (hook.hostname, hook.port, hook.path) == (SERVICE, int(service["PORT"]), "/webhook")
    assert webhook_url_check(interpolated(service["WEBHOOK_URL"], EXAMPLE_VALUES),
                             service["GATEWAY_API_URL"]).verdict is Verdict.OK
    api = urlsplit(service["GATEWAY_API_URL"])
    assert (api.hostname, api.port) == (GATEWAY, int(gateway["SERVER_PORT"]))


@pytest.mark.parametrize(("service_variable", "gateway_variable"), [("GATEWAY_API_KEY", "AUTHENTICATION_API_KEY")])
def test_the_service_calls_the_gateway_with_the_gateways_own_key(service_variable: str, gateway_variable: str) -> None:
    ours = interpolated(environment(SERVICE)[service_variable], EXAMPLE_VALUES)
    assert ours == interpolated(environment(GATEWAY)[gateway_variable], EXAMPLE_VALUES) == "k3y"


def test_the_webhook_secret_and_the_public_address_come_from_the_env_file() -> None:
    service = environment(SERVICE)
    assert interpolated(service["WEBHOOK_SECRET"], EXAMPLE_VALUES) == "s3cret"
    assert interpolated(service["WEB_BASE_URL"], EXAMPLE_VALUES) == "https://tareas.example.org"
    assert service["NODE_ENV"] == "production"


def test_the_gateway_database_password_is_the_same_on_both_sides() -> None:
    uri = urlsplit(interpolated(environment(GATEWAY)["DATABASE_CONNECTION_URI"], EXAMPLE_VALUES))
    db = environment(GATEWAY_DB)
    assert (uri.hostname, uri.port, uri.username) == (GATEWAY_DB, 5432, db["POSTGRES_USER"])
    assert uri.password == interpolated(db["POSTGRES_PASSWORD"], EXAMPLE_VALUES) == "pw"
    assert uri.path == "/" + db["POSTGRES_DB"]


def test_the_service_waits_for_a_healthy_gateway_which_waits_for_a_healthy_database() -> None:
    assert services()[SERVICE]["depends_on"][GATEWAY]["condition"] == "service_healthy"
    assert services()[GATEWAY]["depends_on"][GATEWAY_DB]["condition"] == "service_healthy"
    assert "healthcheck" in services()[GATEWAY]
    assert "healthcheck" in services()[GATEWAY_DB]


def test_the_gateway_is_published_on_loopback_only() -> None:
    [port] = services()[GATEWAY]["ports"]
    assert str(port).startswith("127.0.0.1:")
