"""A toy fourth language for tests/unit/test_toy_language.py: Esperanto's words for a few meanings, written as a real
language's lexicon file is (``taskcore/words/es.py``)."""

from __future__ import annotations

WORDS: dict[str, tuple[str, ...]] = {
    "family.task": ("/t", "/tasko"),
    "task.ayuda": ("helpo",),
    "task.nueva": ("nova",),
    "task.ver": ("listo",),
    "task.x": ("farita",),
    "task.fecha": ("limdato",),
    "date.today": ("hodiaŭ",),
    "date.tomorrow": ("morgaŭ",),
    "date.after_tomorrow": ("postmorgaŭ",),
    "flag.each": ("ĉiuj",),
    "flag.rotation": ("vice",),
    "rule.intro": ("ĉiu", "ĉiun"),
    "rule.joiner": ("kaj",),
    "weekday.0": ("lundo", "lundon"),
    "weekday.3": ("ĵaŭdo", "ĵaŭdon"),
    "reply.complete": ("farite",),
    "reply.claim": ("mi",),
}
