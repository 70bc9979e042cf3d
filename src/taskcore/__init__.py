"""taskcore: the rules of the WhatsApp task service, importable by other projects (SPEC section 15).

The public names load on first use (PEP 562): ``from taskcore import Settings`` imports taskcore.settings alone, so a
process that needs one module (the proxy, the supervisor) does not hold every rule, dateutil included.
"""

from __future__ import annotations

import warnings
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from taskcore.completion import CompletionMode
    from taskcore.conversation import ConversationAction, classify_reaction_emoji, classify_reply_word
    from taskcore.dates import format_due_date, parse_due_date
    from taskcore.errors import (
        InvalidDate,
        InvalidDescription,
        InvalidRecurrence,
        InvalidTime,
        InvalidTimeZone,
        TaskcoreError,
    )
    from taskcore.identity import normalize_group_id, normalize_user_id, parse_id_list
    from taskcore.pagination import clamp_limit
    from taskcore.ratelimit import TokenBucket
    from taskcore.recurrence import Recurrence, next_occurrence, parse_recurrence
    from taskcore.reminders import ReminderFreq, normalize_reminder_time, reminder_due_slot
    from taskcore.search import escape_like
    from taskcore.settings import Settings
    from taskcore.text import sanitize_description
    from taskcore.zones import default_time_zone

# Each public name and the module that defines it.
_HOMES = {
    "CompletionMode": "completion",
    "ConversationAction": "conversation",
    "classify_reaction_emoji": "conversation",
    "classify_reply_word": "conversation",
    "format_due_date": "dates",
    "parse_due_date": "dates",
    "InvalidDate": "errors",
    "InvalidDescription": "errors",
    "InvalidRecurrence": "errors",
    "InvalidTime": "errors",
    "InvalidTimeZone": "errors",
    "TaskcoreError": "errors",
    "normalize_group_id": "identity",
    "normalize_user_id": "identity",
    "parse_id_list": "identity",
    "clamp_limit": "pagination",
    "TokenBucket": "ratelimit",
    "Recurrence": "recurrence",
    "next_occurrence": "recurrence",
    "parse_recurrence": "recurrence",
    "ReminderFreq": "reminders",
    "normalize_reminder_time": "reminders",
    "reminder_due_slot": "reminders",
    "escape_like": "search",
    "Settings": "settings",
    "sanitize_description": "text",
    "default_time_zone": "zones",
}

__all__ = [
    "CompletionMode",
    "ConversationAction",
    "InvalidDate",
    "InvalidDescription",
    "InvalidRecurrence",
    "InvalidTime",
    "InvalidTimeZone",
    "Recurrence",
    "ReminderFreq",
    "Settings",
    "TaskcoreError",
    "TokenBucket",
    "clamp_limit",
    "classify_reaction_emoji",
    "classify_reply_word",
    "default_time_zone",
    "escape_like",
    "format_due_date",
    "next_occurrence",
    "normalize_group_id",
    "normalize_reminder_time",
    "normalize_user_id",
    "parse_due_date",
    "parse_id_list",
    "parse_recurrence",
    "reminder_due_slot",
    "sanitize_description",
]


# A public name on its way out (docs/taskcore.md, "What may change"): old name -> (its module, what to use instead).
# It keeps working for one release, warning on every use; the next release removes it and its entry.
_DEPRECATED: dict[str, tuple[str, str]] = {}


def _version() -> str:
    """The installed distribution's version (``tasksvc``, which ships taskcore), read from its metadata."""
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415 - 5 MB, loaded only when asked

    try:
        return version("tasksvc")
    except PackageNotFoundError:  # a source tree that was never installed
        return "unknown"


def __getattr__(name: str) -> object:
    """A public name, imported from its module on first use and kept here; a deprecated one warns each time."""
    if name == "__version__":
        globals()[name] = found = _version()
        return found
    if name in _DEPRECATED:
        module, instead = _DEPRECATED[name]
        warnings.warn(f"taskcore.{name} is deprecated and goes in the next release: {instead}", DeprecationWarning,
                      stacklevel=2)
        return getattr(import_module(f"taskcore.{module}"), name)
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'taskcore' has no attribute {name!r}")
    value = getattr(import_module(f"taskcore.{home}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
