"""Each person's and each group's language (SPEC section 24): chosen, else the phone number's country's, else
DEFAULT_LANGUAGE. Pure rules: words and numbers in, language codes out.

Choices the SPEC leaves open:

- ``/t idioma`` takes the code (``es``, ``pt``, ``en``: the registry's, ``words.LANGUAGES``) or the language's name
  in any of the three languages, any case, with or without accents (``português``, ``portugues``, ``english``,
  ``inglés``: the lexicons' ``lang`` words).
- A language's name, as a text shows it, is CLDR's in the reader's language (Babel: ``español``, ``portugués``,
  ``inglés``; ``Spanish``...), and the codes a text offers are the registry's, listed as CLDR lists them
  (``es, pt o en``).
- "The language the country speaks" is the first of its languages in the CLDR territory data Babel maintains
  (official or de facto: Brazil and Portugal ``pt``, the United States and the United Kingdom ``en``, Mexico and
  Spain ``es``); a country whose first language is another (India: Hindi; Switzerland: German) gives none. As for the
  zone, the number must be a valid one for its country, so a WhatsApp LID gives none either.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from functools import lru_cache

from taskcore.errors import ValidationError
from taskcore.i18n import _, current_language
from taskcore.phones import phone_region
from taskcore.words import LANGUAGES, meaning

__all__ = ["LanguageSource", "effective_language", "language_choices", "language_name", "majority_language",
           "parse_language", "phone_language"]


class LanguageSource(StrEnum):
    """Where a person's language comes from."""

    USER = "user"  # chosen with /t idioma, the preferences API or page
    PHONE = "phone"  # the phone number's country
    DEFAULT = "default"  # DEFAULT_LANGUAGE


class InvalidLanguage(ValidationError):
    """A language code or name the bot does not speak."""


def parse_language(word: str) -> str:
    """A language code or name -> its code (one of ``LANGUAGES``); InvalidLanguage otherwise."""
    code = meaning("lang", word.strip())
    if code is None:
        raise InvalidLanguage(_("Idioma no disponible: «{word}». Elige {choices}.", word=word.strip()[:40],
                                choices=language_choices()), field="lang")
    return code


@lru_cache(maxsize=16)
def _name(code: str, reader: str) -> str:
    from babel import Locale  # noqa: PLC0415 - CLDR data loads only when a language is named

    return str(Locale.parse(code).get_display_name(reader))


def language_name(code: str) -> str:
    """A language's name in the language in force (CLDR's: ``portugués``, ``português``, ``Portuguese``)."""
    return _name(code, current_language())


def language_choices() -> str:
    """The codes of ``LANGUAGES`` as the language in force lists alternatives (CLDR's: ``es, pt o en``)."""
    from babel.lists import format_list  # noqa: PLC0415 - CLDR data loads only when a language is refused

    return format_list(list(LANGUAGES), style="or", locale=current_language())


@lru_cache(maxsize=512)
def _region_language(region: str) -> str | None:
    from babel.languages import get_official_languages  # noqa: PLC0415 - CLDR data loads only when needed

    spoken = get_official_languages(region, de_facto=True)
    return spoken[0] if spoken and spoken[0] in LANGUAGES else None


def phone_language(phone: str) -> str | None:
    """The language of the phone number's country (``"5511987654321"``: ``pt``), None when it is not one of ours
    or the digits are no valid number."""
    region = phone_region(phone)
    return None if region is None else _region_language(region)


def effective_language(chosen: str | None, user_id: str, default: str) -> tuple[str, LanguageSource]:
    """The person's language and where it comes from: chosen, else their number's country's, else ``default``."""
    if chosen in LANGUAGES:
        return chosen, LanguageSource.USER
    by_phone = phone_language(user_id)
    if by_phone is not None:
        return by_phone, LanguageSource.PHONE
    return default, LanguageSource.DEFAULT


def majority_language(read: Sequence[str], default: str) -> str:
    """The language most of ``read`` (each member's language in force) is, the group's when it chose none (SPEC
    section 39); ``default`` (the service's) when several tie for most, or there is nobody."""
    counts = Counter(read).most_common()
    if not counts or (len(counts) > 1 and counts[0][1] == counts[1][1]):
        return default
    return counts[0][0]
