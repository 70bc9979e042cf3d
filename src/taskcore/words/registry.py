"""The lexicons' registry: the one place that says which languages the product speaks and reads (SPEC sections 24,
29 and 37). Settings, the pages' language menu, ``Accept-Language``, the CLI, the catalogs' toolchain and the places'
names all read ``LANGUAGES`` from here; a language's own name comes from CLDR (``taskcore.languages``).

A language is one lexicon file (``es.py``), its catalogs and one line of ``TABLES``. ``signs.py`` holds what every
language writes alike (the emoji of reactions and replies, the bot's marks) and is read with each.
"""

from __future__ import annotations

from collections.abc import Mapping

from taskcore.words import en, es, pt, signs

TABLES: dict[str, Mapping[str, tuple[str, ...]]] = {"es": es.WORDS, "pt": pt.WORDS, "en": en.WORDS}
"""Each language's lexicon by its code, the default first: a language is one line here."""

LANGUAGES: tuple[str, ...] = tuple(TABLES)
"""The languages the product speaks and reads, the default first (``es``): the registry's, as shipped. A test's toy
language added with ``add_language`` is read but not spoken (it has no catalogs)."""

SHARED: Mapping[str, tuple[str, ...]] = signs.WORDS
"""The signs every language writes alike, read with every lexicon."""
