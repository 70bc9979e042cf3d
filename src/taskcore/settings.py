"""Configuration from the environment and .env (seed section 8, SPEC sections 2 and 15)."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Literal
from zoneinfo import ZoneInfo

import pydantic
from pydantic import Field, PrivateAttr, SecretStr, ValidationInfo, field_validator, model_validator
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource, SettingsConfigDict, SettingsError

from taskcore.config_lines import config_lines
from taskcore.config_types import (
    CommunityId,
    Digits,
    GroupIdSet,
    HttpUrl,
    LanguageCode,
    LogLevel,
    Port,
    TimeZoneName,
    UserIdSet,
)
from taskcore.errors import TaskcoreError
from taskcore.pacing import DEFAULT_MAX_SENDS_PER_MIN
from taskcore.secret_files import secrets_from_files

MIN_SYNC_INTERVAL_MS = 10_000
SECRET_VARIABLES = frozenset({"gateway_api_key", "webhook_secret", "metrics_token"})
# DATABASE_URL may carry a password, so its value is never echoed either.
_NEVER_ECHOED = SECRET_VARIABLES | {"database_url"}

# Set by load_settings(env) so that only the given mapping is read, never os.environ or .env.
_ONLY_GIVEN_VALUES: ContextVar[bool] = ContextVar("only_given_values", default=False)
_INTERVALS = ("group_sync_interval_ms", "group_members_sync_interval_ms")
class ConfigError(TaskcoreError):
    """Invalid configuration: one line per bad variable, naming it and what it accepts."""

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


class Settings(BaseSettings):
    """Every configuration variable; field names are the variable names in lower case."""

    model_config = SettingsConfigDict(
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        case_sensitive=False,
        env_ignore_empty=True,
        frozen=True,
    )

    gateway_kind: Literal["evolution", "waha"] = "evolution"  # SPEC section 36: the gateway behind the bot
    gateway_api_url: str | None = None
    gateway_api_instance: str | None = None
    gateway_api_key: SecretStr | None = None
    webhook_url: str | None = None
    messaging_community_id: CommunityId | None = None
    port: Port = 3000
    host: str = "0.0.0.0"  # noqa: S104 - the public port of the unit (a container's); `tasksvc dev` uses loopback
    bot_port: Port = 3007
    web_port: Port = 3008
    node_env: Literal["development", "test", "production"] = "production"
    # Resolved during validation (SPEC section 16): the value in force, never None.
    metrics_enabled: bool = Field(default=None, validate_default=True)
    rate_limit_per_min: int = Field(default=15, ge=1)
    rate_limit_burst: int = Field(default=None, ge=1, validate_default=True)
    group_sync_interval_ms: int = Field(default=86_400_000, gt=0)
    group_members_sync_interval_ms: int = Field(default=21_600_000, gt=0)
    group_members_inactive_retention_days: int = Field(default=180, ge=1)
    tz: TimeZoneName = "Europe/Madrid"
    default_language: LanguageCode = "es"  # SPEC section 24: whoever neither chose nor has a country's
    reminders_grace_minutes: int = Field(default=60, ge=0)
    group_gating_mode: Literal["off", "discover", "enforce"] = "off"
    reactions_enabled: bool = False
    reactions_scope: Literal["groups", "all"] = "groups"
    reactions_ttl_days: int = Field(default=14, ge=0)
    reaction_commands_enabled: bool = True
    rq_max_attempts: int = Field(default=6, ge=1)
    rq_reactions_max_attempts: int | None = Field(default=None, ge=1)
    rq_backoff_base_ms: int = Field(default=1000, ge=1)
    rq_backoff_max_ms: int = Field(default=300_000, ge=1)
    admin_users: UserIdSet = frozenset()
    allowed_groups: GroupIdSet = frozenset()
    notify_admins_on_discovery: bool = True
    data_dir: str = "./data"
    db_path: str | None = None
    database_url: str | None = None
    backup_dir: str | None = None
    backup_keep: int = Field(default=7, ge=1)
    migrations_log_level: Literal["silent", "error", "warn", "info", "debug"] = "info"
    web_base_url: HttpUrl | None = None
    dev_autoseed_db: bool = False
    dev_default_user: Digits | None = None
    force_schedulers: bool = False
    webhook_secret: SecretStr | None = None
    webhook_auth: Literal["secret", "none"] = "secret"
    metrics_token: SecretStr | None = None
    gateway_timeout_ms: int = Field(default=10_000, ge=1)
    gateway_max_sends_per_min: int = Field(default=DEFAULT_MAX_SENDS_PER_MIN, ge=1)
    gateway_reachout_pause_hours: int = Field(default=24, ge=0)
    gateway_max_sends_per_hour: int = Field(default=200, ge=1)
    gateway_max_sends_per_day: int = Field(default=1500, ge=1)
    gateway_warmup_days: int = Field(default=0, ge=0)
    sends_per_person_per_min: int = Field(default=6, ge=1)  # SPEC section 32
    photo_max_mb: int = Field(default=8, ge=1, le=64)  # SPEC section 34
    photo_retention_days: int = Field(default=30, ge=1)
    proxy_upstream_timeout_ms: int = Field(default=30_000, ge=1)
    webhook_store_timeout_ms: int = Field(default=3_000, ge=1)
    webhook_check_interval_ms: int = Field(default=600_000, ge=1)
    watchdog_echo_seconds: int = Field(default=120, ge=1)
    watchdog_idle_minutes: int = Field(default=60, ge=1)
    log_format: Literal["kv", "json"] = "kv"
    log_level: LogLevel = "info"

    _interval_warnings: list[str] = PrivateAttr(default_factory=list)  # read by ``interval_warnings``

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """Only the constructor's values inside load_settings(env); the usual sources otherwise."""
        if _ONLY_GIVEN_VALUES.get():
            return (init_settings,)
        return init_settings, env_settings, dotenv_settings, file_secret_settings

    @field_validator("metrics_enabled", mode="before")
    @classmethod
    def _resolve_metrics(cls, value: object, info: ValidationInfo) -> object:
        """Unset: on everywhere except in test (seed section 8)."""
        return info.data.get("node_env", "production") != "test" if value is None else value

    @field_validator("rate_limit_burst", mode="before")
    @classmethod
    def _resolve_burst(cls, value: object, info: ValidationInfo) -> object:
        """Unset: equal to RATE_LIMIT_PER_MIN (seed section 8)."""
        return info.data.get("rate_limit_per_min", 15) if value is None else value

    @field_validator("rq_backoff_max_ms")
    @classmethod
    def _check_backoff_max(cls, value: int, info: ValidationInfo) -> int:
        base = info.data.get("rq_backoff_base_ms")
        if base is not None and value < base:
            raise ValueError(f"an integer >= RQ_BACKOFF_BASE_MS ({base})")
        return value

    @model_validator(mode="after")
    def _apply_interval_floor(self) -> Settings:
        if self.node_env == "test":
            return self
        for name in _INTERVALS:
            configured: int = getattr(self, name)
            if configured < MIN_SYNC_INTERVAL_MS:
                # The model is frozen; this is the one place a value is adjusted, during validation.
                object.__setattr__(self, name, MIN_SYNC_INTERVAL_MS)
                self._interval_warnings.append(
                    f"{name.upper()}={configured} is below the minimum of {MIN_SYNC_INTERVAL_MS} ms; "
                    f"using {MIN_SYNC_INTERVAL_MS}"
                )
        return self

    @property
    def reaction_max_attempts(self) -> int:
        """Max attempts of reaction jobs: RQ_REACTIONS_MAX_ATTEMPTS, or RQ_MAX_ATTEMPTS when unset."""
        if self.rq_reactions_max_attempts is not None:
            return self.rq_reactions_max_attempts
        return self.rq_max_attempts

    @property
    def interval_warnings(self) -> list[str]:
        """The sync intervals raised to their floor (``config_warnings.startup_warnings`` says so at start)."""
        return list(self._interval_warnings)

    @property
    def zone(self) -> ZoneInfo:
        """The reminder time zone (TZ)."""
        return ZoneInfo(self.tz)

    @property
    def database_path(self) -> Path:
        """Absolute path of the SQLite file: DB_PATH if set, else DATA_DIR/tasks.db (relative to the cwd)."""
        chosen = self.db_path if self.db_path is not None else os.path.join(self.data_dir, "tasks.db")
        return Path(os.path.abspath(chosen))

    @property
    def sqlalchemy_url(self) -> str:
        """DATABASE_URL if set, else a SQLite URL for database_path."""
        return self.database_url if self.database_url is not None else f"sqlite:///{self.database_path}"

    @property
    def backups_enabled(self) -> bool:
        """True when the bot writes the daily backup: BACKUP_DIR set and the database SQLite."""
        return self.backup_dir is not None and self.database_url is None

    @property
    def migrations_silent(self) -> bool:
        """True when MIGRATIONS_LOG_LEVEL is silent, and always in test."""
        return self.migrations_log_level == "silent" or self.node_env == "test"

    @property
    def default_user(self) -> str | None:
        """DEV_DEFAULT_USER in development; None anywhere else."""
        return self.dev_default_user if self.node_env == "development" else None

    @property
    def schedulers_enabled(self) -> bool:
        """Schedulers run outside test, and in test only with FORCE_SCHEDULERS."""
        return self.node_env != "test" or self.force_schedulers

