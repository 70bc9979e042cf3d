"""deploy/compose.yaml, deploy/Caddyfile and deploy/.env.example: pinned images, known variable names, every ${VAR}
documented, the webhook URL, secret and API key wired between the service and the gateway, HTTPS through Caddy with no
plain port published, and the volumes docs/operations.md backs up (SPEC section 27); a profile per gateway, Evolution
API or WAHA, both from the same secrets, the one the bot speaks to chosen by GATEWAY_KIND (SPEC section 36)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
import yaml

from taskcore.gateway.diagnostics import Verdict, webhook_url_check
from taskcore.gateway.waha.diagnose import PINNED_VERSION
from taskcore.secret_files import FILE_VARIABLES
from taskcore.settings import Settings

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
SERVICE, GATEWAY, GATEWAY_DB, TLS, WAHA = "tasksvc", "evolution-api", "evolution-postgres", "caddy", "waha"
GATEWAY_IMAGE = "evoapicloud/evolution-api:v2.3.7"
WAHA_IMAGE = f"devlikeapro/waha:gows-{PINNED_VERSION}"
PROFILES = {GATEWAY: ["evolution"], GATEWAY_DB: ["evolution"], WAHA: ["waha"]}  # the others always run
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
POSTGRES_VARIABLES = frozenset({"POSTGRES_USER", "POSTGRES_PASSWORD_FILE", "POSTGRES_DB"})
# WAHA 2026.7 variables this file may set (../shared/gateway/waha/CONTRACT.md sections 2 and 8, WAHA's configuration
# page); WAHA_API_KEY and WAHA_DASHBOARD_PASSWORD come from the secret in its entrypoint.
WAHA_VARIABLES = frozenset({
    "WHATSAPP_DEFAULT_ENGINE", "WHATSAPP_API_PORT", "WAHA_BASE_URL", "WHATSAPP_START_SESSION",
    "WHATSAPP_RESTART_ALL_SESSIONS", "WAHA_SESSION_CONFIG_IGNORE_GROUPS", "WAHA_SESSION_CONFIG_IGNORE_STATUS",
    "WAHA_SESSION_CONFIG_IGNORE_CHANNELS", "WAHA_DASHBOARD_ENABLED", "WAHA_DASHBOARD_USERNAME",
    "WHATSAPP_SWAGGER_ENABLED", "WAHA_LOG_LEVEL", "WAHA_LOG_FORMAT", "TZ",
})
# Variables compose itself reads from the env file, besides those the file interpolates.
COMPOSE_VARIABLES = frozenset({"COMPOSE_PROFILES"})
SECRETS = ("gateway_api_key", "webhook_secret", "gateway_db_password", "metrics_token", "database_url")
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


EXAMPLE_VALUES = {"DOMAIN": "tareas.example.org", "ADMIN_USERS": "34600112233", "COMPOSE_PROFILES": "evolution"}


def test_every_image_is_pinned_to_a_version_and_the_gateways_to_2_3_7_and_waha_s_gows_pin() -> None:
    images = {name: spec.get("image", "") for name, spec in services().items()}
    assert images[GATEWAY] == GATEWAY_IMAGE
    assert images[WAHA] == WAHA_IMAGE  # contract section 8: the GOWS engine, a release, never `latest`
    for name, image in images.items():
        repository, _, tag = image.rpartition(":")
        assert repository, f"{name}: {image!r} has no tag"
        assert tag != "latest", f"{name}: {image!r} is not pinned"
        assert "$" not in image, f"{name}: the image must not come from a variable"
    assert re.fullmatch(r"postgres:16\.\d+", images[GATEWAY_DB])
    assert re.fullmatch(r"caddy:2\.\d+\.\d+", images[TLS])  # SPEC section 40: a version, not a moving major


def test_the_service_is_built_from_the_repositorys_dockerfile() -> None:
    build = services()[SERVICE]["build"]
    context = (DEPLOY / build["context"]).resolve()
    assert context == ROOT
    assert (context / build["dockerfile"]).is_file()


def test_every_variable_the_service_gets_is_a_setting() -> None:
    known = {name.upper() for name in Settings.model_fields} | {f"{name}_FILE" for name in FILE_VARIABLES}
    assert set(environment(SERVICE)) - known == set()


def test_the_gateway_and_its_database_get_only_variables_they_know() -> None:
    assert set(environment(GATEWAY)) - GATEWAY_VARIABLES == set()
    assert set(environment(GATEWAY_DB)) == POSTGRES_VARIABLES
    assert set(environment(TLS)) == {"DOMAIN", "METRICS_TOKEN_FILE"}


def test_the_gateways_telemetry_is_off_and_it_needs_no_redis() -> None:
    env = environment(GATEWAY)
    assert env["TELEMETRY_ENABLED"] == "false"
    assert (env["CACHE_REDIS_ENABLED"], env["CACHE_LOCAL_ENABLED"]) == ("false", "true")
    assert not any("redis" in spec.get("image", "") for spec in services().values())
    assert env["DATABASE_PROVIDER"] == "postgresql"


def test_every_variable_used_is_documented_in_the_example_and_every_documented_one_is_used() -> None:
    used = set(_REFERENCE.findall((DEPLOY / "compose.yaml").read_text(encoding="utf-8")))
    used_names = {name for name, _, _ in used} | COMPOSE_VARIABLES
    assert used_names - set(documented_variables()) == set()
    assert set(documented_variables()) - used_names == set()


def test_the_example_can_be_filled_in_and_every_required_variable_is_marked_required() -> None:
    required = {name for name, operator, _ in _REFERENCE.findall((DEPLOY / "compose.yaml").read_text()) if
                operator == ":?"}
    text = (DEPLOY / ".env.example").read_text(encoding="utf-8")
    required_block = text.split("# --- required ---", 1)[1].split("# --- optional ---", 1)[0]
    assert required == set(re.findall(r"^([A-Z_]+)=", required_block, flags=re.MULTILINE))
    # no default secret to forget; the gateways' profiles are a choice, whose default is Evolution API's
    assert all(documented_variables()[name] == "" for name in required - COMPOSE_VARIABLES)
    assert documented_variables()["COMPOSE_PROFILES"] == "evolution"


def test_each_named_volume_belongs_to_one_service_and_the_backups_have_their_own() -> None:
    declared = set(compose()["volumes"])
    owners: dict[str, str] = {}
    for name, spec in services().items():
        for volume in [str(v).split(":", 1)[0] for v in spec.get("volumes", [])]:
            if volume.startswith("./"):
                continue  # a file of this directory (the Caddyfile)
            assert volume in declared, f"{name}: {volume} is not a named volume"
            assert volume not in owners, f"{name} shares {volume}"
            owners[volume] = name
    assert set(owners) == declared
    assert services()[SERVICE]["volumes"] == ["tasksvc-data:/app/data", "backups:/backups"]
    assert environment(SERVICE)["BACKUP_DIR"] == "/backups"
    assert {owners["evolution-instances"], owners["evolution-postgres"]} == {GATEWAY, GATEWAY_DB}
    assert services()[WAHA]["volumes"] == ["waha-sessions:/app/.sessions"]  # the session and its message store


def test_only_caddy_publishes_ports_to_the_world_and_the_service_none() -> None:
    assert "ports" not in services()[SERVICE]
    assert services()[TLS]["ports"] == ["80:80", "443:443", "443:443/udp"]
    for name, spec in services().items():
        if name != TLS:
            assert all(str(port).startswith("127.0.0.1:") for port in spec.get("ports", [])), name


def test_caddy_serves_the_domain_and_starts_after_a_healthy_service() -> None:
    spec = services()[TLS]
    assert "./Caddyfile:/etc/caddy/Caddyfile:ro" in spec["volumes"]
    assert spec["depends_on"][SERVICE]["condition"] == "service_healthy"
    assert interpolated(environment(SERVICE)["WEB_BASE_URL"], EXAMPLE_VALUES) == "https://tareas.example.org"
    site = (DEPLOY / "Caddyfile").read_text(encoding="utf-8")
    assert re.search(r"^\{\$DOMAIN\} \{$", site, flags=re.MULTILINE)
    assert re.search(rf"^\treverse_proxy {SERVICE}:{environment(SERVICE)['PORT']}$", site, flags=re.MULTILINE)
    assert re.search(r'^\t\tStrict-Transport-Security "max-age=31536000; includeSubDomains"$', site, flags=re.MULTILINE)
    assert re.search(r"^\t\t-Server$", site, flags=re.MULTILINE)


def test_caddy_itself_reads_the_caddyfile_as_a_tls_site_proxied_to_the_service() -> None:
    caddy = shutil.which("caddy")
    if caddy is None:  # Debian's caddy 2.6, installed by .ci/run; the structural test above always runs
        if os.environ.get("CI"):
            pytest.fail("caddy is missing: .ci/run installs Debian's caddy package")
        pytest.skip("caddy is not installed (apt-get install caddy)")
    adapted = subprocess.run([caddy, "adapt", "--config", str(DEPLOY / "Caddyfile"), "--adapter", "caddyfile"],  # noqa: S603
                             capture_output=True, text=True, timeout=30, check=True,
                             env={**os.environ, "DOMAIN": "tareas.example.org"})
    [server] = json.loads(adapted.stdout)["apps"]["http"]["servers"].values()
    assert server["listen"] == [":443"]
    assert '"host": ["tareas.example.org"]' in json.dumps(server)
    assert '"dial": "tasksvc:3000"' in json.dumps(server)


def test_admin_users_is_required_with_the_default_gating_mode() -> None:
    assert environment(SERVICE)["GROUP_GATING_MODE"] == "${GROUP_GATING_MODE:-discover}"
    with pytest.raises(AssertionError, match="ADMIN_USERS is required"):
        interpolated(environment(SERVICE)["ADMIN_USERS"], {})


def names_on_the_network(service: str) -> set[str]:
    """What other containers of the project call ``service`` by: its name and its aliases on the default network."""
    networks = services()[service].get("networks", {})
    aliases = networks.get("default", {}).get("aliases", []) if isinstance(networks, dict) else []
    return {service, *aliases}


@pytest.mark.parametrize(("kind", "gateway", "port_variable"), [
    (None, GATEWAY, "SERVER_PORT"), ("evolution", GATEWAY, "SERVER_PORT"), ("waha", WAHA, "WHATSAPP_API_PORT")])
def test_gateway_kind_points_the_bot_at_that_gateway_and_the_webhook_at_the_services_proxy(
        kind: str | None, gateway: str, port_variable: str) -> None:
    values = {**EXAMPLE_VALUES, **({"GATEWAY_KIND": kind} if kind else {})}
    service = environment(SERVICE)
    assert interpolated(service["GATEWAY_KIND"], values) == (kind or "evolution")  # Settings' default too
    hook = urlsplit(interpolated(service["WEBHOOK_URL"], values))
    assert (hook.hostname, hook.port, hook.path) == (SERVICE, int(service["PORT"]), "/webhook")
    api_url = interpolated(service["GATEWAY_API_URL"], values)
    assert webhook_url_check(interpolated(service["WEBHOOK_URL"], values), api_url).verdict is Verdict.OK
    api = urlsplit(api_url)
    assert api.hostname in names_on_the_network(gateway)
    assert api.port == int(environment(gateway)[port_variable])
    assert not any(api.hostname in names_on_the_network(other) for other in (GATEWAY, WAHA) if other != gateway)


def test_each_gateway_has_its_profile_and_the_rest_always_runs() -> None:
    """SPEC section 36: `evolution` runs Evolution API and its PostgreSQL, `waha` runs WAHA; COMPOSE_PROFILES in
    deploy/.env names them, and is required, so an env file from before the profiles starts no bot without a gateway."""
    assert {name: spec["profiles"] for name, spec in services().items() if "profiles" in spec} == PROFILES
    assert set(services()) - set(PROFILES) == {SERVICE, TLS}
    assert re.fullmatch(r"\$\{COMPOSE_PROFILES:\?[^}]+\}", services()[SERVICE]["labels"]["org.tasksvc.gateways"])
    assert documented_variables()["GATEWAY_KIND"] in documented_variables()["COMPOSE_PROFILES"].split(",")


def test_no_secret_is_a_variable_every_one_is_a_docker_secret_file() -> None:
    """SPEC section 40: the four secrets and the gateway's own key and password come from files, never variables
    (which `docker inspect` shows); each secret is a file of deploy/secrets/, which git and the image ignore."""
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    used = {name for name, _, _ in _REFERENCE.findall(text)}
    assert used & {*FILE_VARIABLES, "GATEWAY_DB_PASSWORD"} == set()
    assert {name: spec["file"] for name, spec in compose()["secrets"].items()} == {
        name: f"./secrets/{name}" for name in SECRETS}
    service = environment(SERVICE)
    assert (service["GATEWAY_API_KEY_FILE"], service["WEBHOOK_SECRET_FILE"]) == (
        "/run/secrets/gateway_api_key", "/run/secrets/webhook_secret")
    assert (service["METRICS_TOKEN_FILE"], service["DATABASE_URL_FILE"]) == (
        "${METRICS_TOKEN_FILE:-}", "${DATABASE_URL_FILE:-}")  # optional: named in .env when their file holds one
    assert set(services()[SERVICE]["secrets"]) == {"gateway_api_key", "webhook_secret", "metrics_token", "database_url"}
    assert environment(GATEWAY_DB)["POSTGRES_PASSWORD_FILE"] == "/run/secrets/gateway_db_password"
    assert (DEPLOY / "secrets" / ".gitignore").read_text().splitlines()[-2:] == ["*", "!.gitignore"]
    assert "deploy/secrets" in (ROOT / ".dockerignore").read_text().splitlines()


def entrypoint(service: str) -> str:
    """The service's entrypoint script, as compose hands it to the shell (``$$`` is a ``$``)."""
    command = services()[service]["entrypoint"]
    assert command[:2] in (["/bin/sh", "-c"], ["/bin/bash", "-c"])
    return str(command[2]).replace("$$", "$")


