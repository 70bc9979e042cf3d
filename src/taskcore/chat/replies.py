"""Every Spanish text the bot writes, in one place so they can be read, listed and reviewed together.

Short, one idea per line; dates as dd/MM (D4). Functions take plain values and return the text.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date, datetime

from taskcore.access import GroupStatus
from taskcore.chat.usage import ADMIN_HELP_TEXT, HELP_TEXT, MAX_COMMAND_LENGTH
from taskcore.dates import format_due_date
from taskcore.model import Series, Task
from taskcore.zones import UserZone, ZoneSource

__all__ = ["ADMIN_HELP_TEXT", "HELP_TEXT"]

SHORT_DESCRIPTION = 80
FREQ_NAMES = {"daily": "cada día", "weekdays": "de lunes a viernes", "weekly": "los lunes"}
STATUS_NAMES = {GroupStatus.PENDING: "pendiente", GroupStatus.ALLOWED: "permitido", GroupStatus.BLOCKED: "bloqueado"}
STATUS_PLURALS = {GroupStatus.PENDING: "pendientes", GroupStatus.ALLOWED: "permitidos",
                  GroupStatus.BLOCKED: "bloqueados"}

WEB_IN_PRIVATE = "Te lo envío por privado."
WEB_UNAVAILABLE = "El acceso web no está disponible: falta configurar WEB_BASE_URL."
CALENDAR_UNAVAILABLE = "El calendario no está disponible: falta configurar WEB_BASE_URL."
CALENDAR_REVOKED = "Calendario desactivado: su dirección ya no funciona."
NO_CALENDAR = "No tenías ningún calendario activo."
REMINDERS_OFF = "Recordatorios desactivados."
NO_GROUP_TASKS = "No hay tareas abiertas en este grupo."
NO_MY_TASKS = "No tienes tareas abiertas."
PERSONAL_HEADING = "Personales"
NOBODY = "sin asignar"
NAMELESS = "alguien"
HERE_OUTSIDE_GROUP = "«aquí» solo vale dentro de un grupo. Indica el grupo: /admin permitir <dígitos>@g.us"
SYNC_STARTED = "Sincronización de grupos y miembros en marcha."
SYNC_UNAVAILABLE = "Los procesos programados no están en marcha: no puedo sincronizar ahora."
FAILED = "No he podido hacerlo; inténtalo de nuevo en un momento."
EACH_ONLY_IN_GROUPS = "!todos solo vale en un grupo: en privado la tarea es solo tuya."
MODE_ONLY_IN_GROUPS = "El modo (todos|uno) solo se aplica a tareas de grupo."
ROTATION_NEEDS_GROUP = "Los turnos (!turnos) necesitan un grupo y al menos dos personas mencionadas."
ZONE_SOURCES = {ZoneSource.USER: "la elegiste con /t zona", ZoneSource.PHONE: "la del prefijo de tu número",
                ZoneSource.DEFAULT: "la del servicio"}
TOO_LONG = f"Ese mensaje es demasiado largo para una orden: como mucho {MAX_COMMAND_LENGTH} caracteres."


def short(text: str, limit: int = SHORT_DESCRIPTION) -> str:
    """The text cut to ``limit`` characters with an ellipsis."""
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _due(day: date | None) -> str:
    return f" (vence {format_due_date(day)})" if day else ""


def _repeats(series: Series | None) -> str:
    return f" ↻ {series.text}" if series else ""


def created(
    task_id: int, description: str, due: date | None, assignee_tags: Sequence[str], *, in_group: bool,
    each: bool = False,
    series: Series | None = None,
) -> str:
    """/t nueva; with !todos each assignee completes their part; a recurring task names its rule, and with turns
    everyone taking them, in order."""
    head = f"Tarea #{task_id} creada: {short(description)}{_due(due)}{_repeats(series)}"
    if not in_group:
        return head
    if series and series.rotation:
        who = f"Por turnos: {', '.join(assignee_tags)}"
    else:
        who = f"Para {', '.join(assignee_tags)}" if assignee_tags else NOBODY.capitalize()
    return f"{head}. {who}" + (" (cada uno su parte)" if each else "")


def completed(task: Task, next_task: Task | None = None) -> str:
    """/t x, one task completed now; for a recurring one, the next occurrence it created."""
    done = f"Tarea #{task.id} completada: {short(task.description)}"
    return done if next_task is None else f"{done}\n{next_occurrence(next_task)}"


def next_occurrence(task: Task) -> str:
    """The occurrence a completion created: "Próxima: #M, dd/MM", and whose turn it is when people take turns."""
    day = format_due_date(task.due_date) if task.due_date else "sin fecha"
    turn = ""
    if task.recurrence and task.recurrence.rotation:
        turn = f" · le toca a {', '.join(p.name or NAMELESS for p in task.assignees) or NOBODY}"
    return f"Próxima: #{task.id}, {day}{turn}"


def series_stopped(task: Task) -> str:
    """/t parar."""
    return f"La tarea #{task.id} ya no se repite; esta sigue abierta."


def not_recurring(task_id: int) -> str:
    """/t parar on a task that does not repeat."""
    return f"La tarea #{task_id} no se repite."


def zone_shown(zone: UserZone, now: datetime) -> str:
    """/t zona: the sender's zone, where it comes from, and how to change it."""
    return (f"Tu zona horaria es {zone.name} ({ZONE_SOURCES[zone.source]}); allí son las "
            f"{now.astimezone(zone.zone):%H:%M}.\nPara cambiarla: /t zona <zona IANA>, p. ej. /t zona America/Bogota")


