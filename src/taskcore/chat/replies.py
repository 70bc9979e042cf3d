"""Every text the bot writes in the chat, in one place so they can be read, listed and reviewed together.

Short, one idea per line; dates as dd/MM (D4) in every language. Functions take plain values and return the text in
the language in force (``taskcore.i18n``); the constants are message ids, marked with ``N_`` and shown with ``_``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import date
from datetime import time as dt_time

from taskcore.chat.quiet_replies import away_mark
from taskcore.chat.usage import MAX_COMMAND_LENGTH
from taskcore.date_hints import hint_lines, shown_due
from taskcore.i18n import N_, _, clock_time, day_and_month
from taskcore.model import Series, Task
from taskcore.recurrence import rule_text

SHORT_DESCRIPTION = 80
FREQ_NAMES = {"daily": N_("cada día"), "weekdays": N_("de lunes a viernes"), "weekly": N_("los lunes")}
WEB_IN_PRIVATE = N_("Te lo envío por privado.")
WEB_UNAVAILABLE = N_("El acceso web no está disponible: falta configurar WEB_BASE_URL.")
CALENDAR_UNAVAILABLE = N_("El calendario no está disponible: falta configurar WEB_BASE_URL.")
CALENDAR_REVOKED = N_("Calendario desactivado: su dirección ya no funciona.")
NO_CALENDAR = N_("No tenías ningún calendario activo.")
REMINDERS_OFF = N_("Recordatorios desactivados.")
NO_GROUP_TASKS = N_("No hay tareas abiertas en este grupo.")
NO_MY_TASKS = N_("No tienes tareas abiertas.")
PERSONAL_HEADING = N_("Personales")
NOBODY = N_("sin asignar")
NAMELESS = N_("alguien")
FAILED = N_("No he podido hacerlo; inténtalo de nuevo en un momento.")
EACH_ONLY_IN_GROUPS = N_("!todos solo vale en un grupo: en privado la tarea es solo tuya.")
MODE_ONLY_IN_GROUPS = N_("El modo (todos|uno) solo se aplica a tareas de grupo.")
# A mention or typed number that is not a member: never repeated, never said whose it is (SPEC section 38).
PERSON_UNKNOWN = N_("No encuentro a esa persona en el grupo. Nada hecho; elige a la persona en la lista de @ de "
                    "WhatsApp.")
ROTATION_NEEDS_GROUP = N_("Los turnos (!turnos) necesitan un grupo y al menos dos personas mencionadas.")


def too_long() -> str:
    """A message too long to be a command."""
    return _("Ese mensaje es demasiado largo para una orden: como mucho {limit} caracteres.", limit=MAX_COMMAND_LENGTH)


def short(text: str, limit: int = SHORT_DESCRIPTION) -> str:
    """The text cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _due(day: date | None) -> str:
    return _(" (vence {date})", date=day_and_month(day)) if day else ""


def _repeats(series: Series | None) -> str:
    return f" ↻ {rule_text(series)}" if series else ""


def nobody() -> str:
    """Who has a task nobody has."""
    return _(NOBODY)


def nameless(name: str | None) -> str:
    """A person's name, or "alguien" when the bot knows none."""
    return name or _(NAMELESS)


def created(
    task_id: int, description: str, due: date | None, assignee_tags: Sequence[str], *, in_group: bool,
    each: bool = False,
    series: Series | None = None,
    points: int = 1,
    today: date | None = None,
) -> str:
    """/t nueva; with !todos each assignee completes their part; a recurring task names its rule, and with turns
    everyone taking them, in order; then its points when not one, and (given ``today``) the date hints."""
    head = _("Tarea #{id} creada: {text}", id=task_id, text=short(description)) + _due(due) + _repeats(series)
    if in_group:
        if series and series.rotation and series.balanced:  # !reparto: named as a fair share (SPEC section 39)
            who = _("Reparto justo: {people}", people=", ".join(assignee_tags))
        elif series and series.rotation:
            who = _("Por turnos: {people}", people=", ".join(assignee_tags))
        else:
            who = _("Para {people}", people=", ".join(assignee_tags)) if assignee_tags else nobody().capitalize()
        head = f"{head}. {who}" + (_(" (cada uno su parte)") if each else "")
    hints = "" if today is None else hint_lines(task_id, due, description, today)
    return head + points_note(points) + hints


