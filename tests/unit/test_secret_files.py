"""Secrets from files (SPEC section 33): GATEWAY_API_KEY, WEBHOOK_SECRET, METRICS_TOKEN and DATABASE_URL as
<NAME>_FILE, from the given mapping, the process environment or .env; both set, an unreadable or an empty file is
one configuration line naming the variable and the file, never the value; the process exits with status 2."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from taskcore.secret_files import FILE_VARIABLES
from taskcore.settings import ConfigError, load_settings
from tasksvc_run import exits

ROOT = Path(__file__).resolve().parents[2]


def secret(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_each_secret_is_read_from_its_file_without_the_final_newline(tmp_path: Path) -> None:
    env = {"NODE_ENV": "test"} | {f"{name}_FILE": secret(tmp_path, name, f"value-of-{name.lower()}\n")
                                  for name in FILE_VARIABLES if name != "DATABASE_URL"}
    env["DATABASE_URL_FILE"] = secret(tmp_path, "db", "postgresql+psycopg://u:pw@127.0.0.1/x\n")
    settings = load_settings(env)
    assert settings.gateway_api_key is not None
    assert settings.gateway_api_key.get_secret_value() == "value-of-gateway_api_key"
    assert settings.webhook_secret is not None
    assert settings.webhook_secret.get_secret_value() == "value-of-webhook_secret"
    assert settings.metrics_token is not None
    assert settings.metrics_token.get_secret_value() == "value-of-metrics_token"
    assert settings.database_url == "postgresql+psycopg://u:pw@127.0.0.1/x"


def test_both_set_is_an_error_naming_both_and_neither_value(tmp_path: Path) -> None:
    path = secret(tmp_path, "s", "from-the-file")
    with pytest.raises(ConfigError) as refused:
        load_settings({"WEBHOOK_SECRET": "from-the-env", "WEBHOOK_SECRET_FILE": path})
    assert refused.value.lines == ["WEBHOOK_SECRET and WEBHOOK_SECRET_FILE are both set: keep one"]


def test_an_unreadable_or_empty_file_is_named(tmp_path: Path) -> None:
    missing, empty = str(tmp_path / "nope"), secret(tmp_path, "empty", " \n")
    with pytest.raises(ConfigError) as refused:
        load_settings({"GATEWAY_API_KEY_FILE": missing, "METRICS_TOKEN_FILE": empty})
    assert refused.value.lines == [f"GATEWAY_API_KEY_FILE: cannot read {missing}: No such file or directory",
                                   f"METRICS_TOKEN_FILE: {empty} is empty"]


def test_from_the_process_environment_and_dot_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in list(os.environ):
        if name.upper().startswith(FILE_VARIABLES):
            monkeypatch.delenv(name)
    monkeypatch.setenv("NODE_ENV", "test")
    monkeypatch.setenv("GATEWAY_API_KEY_FILE", secret(tmp_path, "key", "k3y"))
    settings = load_settings(env_file=None)
    assert settings.gateway_api_key is not None
    assert settings.gateway_api_key.get_secret_value() == "k3y"
    dotenv = tmp_path / ".env"
    dotenv.write_text("GATEWAY_API_KEY=also-set-here\n")
    with pytest.raises(ConfigError, match="GATEWAY_API_KEY and GATEWAY_API_KEY_FILE are both set"):
        load_settings(env_file=str(dotenv))


def test_a_process_stops_with_status_2_and_one_line(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "NODE_ENV": "test", "DB_PATH": str(tmp_path / "t.db"),
           "METRICS_TOKEN": "tok-in-env", "METRICS_TOKEN_FILE": secret(tmp_path, "m", "tok-in-file")}
    done = subprocess.run([sys.executable, "-m", "tasksvc_run", "migrate"], env=env, capture_output=True,
                          text=True, timeout=60, check=False, cwd=tmp_path)
    assert done.returncode == exits.CONFIG
    assert done.stderr == "tasksvc: configuration error: METRICS_TOKEN and METRICS_TOKEN_FILE are both set: keep one\n"
