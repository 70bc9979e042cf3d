"""Configuration variables (seed section 8; SPEC sections 2 and 15): defaults, derived values, errors."""

from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pydantic
import pytest

from taskcore.config_warnings import bot_refusals, startup_warnings
from taskcore.errors import TaskcoreError
from taskcore.settings import ConfigError, Settings, load_settings, present_variables

SECRETS = {
    "GATEWAY_API_KEY": "key-s3cr3t-value",
    "WEBHOOK_SECRET": "hook-s3cr3t-value",
    "METRICS_TOKEN": "metrics-s3cr3t-value",
}


def config_lines(env: dict[str, Any]) -> list[str]:
    """The ConfigError lines load_settings raises for ``env``."""
    with pytest.raises(ConfigError) as caught:
        load_settings(env)
    return caught.value.lines


# Defaults


def test_ports_default_to_3000_3007_and_3008() -> None:
    settings = load_settings({})
    assert (settings.port, settings.bot_port, settings.web_port) == (3000, 3007, 3008)


def test_node_env_defaults_to_production() -> None:
    assert load_settings({}).node_env == "production"


def test_rate_limit_per_min_defaults_to_15() -> None:
    assert load_settings({}).rate_limit_per_min == 15


def test_group_sync_runs_every_24_hours_by_default() -> None:
    assert load_settings({}).group_sync_interval_ms == 86_400_000


def test_member_sync_runs_every_6_hours_by_default() -> None:
    assert load_settings({}).group_members_sync_interval_ms == 21_600_000


def test_inactive_members_are_kept_180_days_by_default() -> None:
    assert load_settings({}).group_members_inactive_retention_days == 180


def test_tz_defaults_to_europe_madrid() -> None:
    assert load_settings({}).tz == "Europe/Madrid"


def test_default_language_is_spanish_and_accepts_the_three_languages() -> None:
    assert load_settings({}).default_language == "es"
    assert load_settings({"DEFAULT_LANGUAGE": "pt"}).default_language == "pt"
    assert load_settings({"DEFAULT_LANGUAGE": "en"}).default_language == "en"


def test_another_default_language_stops_the_start_naming_the_variable() -> None:
    lines = config_lines({"DEFAULT_LANGUAGE": "fr"})
    assert any("DEFAULT_LANGUAGE" in line for line in lines), lines


def test_reminders_grace_defaults_to_60_minutes() -> None:
    assert load_settings({}).reminders_grace_minutes == 60


def test_group_gating_mode_defaults_to_off() -> None:
    assert load_settings({}).group_gating_mode == "off"


def test_reactions_default_to_disabled_in_groups_for_14_days() -> None:
    settings = load_settings({})
    assert (settings.reactions_enabled, settings.reactions_scope, settings.reactions_ttl_days) == (
        False,
        "groups",
        14,
    )


def test_queue_defaults_to_6_attempts_with_backoff_from_1_s_to_5_min() -> None:
    settings = load_settings({})
    assert (settings.rq_max_attempts, settings.rq_backoff_base_ms, settings.rq_backoff_max_ms) == (
        6,
        1000,
        300_000,
    )


def test_admin_users_and_allowed_groups_default_to_empty() -> None:
    settings = load_settings({})
    assert (settings.admin_users, settings.allowed_groups) == (frozenset(), frozenset())


def test_admins_are_notified_on_discovery_by_default() -> None:
    assert load_settings({}).notify_admins_on_discovery is True


def test_data_dir_defaults_to_dot_data() -> None:
    assert load_settings({}).data_dir == "./data"


def test_migrations_log_level_defaults_to_info() -> None:
    assert load_settings({}).migrations_log_level == "info"


@pytest.mark.parametrize(("given", "level"), [("warn", "warning"), ("warning", "warning"), ("WARN", "warning"),
                                              ("Error", "error"), ("debug", "debug")])
def test_log_level_takes_warn_and_warning_in_any_case(given: str, level: str) -> None:
    assert load_settings({"LOG_LEVEL": given}).log_level == level