def points_note(points: int) -> str:
    """What ``/t nueva`` adds when the task is worth more (or less) than one point."""
    return "" if points == 1 else _(" · {points} puntos", points=points)


def completed(task: Task, next_task: Task | None = None) -> str:
    """/t x, one task completed now; for a recurring one, the next occurrence it created."""
    done = _("Tarea #{id} completada: {text}", id=task.id, text=short(task.description))
    return done if next_task is None else f"{done}\n{next_occurrence(next_task)}"


def next_occurrence(task: Task, tags: Sequence[str] = ()) -> str:
    """The occurrence a completion created: "Próxima: #M, dd/MM", and whose turn it is when people take turns (as
    ``tags`` mention them, else by name)."""
    day = day_and_month(task.due_date) if task.due_date else _("sin fecha")
    turn = ""
    if task.recurrence and task.recurrence.rotation:
        people = ", ".join(tags or [nameless(p.name) for p in task.assignees]) or nobody()
        turn = _(" · le toca a {people}", people=people)
    return _("Próxima: #{id}, {date}", id=task.id, date=day) + turn


def series_stopped(task: Task) -> str:
    """/t parar."""
    return _("La tarea #{id} ya no se repite; esta sigue abierta.", id=task.id)


def not_recurring(task_id: int) -> str:
    """/t parar on a task that does not repeat."""
    return _("La tarea #{id} no se repite.", id=task_id)


def part_done(name: str | None, task_id: int, done: int, total: int) -> str:
    """/t x (or ✅) by an assignee of a shared task that others have still to do."""
    return _("{name} ha terminado su parte de la tarea #{id} ({done}/{total}).", name=nameless(name).capitalize(),
             id=task_id, done=done, total=total)


def last_part_done(name: str | None, task: Task) -> str:
    """/t x (or ✅) that finishes the last part of a shared task."""
    total = len(task.assignees)
    return _("{name} ha terminado la última parte ({total}/{total}). Tarea #{id} completada: {text}",
             name=nameless(name).capitalize(), total=total, id=task.id, text=short(task.description))


def part_already_done(task_id: int, done: int, total: int) -> str:
    """/t x by an assignee whose part was done already."""
    return _("Ya habías terminado tu parte de la tarea #{id} ({done}/{total}).", id=task_id, done=done, total=total)


def completed_by_the_rest(task: Task) -> str:
    """Added to /t soltar when the parts left were all done: the shared task is completed."""
    return _("Las partes que quedan ya estaban hechas: tarea #{id} completada.", id=task.id)


def mode_set(task: Task) -> str:
    """/t modo."""
    if task.each:
        done, total = task.progress
        return _("Tarea #{id}: ahora cada responsable completa su parte ({done}/{total}).", id=task.id, done=done,
                 total=total)
    return _("Tarea #{id}: ahora basta con que una persona la complete.", id=task.id)


def already_completed(task_id: int) -> str:
    """/t x on a completed task, or any change to one (Conflict)."""
    return _("La tarea #{id} ya está completada.", id=task_id)


def not_found(task_id: int) -> str:
    """A task that does not exist or is not visible (NotFound)."""
    return _("No encuentro la tarea #{id}.", id=task_id)


def not_in_this_group(task_id: int) -> str:
    """A task of another group, or personal, named in a group: not shown there."""
    return _("No encuentro la tarea #{id} en este grupo.", id=task_id)


def forbidden(task_id: int) -> str:
    """Forbidden: only an assignee may complete a personal task."""
    return _("Solo quien tiene asignada la tarea #{id} puede completarla.", id=task_id)


