"""The words people type in the chat, in Spanish, Brazilian Portuguese and English (SPEC section 24).

The registry (``registry.py``) names the languages (``LANGUAGES``) and their tables. Each language has one table
(``es.py``, ``pt.py``, ``en.py``), and ``signs.py`` the emoji every language shares: a meaning (``task.nueva``,
``freq.daily``, ``weekday.0``) and the words that say it. The chat reads every language at once: a word means what
its table says whatever language the person speaks, so the grammar stays one grammar. Words are compared as ``key``
makes them: case folded, accents dropped (``amanha``, ``lingua``, ``terca``), spaces collapsed (``dias  úteis``).

A meaning is ``<kind>.<name>``; within a kind no word may mean two things (checked when the tables are read).
"""


from __future__ import annotations

from taskcore.words.lexicon import (
    KINDS,
    LANGUAGES,
    TABLES,
    add_language,
    join_phrases,
    key,
    lookup,
    meaning,
    phrase_at,
    phrase_lengths,
    plain,
    remove_language,
    split_first,
    words_of,
)

__all__ = ["KINDS", "LANGUAGES", "TABLES", "add_language", "join_phrases", "key", "lookup", "meaning", "phrase_at",
           "phrase_lengths", "plain", "remove_language", "split_first", "words_of"]