def run_entrypoint(service: str, tmp_path: Path, stub: str, env: dict[str, str]) -> dict[str, str]:
    """Run ``service``'s entrypoint with its secrets in ``tmp_path`` and ``stub`` (the image's program) replaced by
    a script that prints its environment; that environment."""
    secrets = tmp_path / "secrets"
    secrets.mkdir()
    for name in SECRETS:
        (secrets / name).write_text(f"{name}-value\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / stub).write_text("#!/bin/sh\nenv\n")
    (bin_dir / stub).chmod(0o755)
    (tmp_path / "Docker" / "scripts").mkdir(parents=True)
    (tmp_path / "Docker" / "scripts" / "deploy_database.sh").write_text("true\n")
    script = entrypoint(service).replace("/run/secrets/", f"{secrets}/").replace("exec /entrypoint.sh",
                                                                                  "exec entrypoint.sh")
    done = subprocess.run(["/bin/bash", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=30,  # noqa: S603
                          check=True, env={"PATH": f"{bin_dir}:/usr/bin:/bin", **env})
    return dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)


def test_the_gateway_reads_its_key_and_its_database_password_from_the_service_s_secrets(tmp_path: Path) -> None:
    seen = run_entrypoint(GATEWAY, tmp_path, "npm", {})
    assert seen["AUTHENTICATION_API_KEY"] == "gateway_api_key-value"  # the key tasksvc calls it with
    uri = urlsplit(seen["DATABASE_CONNECTION_URI"])
    db = environment(GATEWAY_DB)
    assert (uri.hostname, uri.port, uri.username, uri.password) == (
        GATEWAY_DB, 5432, db["POSTGRES_USER"], "gateway_db_password-value")
    assert uri.path == "/" + db["POSTGRES_DB"]
    assert environment(SERVICE)["GATEWAY_API_KEY_FILE"] == "/run/secrets/gateway_api_key"
    assert entrypoint(GATEWAY).endswith(". ./Docker/scripts/deploy_database.sh && exec npm run start:prod")


@pytest.mark.parametrize(("given", "token"), [("/run/secrets/metrics_token", "metrics_token-value"), ("", None)])
def test_caddy_reads_the_metrics_token_from_its_secret_when_it_is_named(tmp_path: Path, given: str,
                                                                        token: str | None) -> None:
    seen = run_entrypoint(TLS, tmp_path, "caddy", {"METRICS_TOKEN_FILE": given.replace(
        "/run/secrets/", f"{tmp_path}/secrets/")})
    assert seen.get("METRICS_TOKEN") == token


def test_the_public_address_comes_from_the_env_file() -> None:
    assert environment(SERVICE)["NODE_ENV"] == "production"
    assert interpolated(environment(SERVICE)["WEB_BASE_URL"], EXAMPLE_VALUES) == "https://tareas.example.org"


def test_the_service_waits_for_the_healthy_gateways_of_the_profiles_started() -> None:
    """Each gateway only when its profile runs (``required: false``: Compose skips one whose profile is off)."""
    waits = services()[SERVICE]["depends_on"]
    assert waits == {gateway: {"condition": "service_healthy", "required": False} for gateway in (GATEWAY, WAHA)}
    assert services()[GATEWAY]["depends_on"][GATEWAY_DB]["condition"] == "service_healthy"
    for name in (GATEWAY, GATEWAY_DB, WAHA):
        assert "healthcheck" in services()[name]


@pytest.mark.parametrize(("gateway", "variable", "default"), [
    (GATEWAY, "GATEWAY_PORT", 8080), (WAHA, "WAHA_PORT", 3000)])
def test_each_gateway_is_published_on_loopback_only_on_a_port_of_its_own(gateway: str, variable: str,
                                                                        default: int) -> None:
    [port] = services()[gateway]["ports"]
    assert str(port) == f"127.0.0.1:${{{variable}:-{default}}}:8080"
    assert documented_variables()[variable] == str(default)


def test_waha_gets_only_variables_it_knows_and_what_the_bot_needs_of_it() -> None:
    """GOWS, groups not ignored, the session named GATEWAY_API_INSTANCE started with the container; no global
    webhook (the bot sets the session's, signed with WEBHOOK_SECRET) and the media files' default lifetime."""
    env = environment(WAHA)
    assert set(env) - WAHA_VARIABLES == set()
    assert env["WHATSAPP_DEFAULT_ENGINE"] == "GOWS"
    assert env["WAHA_SESSION_CONFIG_IGNORE_GROUPS"] == "false"
    assert env["WHATSAPP_START_SESSION"] == environment(SERVICE)["GATEWAY_API_INSTANCE"]
    assert not any(name.startswith("WHATSAPP_HOOK_") for name in env)
    assert "WHATSAPP_FILES_LIFETIME" not in env
    assert urlsplit(env["WAHA_BASE_URL"]).port == int(env["WHATSAPP_API_PORT"])
    assert services()[WAHA]["deploy"]["resources"]["limits"]["memory"] == "768M"


def test_waha_s_api_key_is_the_secret_the_service_calls_it_with(tmp_path: Path) -> None:
    seen = run_entrypoint(WAHA, tmp_path, "entrypoint.sh", {})
    assert seen["WAHA_API_KEY"] == seen["WAHA_DASHBOARD_PASSWORD"] == "gateway_api_key-value"
    assert services()[WAHA]["secrets"] == ["gateway_api_key"]  # the webhook's HMAC key reaches WAHA through the bot
    assert entrypoint(WAHA).endswith("exec /entrypoint.sh")
    probe = " ".join(services()[WAHA]["healthcheck"]["test"])
    assert "/run/secrets/gateway_api_key" in probe
    assert "http://127.0.0.1:8080/ping" in probe


def test_the_backup_instructions_name_every_volume_and_the_paths_compose_uses() -> None:
    operations = (ROOT / "docs" / "operations.md").read_text(encoding="utf-8")
    backups = operations.split("## Backups", 1)[1].split("## Calendars", 1)[0]
    for volume in compose()["volumes"]:
        assert f"`{volume}`" in backups, f"docs/operations.md does not say how {volume} is backed up"
    for prefixed in re.findall(r"-v (\w+)_([\w-]+):", backups):
        assert prefixed[0] == compose()["name"]
        assert prefixed[1] in compose()["volumes"]
    data, backup_dir = (path.split(":")[1] for path in services()[SERVICE]["volumes"])
    assert f"{backup_dir}/tasks-" in backups
    assert f"{data}/tasks.db" in backups
    assert environment(SERVICE)["DATA_DIR"] == data
