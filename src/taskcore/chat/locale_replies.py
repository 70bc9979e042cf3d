"""The chat's texts about a person's zone and language (SPEC sections 23, 24 and 30): /t zona and /t idioma, and the
note that dates and times are read in one's zone."""

from __future__ import annotations

from datetime import datetime

from taskcore.i18n import N_, _, clock_time
from taskcore.languages import LanguageSource, language_name
from taskcore.words import LANGUAGES
from taskcore.zones import UserZone, ZoneSource

ZONE_SOURCES = {ZoneSource.USER: N_("la elegiste con /t zona"), ZoneSource.PHONE: N_("la del prefijo de tu número"),
                ZoneSource.DEFAULT: N_("la del servicio")}


def zone_shown(zone: UserZone, now: datetime) -> str:
    """/t zona: the sender's zone, where it comes from, and how to change it."""
    return _("Tu zona horaria es {zone} ({source}); allí son las {time}.\n"
             "Para cambiarla: /t zona <ciudad>, p. ej. /t zona Bogota",
             zone=zone.name, source=_(ZONE_SOURCES[zone.source]), time=clock_time(now.astimezone(zone.zone)))


def zone_set(zone: UserZone, now: datetime) -> str:
    """/t zona <IANA> or /t zona sin."""
    if zone.source is ZoneSource.USER:
        return _("Tu zona horaria es ahora {zone}; allí son las {time}.", zone=zone.name,
                 time=clock_time(now.astimezone(zone.zone)))
    return _("Vuelves a la zona por defecto: {zone} ({source}).", zone=zone.name, source=_(ZONE_SOURCES[zone.source]))


LANGUAGE_SOURCES = {LanguageSource.USER: N_("lo elegiste con /t idioma"),
                    LanguageSource.PHONE: N_("el del prefijo de tu número"),
                    LanguageSource.DEFAULT: N_("el del servicio")}


def language_shown(own: str, source: LanguageSource, group: str | None) -> str:
    """/t idioma: the sender's language and where it comes from, and in a group the group's."""
    text = _("Te escribo en {language} ({source}).", language=language_name(own), source=_(LANGUAGE_SOURCES[source]))
    text += "\n" + _("Para cambiarlo: /t idioma {codes}", codes="|".join(LANGUAGES))
    if group is not None:
        text += "\n" + _("En este grupo escribo en {language}. Para cambiarlo: /t idioma grupo {codes}",
                         language=language_name(group), codes="|".join(LANGUAGES))
    return text


def language_set(code: str, *, group: bool) -> str:
    """/t idioma <code>: the choice confirmed, in the language chosen."""
    if group:
        return _("En este grupo escribo ahora en {language}.", language=language_name(code))
    return _("A partir de ahora te escribo en {language}.", language=language_name(code))


GROUP_LANGUAGE_IN_GROUPS = N_("El idioma de un grupo se elige en el grupo: /t idioma grupo <idioma>. Aquí, /t idioma "
                              "<idioma> elige el tuyo.")


def zone_used(zone: str) -> str:
    """Said once, with the first reply that read a date or a time in the person's zone (SPEC section 30)."""
    return _("🕒 Fechas y horas en tu zona horaria, {zone}. Para cambiarla: /t zona <ciudad>", zone=zone)
