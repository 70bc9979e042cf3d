"""What people and the bot write alike in every language: emoji (SPEC sections 5 and 18).

Emoji are compared as the lexicons compare words (``taskcore.words.key``): without the variation selectors, skin
tones and joined gender signs keyboards add (``✔️`` is ``✔``, ``🙋🏽‍♀️`` is ``🙋``). The bot writes each mark as
its first spelling here.
"""

from __future__ import annotations

WORDS: dict[str, tuple[str, ...]] = {
    "reply.complete": ("✅",),  # a reply that is only ✅ completes the task
    "reply.claim": ("✋",),
    "reaction.complete": ("✅", "✔️", "☑️"),  # a reaction on a task's message (REACTION_COMMANDS_ENABLED)
    "reaction.claim": ("✋", "🙋"),
    "mark.robot": ("🤖",),  # the bot's reaction to a command that worked
    "mark.warn": ("⚠️",),  # ... to one that did not
    "mark.check": ("✅",),  # ... to a completed task's message
}