def zone_set(zone: UserZone, now: datetime) -> str:
    """/t zona <IANA> or /t zona sin."""
    if zone.source is ZoneSource.USER:
        return f"Tu zona horaria es ahora {zone.name}; allí son las {now.astimezone(zone.zone):%H:%M}."
    return f"Vuelves a la zona por defecto: {zone.name} ({ZONE_SOURCES[zone.source]})."


def part_done(name: str | None, task_id: int, done: int, total: int) -> str:
    """/t x (or ✅) by an assignee of a shared task that others have still to do."""
    return f"{name or NAMELESS.capitalize()} ha terminado su parte de la tarea #{task_id} ({done}/{total})."


def last_part_done(name: str | None, task: Task) -> str:
    """/t x (or ✅) that finishes the last part of a shared task."""
    total = len(task.assignees)
    return (f"{name or NAMELESS.capitalize()} ha terminado la última parte ({total}/{total}). "
            f"Tarea #{task.id} completada: {short(task.description)}")


def part_already_done(task_id: int, done: int, total: int) -> str:
    """/t x by an assignee whose part was done already."""
    return f"Ya habías terminado tu parte de la tarea #{task_id} ({done}/{total})."


def completed_by_the_rest(task: Task) -> str:
    """Added to /t soltar when the parts left were all done: the shared task is completed."""
    return f"Las partes que quedan ya estaban hechas: tarea #{task.id} completada."


def mode_set(task: Task) -> str:
    """/t modo."""
    if task.each:
        done, total = task.progress
        return f"Tarea #{task.id}: ahora cada responsable completa su parte ({done}/{total})."
    return f"Tarea #{task.id}: ahora basta con que una persona la complete."


def already_completed(task_id: int) -> str:
    """/t x on a completed task, or any change to one (Conflict)."""
    return f"La tarea #{task_id} ya está completada."


def not_found(task_id: int) -> str:
    """A task that does not exist or is not visible (NotFound)."""
    return f"No encuentro la tarea #{task_id}."


def not_in_this_group(task_id: int) -> str:
    """A task of another group, or personal, named in a group: not shown there."""
    return f"No encuentro la tarea #{task_id} en este grupo."


def forbidden(task_id: int) -> str:
    """Forbidden: only an assignee may complete a personal task."""
    return f"Solo quien tiene asignada la tarea #{task_id} puede completarla."


