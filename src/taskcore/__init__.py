"""taskcore: the rules of the WhatsApp task service, importable by other projects (SPEC section 15)."""

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