def test_log_level_refuses_a_word_it_does_not_know() -> None:
    with pytest.raises(ConfigError, match="LOG_LEVEL"):
        load_settings({"LOG_LEVEL": "loud"})


def test_development_switches_default_to_off() -> None:
    settings = load_settings({})
    assert (settings.dev_autoseed_db, settings.force_schedulers) == (False, False)


def test_gateway_times_out_after_10_s_and_the_proxy_upstream_after_30_s_by_default() -> None:
    settings = load_settings({})
    assert (settings.gateway_timeout_ms, settings.proxy_upstream_timeout_ms) == (10_000, 30_000)


def test_log_format_defaults_to_key_value() -> None:
    assert load_settings({}).log_format == "kv"


@pytest.mark.parametrize(
    "name",
    [
        "gateway_api_url",
        "gateway_api_instance",
        "gateway_api_key",
        "webhook_url",
        "messaging_community_id",
        "rq_reactions_max_attempts",
        "db_path",
        "database_url",
        "web_base_url",
        "dev_default_user",
        "webhook_secret",
        "metrics_token",
    ],
)
def test_variables_without_a_default_are_unset(name: str) -> None:
    assert getattr(load_settings({}), name) is None


# Reading the environment


def test_variable_names_are_case_insensitive() -> None:
    assert load_settings({"Rate_Limit_Per_Min": "20"}).rate_limit_per_min == 20


def test_an_empty_variable_counts_as_unset() -> None:
    assert load_settings({"RATE_LIMIT_PER_MIN": "", "PORT": ""}).port == 3000


def test_unknown_variables_are_ignored() -> None:
    assert load_settings({"HOME": "/root", "SOMETHING_ELSE": "x"}).port == 3000


def test_a_given_mapping_ignores_the_process_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BOT_PORT", "4000")
    assert load_settings({}).bot_port == 3007


def test_a_given_mapping_ignores_the_env_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    (tmp_path / ".env").write_text("BOT_PORT=4000\n")
    monkeypatch.chdir(tmp_path)
    assert load_settings({}).bot_port == 3007


def test_a_given_mapping_cannot_reach_the_constructor_options(tmp_path: Path) -> None:
    (tmp_path / "x.env").write_text("BOT_PORT=4000\n")
    assert load_settings({"_ENV_FILE": str(tmp_path / "x.env")}).bot_port == 3007