def load_settings(env: Mapping[str, str] | None = None, *, env_file: str | None = ".env") -> Settings:
    """Settings from exactly ``env`` when given, else from the process environment and ``env_file``."""
    seen = env if env is not None else {**dotenv_variables(env_file), **os.environ}
    found, unreadable = secrets_from_files(seen)
    from_files: dict[str, Any] = dict(found)
    if unreadable:
        raise ConfigError(unreadable)
    token = _ONLY_GIVEN_VALUES.set(env is not None)
    try:
        if env is None:
            return Settings(_env_file=env_file, **from_files)
        return Settings(**_given_values(env), **from_files)
    except pydantic.ValidationError as exc:
        raise ConfigError(config_lines(exc, Settings.model_fields, never_echoed=_NEVER_ECHOED)) from exc
    except SettingsError as exc:
        raise ConfigError([str(exc)]) from exc
    finally:
        _ONLY_GIVEN_VALUES.reset(token)


def dotenv_variables(env_file: str | None = ".env") -> dict[str, str]:
    """The variables ``env_file`` sets (empty when there is no such file)."""
    if env_file is None or not Path(env_file).is_file():
        return {}
    from dotenv import dotenv_values  # noqa: PLC0415 - pydantic-settings' own reader of .env, only when there is one

    return {key: value for key, value in dotenv_values(env_file).items() if value is not None}


def present_variables(settings: Settings) -> dict[str, bool]:
    """For every variable name in upper case, whether it was set (never the values)."""
    return {name.upper(): name in settings.model_fields_set for name in type(settings).model_fields}


def _given_values(env: Mapping[str, str]) -> dict[str, Any]:
    # Only known variables pass, so a key can never reach the constructor's underscore options.
    lowered = {key.lower(): value for key, value in env.items() if value != ""}
    return {name: value for name, value in lowered.items() if name in Settings.model_fields}
