"""The chat's texts of quiet hours and away (SPEC section 25), in the language in force; dates as dd/MM."""

from __future__ import annotations

from datetime import date

from taskcore.chores.quiet import QuietHours
from taskcore.i18n import N_, _, clock_time, day_and_month

QUIET_OFF = N_("Horas de silencio quitadas: te escribiré a cualquier hora.")
BACK = N_("¡Hola de nuevo! Vuelves a recibir recordatorios y avisos, y entras en los turnos.")


def quiet_set(window: QuietHours, zone: str) -> str:
    """/t silencio HH:MM-HH:MM: the window confirmed in the person's zone."""
    return _("Horas de silencio de {start} a {end} (hora de {zone}): lo que te escriba en ese rato te llegará junto "
             "al terminar.", start=clock_time(window.start), end=clock_time(window.end), zone=zone)


def away_set(until: date) -> str:
    """/t ausente <fecha>: away through that date."""
    return _("Fuera hasta el {date} (incluido): no te enviaré recordatorios ni avisos, y los turnos te saltarán.",
             date=day_and_month(until))


def away_mark(until: date) -> str:
    """What /t ver writes by the name of someone away."""
    return _(" (fuera hasta {date})", date=day_and_month(until))


def away_past(until: date) -> str:
    """/t ausente with a date already past."""
    return _("El {date} ya pasó: indica hoy o una fecha futura.", date=day_and_month(until))
