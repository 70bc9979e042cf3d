"""What the conversation needs to know besides the message: the settings' rules and the moment."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from zoneinfo import ZoneInfo

from taskcore.access import GatingMode
from taskcore.ratelimit import UNLIMITED, Draw
from taskcore.reactions import ReactionPolicy
from taskcore.settings import Settings

LIST_LIMIT = 20  # lines of /t ver before "y N más"


@dataclass(frozen=True, slots=True)
class ChatPolicy:
    """The settings the chat obeys: gating, administrators, discovery notices, web links, queue attempts, reactions
    (the bot's own, and whether people's reactions act: REACTION_COMMANDS_ENABLED)."""

    mode: GatingMode = GatingMode.OFF
    admins: frozenset[str] = frozenset()
    notify_admins_on_discovery: bool = True
    web_base_url: str | None = None
    max_attempts: int = 6
    reactions: ReactionPolicy = field(default_factory=ReactionPolicy)
    list_limit: int = LIST_LIMIT
    reaction_commands: bool = True
    zone: ZoneInfo = field(default_factory=lambda: ZoneInfo("Europe/Madrid"))
    """TZ: the time zone of users with neither a chosen zone nor a country's (SPEC section 21)."""
    language: str = "es"
    """DEFAULT_LANGUAGE: the language of users with neither a chosen language nor a country's (SPEC section 24)."""
    data_dir: str | None = None
    """DATA_DIR, whose ``photos`` folder keeps the photos of photo proof (SPEC section 34); None: no photo is kept."""
    photo_max_bytes: int = 8 * 1024 * 1024
    """PHOTO_MAX_MB in bytes: a photo that states a larger size is refused before it is fetched."""

    @classmethod
    def from_settings(cls, settings: Settings) -> ChatPolicy:
        """The policy the settings describe."""
        return cls(
            mode=GatingMode(settings.group_gating_mode),
            admins=settings.admin_users,
            notify_admins_on_discovery=settings.notify_admins_on_discovery,
            web_base_url=settings.web_base_url,
            max_attempts=settings.rq_max_attempts,
            reactions=ReactionPolicy.from_settings(settings),
            reaction_commands=settings.reaction_commands_enabled,
            zone=settings.zone,
            language=settings.default_language,
            data_dir=settings.data_dir,
            photo_max_bytes=settings.photo_max_mb * 1024 * 1024,
        )


@dataclass(frozen=True, slots=True)
class Moment:
    """The instant an event is handled, and the event's draw on the process's buckets
    (``taskcore.ratelimit.Allowance``, decided here in the core at the event's instant).

    ``tokens`` takes one token from a person's command bucket (RATE_LIMIT_PER_MIN); ``sends`` one of the replies a
    person's commands may get (a burst of ``send_cap.SENDS_BURST``, then SENDS_PER_PERSON_PER_MIN: SPEC 32, 38);
    ``request_sync`` starts the group and member sync when the schedulers run, and is None when they do not.
    """

    now: datetime
    tokens: Draw = UNLIMITED
    request_sync: Callable[[], None] | None = None
    sends: Draw = UNLIMITED