def claimed(task: Task) -> str:
    """/t tomar."""
    return f"Te quedas la tarea #{task.id}: {short(task.description)}"


def unassigned(task: Task) -> str:
    """/t soltar."""
    return f"Sueltas la tarea #{task.id}: {short(task.description)}"


def due_set(task: Task) -> str:
    """/t fecha."""
    if task.due_date is None:
        return f"La tarea #{task.id} ya no tiene fecha."
    return f"La tarea #{task.id} vence el {format_due_date(task.due_date)}."


def edited(task: Task) -> str:
    """/t editar."""
    return f"Tarea #{task.id} cambiada: {short(task.description)}"


def reminders_set(freq: str, time: str) -> str:
    """/t recordatorios."""
    return REMINDERS_OFF if freq == "off" else f"Recordatorios {FREQ_NAMES[freq]} a las {time}."


def web_link(url: str) -> str:
    """/t web, by direct message."""
    return f"Tu enlace para entrar en la web (vale 15 minutos, un solo uso):\n{url}"


def calendar_link(url: str) -> str:
    """/t calendario, by direct message."""
    return ("Tu calendario de tareas: suscríbete a esta dirección desde Google Calendar, Apple Calendar o Thunderbird "
            f"(no la compartas):\n{url}\nSi tenías otra, ya no funciona. Para desactivarlo: /t calendario borrar")


def throttled(seconds: int) -> str:
    """The rate limit's one notice per empty spell."""
    return f"Demasiadas órdenes, espera {seconds} s."


def task_line(task: Task, *, group: bool) -> str:
    """One line of /t ver: id, description, due date, and in a group who has it; a shared task (each mode) ticks
    the parts done (✓) and shows its progress."""
    due = f" · {format_due_date(task.due_date)}" if task.due_date else ""
    tick = " ✓" if task.each else ""
    people = ", ".join(f"{p.name or NAMELESS}{tick if p.done else ''}" for p in task.assignees) or NOBODY
    progress = " · {}/{} partes".format(*task.progress) if task.each else ""
    repeats = f" · ↻ {task.recurrence.text}" if task.recurrence else ""
    return f"#{task.id} {short(task.description, 60)}{due}{repeats}" + (f" · {people}" if group else "") + progress


def list_heading(total: int, *, group: bool) -> str:
    """First line of /t ver."""
    return f"Tareas abiertas ({total}):" if group else f"Tus tareas abiertas ({total}):"


def more(count: int) -> str:
    """Last line of a list cut at its limit."""
    return f"y {count} más: /t web para verlas todas"


def discovered(group_id: str, name: str | None) -> str:
    """Direct message to each admin when a group is discovered."""
    shown = f"«{name}» ({group_id})" if name else group_id
    return (f"Nuevo grupo detectado: {shown}.\nPara permitirlo: /admin permitir {group_id}\n"
            f"Para bloquearlo: /admin bloquear {group_id}")


def group_status_set(group_id: str, name: str | None, status: GroupStatus) -> str:
    """/admin permitir|bloquear."""
    shown = f"«{name}» ({group_id})" if name else group_id
    return f"Grupo {shown} {STATUS_NAMES[status]}."


def groups_heading(total: int, status: GroupStatus | None) -> str:
    """First line of /admin grupos."""
    return f"Grupos {STATUS_PLURALS[status]} ({total}):" if status else f"Grupos ({total}):"


def no_groups(status: GroupStatus | None) -> str:
    """/admin grupos with nothing to show."""
    return f"No hay grupos {STATUS_PLURALS[status]}." if status else "No hay grupos registrados."


def group_line(group_id: str, name: str | None, status: GroupStatus | None, active: bool) -> str:
    """One line of /admin grupos."""
    state = STATUS_NAMES[status] if status else "sin estado"
    gone = ", inactivo" if not active else ""
    return f"• {name or 'sin nombre'} — {group_id} — {state}{gone}"