def claimed(task: Task) -> str:
    """/t tomar."""
    return _("Te quedas la tarea #{id}: {text}", id=task.id, text=short(task.description))


def unassigned(task: Task) -> str:
    """/t soltar."""
    return _("Sueltas la tarea #{id}: {text}", id=task.id, text=short(task.description))


def due_set(task: Task) -> str:
    """/t fecha."""
    if task.due_date is None:
        return _("La tarea #{id} ya no tiene fecha.", id=task.id)
    return _("La tarea #{id} vence el {date}.", id=task.id, date=day_and_month(task.due_date))


def edited(task: Task) -> str:
    """/t editar."""
    return _("Tarea #{id} cambiada: {text}", id=task.id, text=short(task.description))


def reminders_set(freq: str, time: str, zone: str) -> str:
    """/t recordatorios: the choice confirmed, naming the zone the hour is read in (SPEC section 23)."""
    if freq == "off":
        return _(REMINDERS_OFF)
    hour, _colon, minute = time.partition(":")
    shown = clock_time(dt_time(int(hour), int(minute))) if hour.isdigit() and minute.isdigit() else time
    return _("Recordatorios {when} a las {time} (hora de {zone}).", when=_(FREQ_NAMES[freq]), time=shown, zone=zone)


def web_link(url: str) -> str:
    """/t web, by direct message."""
    return _("Tu enlace para entrar en la web (vale 15 minutos, un solo uso):\n{url}", url=url)


def calendar_link(url: str) -> str:
    """/t calendario, by direct message."""
    return _("Tu calendario de tareas: suscríbete a esta dirección desde Google Calendar, Apple Calendar o "
             "Thunderbird (no la compartas):\n{url}\nSi tenías otra, ya no funciona. Para desactivarlo: "
             "/t calendario borrar", url=url)


def throttled(seconds: int) -> str:
    """The rate limit's one notice per empty spell."""
    return _("Demasiadas órdenes, espera {seconds} s.", seconds=seconds)


def task_line(task: Task, *, group: bool, today: date, away: Mapping[str, date] | None = None) -> str:
    """One line of /t ver: id, description, due date (with ``(hoy)``, ``(mañana)``, ``(vencida)``), and in a group
    who has it (``away``: the last day of those away, SPEC section 25); a shared task (each mode) ticks the parts
    done (✓) and shows its progress."""
    due = f" · {shown_due(task.due_date, today)}" if task.due_date else ""
    tick, gone = " ✓" if task.each else "", away or {}
    people = ", ".join(f"{nameless(p.name)}{tick if p.done else ''}{away_mark(gone[p.id]) if p.id in gone else ''}"
                       for p in task.assignees) or nobody()
    progress = _(" · {done}/{total} partes", done=task.progress[0], total=task.progress[1]) if task.each else ""
    repeats = f" · ↻ {rule_text(task.recurrence)}" if task.recurrence else ""
    return f"#{task.id} {short(task.description, 60)}{due}{repeats}" + (f" · {people}" if group else "") + progress


def list_heading(total: int, *, group: bool) -> str:
    """First line of /t ver."""
    return _("Tareas abiertas ({total}):", total=total) if group else _("Tus tareas abiertas ({total}):", total=total)


def more(count: int) -> str:
    """Last line of a list cut at its limit."""
    return _("y {count} más: /t web para verlas todas", count=count)


def name_unknown(name: str, candidates: Sequence[str]) -> str:
    """A typed ``@Name`` that is nobody in the group, or several people: nothing was done."""
    if candidates:
        return _("No sé a quién te refieres con @{name}: puede ser {people}. Nada hecho; elige a la persona en la "
                 "lista de @ de WhatsApp, así siempre funciona.", name=name, people=", ".join(candidates))
    return _("No conozco a nadie llamado @{name} en este grupo. Nada hecho; elige a la persona en la lista de @ de "
             "WhatsApp, así siempre funciona.", name=name)
