"""Secrets from files (SPEC section 33): ``<NAME>_FILE`` names a file holding the value of a secret variable, as
Docker secrets (``/run/secrets/...``) and systemd credentials (``$CREDENTIALS_DIRECTORY/...``) provide them.

The file's text is the value, surrounding whitespace (the final newline of ``echo x > file``) removed. Setting both
``NAME`` and ``NAME_FILE`` is an error, as are an unreadable or empty file: one line each, naming the variable and
the file, never the value."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

FILE_VARIABLES = ("GATEWAY_API_KEY", "WEBHOOK_SECRET", "METRICS_TOKEN", "DATABASE_URL")
SUFFIX = "_FILE"


def _lookup(env: Mapping[str, str], name: str) -> str:
    """``env[name]`` in any case (settings are case-insensitive), empty when unset."""
    for key, value in env.items():
        if key.upper() == name and value:
            return value
    return ""


def secrets_from_files(env: Mapping[str, str]) -> tuple[dict[str, str], list[str]]:
    """The values of the secret variables given as ``<NAME>_FILE`` in ``env`` (by field name: ``gateway_api_key``),
    and one error line per variable that cannot be read so."""
    values: dict[str, str] = {}
    errors: list[str] = []
    for name in FILE_VARIABLES:
        path = _lookup(env, name + SUFFIX)
        if not path:
            continue
        if _lookup(env, name):
            errors.append(f"{name} and {name}{SUFFIX} are both set: keep one")
            continue
        try:
            value = Path(path).read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else "not UTF-8 text"
            errors.append(f"{name}{SUFFIX}: cannot read {path}: {reason}")
            continue
        if not value:
            errors.append(f"{name}{SUFFIX}: {path} is empty")
            continue
        values[name.lower()] = value
    return values, errors