@pytest.fixture
def clean_environ(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The process environment without any configuration variable."""
    for name in Settings.model_fields:
        monkeypatch.delenv(name.upper(), raising=False)
    return monkeypatch


def test_without_a_mapping_the_process_environment_is_read(clean_environ: pytest.MonkeyPatch) -> None:
    clean_environ.setenv("ADMIN_USERS", "+34 600 11 22 33,15550100001@s.whatsapp.net")
    assert load_settings(env_file=None).admin_users == frozenset({"34600112233", "15550100001"})


def test_without_a_mapping_the_env_file_is_read(clean_environ: pytest.MonkeyPatch, tmp_path: Path) -> None:
    env_file = tmp_path / "custom.env"
    env_file.write_text("WEB_PORT=4010\nRATE_LIMIT_BURST=\n")
    settings = load_settings(env_file=str(env_file))
    assert (settings.web_port, settings.rate_limit_burst) == (4010, 15)  # an empty value counts as unset


def test_the_process_environment_wins_over_the_env_file(
    clean_environ: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    env_file = tmp_path / ".env"
    env_file.write_text("WEB_PORT=4010\n")
    clean_environ.setenv("WEB_PORT", "4020")
    assert load_settings(env_file=str(env_file)).web_port == 4020


def test_settings_are_frozen() -> None:
    settings = load_settings({})
    with pytest.raises(pydantic.ValidationError):
        settings.port = 1  # type: ignore[misc]


def test_port_zero_means_any_free_port_and_is_accepted() -> None:
    assert load_settings({"PORT": "0"}).port == 0


# Parsed values


def test_admin_users_are_normalised_to_digits() -> None:
    settings = load_settings({"ADMIN_USERS": " +34 600 11 22 33 , 198765432100001@lid,, "})
    assert settings.admin_users == frozenset({"34600112233", "198765432100001"})


def test_allowed_groups_are_parsed_into_group_ids() -> None:
    settings = load_settings({"ALLOWED_GROUPS": "120363012345678901@g.us, 34600112233-1600000000@g.us"})
    assert settings.allowed_groups == frozenset({"120363012345678901@g.us", "34600112233-1600000000@g.us"})


def test_messaging_community_id_is_normalised() -> None:
    assert load_settings({"MESSAGING_COMMUNITY_ID": " 120363@g.us "}).messaging_community_id == "120363@g.us"


def test_web_base_url_loses_its_trailing_slash() -> None:
    assert load_settings({"WEB_BASE_URL": "https://tasks.example.org/"}).web_base_url == (
        "https://tasks.example.org"
    )


# Derived values


@pytest.mark.parametrize("node_env", ["development", "production"])
def test_metrics_are_on_by_default_outside_test(node_env: str) -> None:
    assert load_settings({"NODE_ENV": node_env}).metrics_enabled is True


def test_metrics_are_off_by_default_in_test() -> None:
    assert load_settings({"NODE_ENV": "test"}).metrics_enabled is False


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("1", True), ("false", False), ("0", False)])
def test_metrics_enabled_overrides_the_node_env_default(value: str, expected: bool) -> None:
    node_env = "production" if not expected else "test"
    assert load_settings({"NODE_ENV": node_env, "METRICS_ENABLED": value}).metrics_enabled is expected


def test_rate_limit_burst_defaults_to_rate_limit_per_min() -> None:
    assert load_settings({"RATE_LIMIT_PER_MIN": "30"}).rate_limit_burst == 30


def test_rate_limit_burst_when_set_is_the_bucket_capacity() -> None:
    assert load_settings({"RATE_LIMIT_PER_MIN": "30", "RATE_LIMIT_BURST": "5"}).rate_limit_burst == 5


def test_reaction_attempts_fall_back_to_rq_max_attempts() -> None:
    assert load_settings({"RQ_MAX_ATTEMPTS": "9"}).reaction_max_attempts == 9


def test_rq_reactions_max_attempts_when_set_wins() -> None:
    settings = load_settings({"RQ_MAX_ATTEMPTS": "9", "RQ_REACTIONS_MAX_ATTEMPTS": "2"})
    assert settings.reaction_max_attempts == 2


def test_zone_is_the_zoneinfo_of_tz() -> None:
    assert load_settings({"TZ": "America/New_York"}).zone == ZoneInfo("America/New_York")


def test_database_path_defaults_to_tasks_db_in_data_dir_under_the_cwd(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_settings({}).database_path == tmp_path / "data" / "tasks.db"


def test_database_path_follows_an_absolute_data_dir(tmp_path: Path) -> None:
    assert load_settings({"DATA_DIR": str(tmp_path)}).database_path == tmp_path / "tasks.db"


def test_db_path_takes_precedence_over_data_dir(tmp_path: Path) -> None:
    settings = load_settings({"DATA_DIR": str(tmp_path / "ignored"), "DB_PATH": str(tmp_path / "x.db")})
    assert settings.database_path == tmp_path / "x.db"


def test_a_relative_db_path_is_relative_to_the_cwd(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    assert load_settings({"DB_PATH": "db/../store/t.db"}).database_path == tmp_path / "store" / "t.db"


def test_database_path_is_not_created(tmp_path: Path) -> None:
    _ = load_settings({"DATA_DIR": str(tmp_path / "missing")}).database_path
    assert not (tmp_path / "missing").exists()


def test_sqlalchemy_url_defaults_to_sqlite_on_database_path(tmp_path: Path) -> None:
    settings = load_settings({"DB_PATH": str(tmp_path / "t.db")})
    assert settings.sqlalchemy_url == f"sqlite:///{tmp_path / 't.db'}"


def test_database_url_takes_precedence_over_both_paths(tmp_path: Path) -> None:
    url = "postgresql+psycopg://tasks:pw@db/tasks"
    settings = load_settings({"DATABASE_URL": url, "DB_PATH": str(tmp_path / "t.db"), "DATA_DIR": "/d"})
    assert settings.sqlalchemy_url == url


def test_migrations_are_silent_when_the_level_is_silent() -> None:
    assert load_settings({"MIGRATIONS_LOG_LEVEL": "silent"}).migrations_silent is True


def test_migrations_are_always_silent_in_test() -> None:
    assert load_settings({"NODE_ENV": "test", "MIGRATIONS_LOG_LEVEL": "debug"}).migrations_silent is True


def test_migrations_log_at_other_levels_outside_test() -> None:
    assert load_settings({"MIGRATIONS_LOG_LEVEL": "warn"}).migrations_silent is False


def test_the_default_user_applies_in_development() -> None:
    settings = load_settings({"NODE_ENV": "development", "DEV_DEFAULT_USER": "34600112233"})
    assert settings.default_user == "34600112233"


@pytest.mark.parametrize("node_env", ["test", "production"])
def test_the_default_user_is_ignored_outside_development(node_env: str) -> None:
    settings = load_settings({"NODE_ENV": node_env, "DEV_DEFAULT_USER": "34600112233"})
    assert settings.default_user is None


def test_schedulers_run_outside_test() -> None:
    assert load_settings({"NODE_ENV": "development"}).schedulers_enabled is True


def test_schedulers_do_not_run_in_test() -> None:
    assert load_settings({"NODE_ENV": "test"}).schedulers_enabled is False


def test_force_schedulers_starts_them_in_test() -> None:
    assert load_settings({"NODE_ENV": "test", "FORCE_SCHEDULERS": "true"}).schedulers_enabled is True


# Sync interval floor


@pytest.mark.parametrize("node_env", ["development", "production"])
def test_a_sync_interval_below_10_s_is_raised_to_10_s_outside_test(node_env: str) -> None:
    settings = load_settings({"NODE_ENV": node_env, "GROUP_SYNC_INTERVAL_MS": "500"})
    assert settings.group_sync_interval_ms == 10_000


def test_raising_a_sync_interval_is_warned_about() -> None:
    settings = load_settings({"NODE_ENV": "development", "GROUP_MEMBERS_SYNC_INTERVAL_MS": "500"})
    assert startup_warnings(settings) == [
        "GROUP_MEMBERS_SYNC_INTERVAL_MS=500 is below the minimum of 10000 ms; using 10000"
    ]


def test_sync_intervals_below_10_s_are_kept_in_test() -> None:
    settings = load_settings({"NODE_ENV": "test", "GROUP_SYNC_INTERVAL_MS": "50"})
    assert (settings.group_sync_interval_ms, startup_warnings(settings)) == (50, [])


def test_a_sync_interval_of_exactly_10_s_is_kept_without_a_warning() -> None:
    settings = load_settings({"NODE_ENV": "development", "GROUP_SYNC_INTERVAL_MS": "10000"})
    assert (settings.group_sync_interval_ms, startup_warnings(settings)) == (10_000, [])


# Startup warnings


def test_production_without_a_webhook_secret_is_refused_naming_it_and_the_way_out() -> None:
    (line,) = bot_refusals(load_settings({}))
    assert line.startswith("WEBHOOK_SECRET: required in production")
    assert "WEBHOOK_AUTH=none" in line


@pytest.mark.parametrize("env", [{"WEBHOOK_SECRET": "s"}, {"WEBHOOK_AUTH": "none"}, {"NODE_ENV": "development"},
                                 {"NODE_ENV": "test"}])
def test_a_secret_webhook_auth_none_development_and_test_are_not_refused(env: dict[str, str]) -> None:
    assert bot_refusals(load_settings(env)) == []


def test_webhook_auth_defaults_to_secret_and_accepts_only_secret_or_none() -> None:
    assert load_settings({}).webhook_auth == "secret"
    assert config_lines({"WEBHOOK_AUTH": "off"}) == ["WEBHOOK_AUTH: invalid value 'off'; accepted: secret, none"]


@pytest.mark.parametrize("node_env", ["development", "test", "production"])
def test_webhook_auth_none_is_warned_about_at_every_start(node_env: str) -> None:
    warnings = startup_warnings(load_settings({"NODE_ENV": node_env, "WEBHOOK_AUTH": "none", "METRICS_TOKEN": "t"}))
    assert warnings == ["WEBHOOK_AUTH=none: /webhook accepts calls without a secret; anyone who can reach it can post "
                        "chat events as any number, admins included"]


def test_webhook_auth_none_beside_a_secret_says_the_secret_is_still_required() -> None:
    settings = load_settings({"WEBHOOK_AUTH": "none", "WEBHOOK_SECRET": "s", "METRICS_TOKEN": "t"})
    assert startup_warnings(settings) == [
        "WEBHOOK_AUTH=none has no effect while WEBHOOK_SECRET is set: /webhook still requires the secret"]


def test_production_with_a_webhook_secret_and_a_metrics_token_has_no_warning() -> None:
    assert startup_warnings(load_settings({"WEBHOOK_SECRET": "s", "METRICS_TOKEN": "t"})) == []


def test_open_metrics_in_production_are_warned_about() -> None:
    assert startup_warnings(load_settings({"WEBHOOK_SECRET": "s"})) == [
        "METRICS_TOKEN is not set in production: /metrics is open to anyone who can reach the public port; set "
        "METRICS_TOKEN, or METRICS_ENABLED=false"]


@pytest.mark.parametrize("env", [{"METRICS_ENABLED": "false"}, {"NODE_ENV": "development"},
                                 {"NODE_ENV": "test", "METRICS_ENABLED": "true"}])
def test_metrics_that_are_off_or_outside_production_are_not_warned_about(env: dict[str, str]) -> None:
    assert startup_warnings(load_settings({"WEBHOOK_SECRET": "s", **env})) == []


def test_a_default_user_outside_development_is_warned_about() -> None:
    settings = load_settings({"NODE_ENV": "test", "DEV_DEFAULT_USER": "34600112233"})
    assert startup_warnings(settings) == ["DEV_DEFAULT_USER is ignored outside development (NODE_ENV=test)"]


def test_startup_warnings_never_contain_secret_values() -> None:
    settings = load_settings({**SECRETS, "WEBHOOK_SECRET": "", "DEV_DEFAULT_USER": "1", "PORT": "1"})
    text = "\n".join(startup_warnings(settings))
    assert not any(secret in text for secret in SECRETS.values())


# Invalid configuration


@pytest.mark.parametrize(
    ("env", "line"),
    [
        ({"PORT": "70000"}, "PORT: invalid value '70000'; accepted: an integer from 0 to 65535"),
        ({"BOT_PORT": "-1"}, "BOT_PORT: invalid value '-1'; accepted: an integer from 0 to 65535"),
        ({"WEB_PORT": "web"}, "WEB_PORT: invalid value 'web'; accepted: an integer from 0 to 65535"),
        (
            {"NODE_ENV": "staging"},
            "NODE_ENV: invalid value 'staging'; accepted: development, test, production",
        ),
        ({"METRICS_ENABLED": "maybe"}, "METRICS_ENABLED: invalid value 'maybe'; accepted: true, false, 1, 0"),
        ({"RATE_LIMIT_PER_MIN": "0"}, "RATE_LIMIT_PER_MIN: invalid value '0'; accepted: an integer >= 1"),
        ({"RATE_LIMIT_BURST": "0"}, "RATE_LIMIT_BURST: invalid value '0'; accepted: an integer >= 1"),
        (
            {"GROUP_SYNC_INTERVAL_MS": "0"},
            "GROUP_SYNC_INTERVAL_MS: invalid value '0'; accepted: an integer > 0",
        ),
        (
            {"GROUP_MEMBERS_SYNC_INTERVAL_MS": "-5"},
            "GROUP_MEMBERS_SYNC_INTERVAL_MS: invalid value '-5'; accepted: an integer > 0",
        ),
        (
            {"GROUP_MEMBERS_INACTIVE_RETENTION_DAYS": "0"},
            "GROUP_MEMBERS_INACTIVE_RETENTION_DAYS: invalid value '0'; accepted: an integer >= 1",
        ),
        (
            {"TZ": "Mars/Olympus_Mons"},
            "TZ: invalid value 'Mars/Olympus_Mons'; accepted: an IANA time zone such as Europe/Madrid",
        ),
        (
            {"REMINDERS_GRACE_MINUTES": "-1"},
            "REMINDERS_GRACE_MINUTES: invalid value '-1'; accepted: an integer >= 0",
        ),
        (
            {"GROUP_GATING_MODE": "strict"},
            "GROUP_GATING_MODE: invalid value 'strict'; accepted: off, discover, enforce",
        ),
        (
            {"REACTIONS_ENABLED": "sometimes"},
            "REACTIONS_ENABLED: invalid value 'sometimes'; accepted: true, false, 1, 0",
        ),
        ({"REACTIONS_SCOPE": "dms"}, "REACTIONS_SCOPE: invalid value 'dms'; accepted: groups, all"),
        ({"REACTIONS_TTL_DAYS": "-1"}, "REACTIONS_TTL_DAYS: invalid value '-1'; accepted: an integer >= 0"),
        ({"RQ_MAX_ATTEMPTS": "0"}, "RQ_MAX_ATTEMPTS: invalid value '0'; accepted: an integer >= 1"),
        (
            {"RQ_REACTIONS_MAX_ATTEMPTS": "0"},
            "RQ_REACTIONS_MAX_ATTEMPTS: invalid value '0'; accepted: an integer >= 1",
        ),
        ({"RQ_BACKOFF_BASE_MS": "0"}, "RQ_BACKOFF_BASE_MS: invalid value '0'; accepted: an integer >= 1"),
        (
            {"RQ_BACKOFF_BASE_MS": "2000", "RQ_BACKOFF_MAX_MS": "1000"},
            "RQ_BACKOFF_MAX_MS: invalid value '1000'; accepted: an integer >= RQ_BACKOFF_BASE_MS (2000)",
        ),
        (
            {"ADMIN_USERS": "34600112233,admin"},
            "ADMIN_USERS: invalid value '***2233,admin'; "
            "accepted: comma-separated user ids or JIDs, each containing digits",
        ),
        (
            {"ALLOWED_GROUPS": "120363@g.us,family"},
            "ALLOWED_GROUPS: invalid value '120363@g.us,family'; "
            "accepted: comma-separated group ids, each <digits>@g.us or <digits>-<digits>@g.us",
        ),
        (
            {"MESSAGING_COMMUNITY_ID": "120363@s.whatsapp.net"},
            "MESSAGING_COMMUNITY_ID: invalid value '120363@s.whatsapp.net'; "
            "accepted: <digits>@g.us or <digits>-<digits>@g.us",
        ),
        (
            {"NOTIFY_ADMINS_ON_DISCOVERY": "yesplease"},
            "NOTIFY_ADMINS_ON_DISCOVERY: invalid value 'yesplease'; accepted: true, false, 1, 0",
        ),
        (
            {"MIGRATIONS_LOG_LEVEL": "loud"},
            "MIGRATIONS_LOG_LEVEL: invalid value 'loud'; accepted: silent, error, warn, info, debug",
        ),
        (
            {"WEB_BASE_URL": "tasks.example.org"},
            "WEB_BASE_URL: invalid value 'tasks.example.org'; accepted: an http:// or https:// URL",
        ),
        (
            {"WEB_BASE_URL": "ftp://x"},
            "WEB_BASE_URL: invalid value 'ftp://x'; accepted: an http:// or https:// URL",
        ),
        ({"DEV_AUTOSEED_DB": "often"}, "DEV_AUTOSEED_DB: invalid value 'often'; accepted: true, false, 1, 0"),
        (
            {"DEV_DEFAULT_USER": "+34 600"},
            "DEV_DEFAULT_USER: invalid value '+34 600'; accepted: digits only, such as 34600112233",
        ),
        (
            {"FORCE_SCHEDULERS": "please"},
            "FORCE_SCHEDULERS: invalid value 'please'; accepted: true, false, 1, 0",
        ),
        ({"GATEWAY_TIMEOUT_MS": "0"}, "GATEWAY_TIMEOUT_MS: invalid value '0'; accepted: an integer >= 1"),
        (
            {"PROXY_UPSTREAM_TIMEOUT_MS": "soon"},
            "PROXY_UPSTREAM_TIMEOUT_MS: invalid value 'soon'; accepted: an integer >= 1",
        ),
        ({"LOG_FORMAT": "xml"}, "LOG_FORMAT: invalid value 'xml'; accepted: kv, json"),
    ],
)
def test_an_invalid_variable_is_named_with_its_accepted_values(env: dict[str, str], line: str) -> None:
    assert config_lines(env) == [line]


def test_every_bad_variable_gets_its_own_line() -> None:
    assert [line.split(":")[0] for line in config_lines({"PORT": "x", "LOG_FORMAT": "xml"})] == [
        "PORT",
        "LOG_FORMAT",
    ]


def test_the_config_error_message_joins_its_lines_with_newlines() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({"PORT": "x", "LOG_FORMAT": "xml"})
    assert str(caught.value) == "\n".join(caught.value.lines)


def test_config_error_is_a_taskcore_error() -> None:
    assert issubclass(ConfigError, TaskcoreError)


def test_secret_values_never_appear_in_config_errors() -> None:
    with pytest.raises(ConfigError) as caught:
        load_settings({**SECRETS, "PORT": "x"})
    assert not any(secret in str(caught.value) for secret in SECRETS.values())


@pytest.mark.parametrize("name", sorted(SECRETS))
def test_an_invalid_secret_is_named_without_its_value(name: str) -> None:
    # Only a non-text value can be invalid; the line must still not echo it.
    assert config_lines({name: 12345678}) == [f"{name}: invalid value; accepted: a text value"]


def test_an_invalid_database_url_is_named_without_its_value() -> None:
    assert config_lines({"DATABASE_URL": 12345678}) == ["DATABASE_URL: invalid value; accepted: a text value"]


def test_secrets_do_not_appear_in_the_settings_repr() -> None:
    text = repr(load_settings(SECRETS))
    assert not any(secret in text for secret in SECRETS.values())


# Start report


def test_present_variables_names_every_variable_in_upper_case() -> None:
    assert set(present_variables(load_settings({}))) == {name.upper() for name in Settings.model_fields}


def test_present_variables_tells_set_from_unset_without_values() -> None:
    report = present_variables(load_settings({"WEBHOOK_SECRET": "s3cr3t", "port": "3100"}))
    assert (report["WEBHOOK_SECRET"], report["PORT"], report["BOT_PORT"]) == (True, True, False)


def test_a_variable_set_to_empty_is_reported_missing() -> None:
    assert present_variables(load_settings({"TZ": ""}))["TZ"] is False


@pytest.mark.parametrize("env", [{}, {"NODE_ENV": "test"}, {"RATE_LIMIT_PER_MIN": "7"}])
def test_effective_values_are_in_force_and_never_none(env: dict[str, str]) -> None:
    settings = load_settings(env)
    assert isinstance(settings.metrics_enabled, bool)
    assert settings.rate_limit_burst == int(env.get("RATE_LIMIT_PER_MIN", "15"))


def test_the_constructor_resolves_effective_values_too() -> None:
    settings = Settings(node_env="test", rate_limit_per_min=4, _env_file=None)
    assert (settings.metrics_enabled, settings.rate_limit_burst) == (False, 4)


def test_a_rejected_admin_list_is_echoed_with_its_numbers_masked() -> None:
    (line,) = config_lines({"ADMIN_USERS": "34600112233,abc"})
    assert line.startswith("ADMIN_USERS: invalid value '***2233,abc'")
