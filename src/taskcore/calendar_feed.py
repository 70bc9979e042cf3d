"""The calendar feed as RFC 5545 text, built with the icalendar library (SPEC section 22). Pure: tasks in, bytes out.

One all-day event per open task with a due date: summary ``#N descripción``, the group's name (or "Tarea personal")
and who has it in the description, a UID that stays the same for the task's whole life. The feed's words are in its
owner's language (``lang``; SPEC section 24), which is part of the ETag. Nothing in the feed
depends on when it is built, so the same tasks always give the same bytes; the ETag is computed from the same
inputs without writing the feed (writing costs ~0.3 ms an event), and changes only when they do.

icalendar (and python-dateutil with it, ~3.5 MB and 90 modules) is imported when a feed is first written, not with
this module: the bot uses ``feed_url`` and never writes a feed, and a web process that serves none never loads it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import quote, urlsplit

from taskcore.errors import ValidationError
from taskcore.i18n import N_, _, current_language, speaking
from taskcore.model import Task
from taskcore.shown import shown_name

if TYPE_CHECKING:
    from icalendar import Event

PRODID = "-//tasksvc//Tareas//ES"
CALENDAR_NAME = N_("Tareas")
CALENDAR_DESCRIPTION = N_("Tus tareas abiertas con fecha")
REFRESH = timedelta(hours=1)
"""How often clients are asked to fetch the feed again (Google Calendar decides for itself)."""
DEFAULT_UID_DOMAIN = "tasksvc"
PERSONAL = N_("Tarea personal")
NOBODY = N_("Sin responsable")


def feed_url(base_url: str, token: str) -> str:
    """The feed's secret address under WEB_BASE_URL (or the origin the browser used)."""
    return f"{base_url}/cal/{quote(token, safe='')}.ics"


def uid_domain(web_base_url: str | None) -> str:
    """The right-hand side of every UID: the host of WEB_BASE_URL, so two installations never share UIDs."""
    host = urlsplit(web_base_url).hostname if web_base_url else None
    return host or DEFAULT_UID_DOMAIN


def task_uid(task_id: int, domain: str) -> str:
    """The event's UID: the same for the task's whole life, whatever is edited."""
    return f"task-{task_id}@{domain}"


def _details(task: Task) -> str:
    """Where the task lives and who has it; a shared task (each mode) ticks the parts done, as ``/t ver`` does; then
    its checklist's items, ticked or not (SPEC section 41)."""
    return _holders(task) + "".join(f"\n{'☑' if item.done else '☐'} {item.n} {item.text}" for item in task.items)


def _holders(task: Task) -> str:
    where = _("Grupo: {group}", group=task.group_name or task.group_id) if task.group_id else _(PERSONAL)
    tick = " ✓" if task.each else ""
    people = ", ".join(f"{shown_name(person.name)}{tick if person.done else ''}" for person in task.assignees)
    if not people:
        return f"{where}\n{_(NOBODY)}"
    done, parts = task.progress
    progress = _(" ({done}/{parts} partes)", done=done, parts=parts) if task.each else ""
    return f"{where}\n" + _("Responsables: {people}", people=people) + progress


def _link(task: Task, base_url: str | None) -> str | None:
    if not base_url:
        return None
    return f"{base_url}/grupos/{quote(task.group_id, safe='')}" if task.group_id else f"{base_url}/"


def task_event(task: Task, *, domain: str, base_url: str | None = None) -> Event:
    """The all-day VEVENT of one task with a due date (DTEND is the next day: RFC 5545 ends are exclusive)."""
    from icalendar import Event  # noqa: PLC0415 - loaded with the first feed written (module docstring)

    if task.due_date is None:
        raise ValidationError("only a task with a due date is an event")
    event = Event()
    event.add("uid", task_uid(task.id, domain))
    event.add("dtstamp", task.created_at)
    event.add("dtstart", task.due_date)
    event.add("dtend", task.due_date + timedelta(days=1))
    event.add("summary", f"#{task.id} {task.description}")
    event.add("description", _details(task))
    event.add("transp", "TRANSPARENT")  # a chore does not make the person busy all day
    link = _link(task, base_url)
    if link:
        event.add("url", link)
    return event


def build_calendar(
    tasks: Iterable[Task], *, domain: str, base_url: str | None = None, lang: str | None = None
) -> bytes:
    """The feed: a VCALENDAR with one event per open task that has a due date (the others are left out), in ``lang``
    (None: the language in force)."""
    with speaking(lang or current_language()):
        return _calendar(tasks, domain=domain, base_url=base_url)


def _calendar(tasks: Iterable[Task], *, domain: str, base_url: str | None) -> bytes:
    from icalendar import Calendar, vDuration  # noqa: PLC0415 - loaded with the first feed written (module docstring)

    calendar = Calendar()
    calendar.add("prodid", PRODID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("method", "PUBLISH")
    calendar.add("x-wr-calname", _(CALENDAR_NAME))
    calendar.add("x-wr-caldesc", _(CALENDAR_DESCRIPTION))
    calendar.add("refresh-interval", vDuration(REFRESH), parameters={"VALUE": "DURATION"})
    calendar.add("x-published-ttl", "PT1H")  # the same, in the older non-standard property some clients read
    for task in tasks:
        if task.due_date is not None and not task.completed:
            calendar.add_component(task_event(task, domain=domain, base_url=base_url))
    body: bytes = calendar.to_ical()
    return body


FEED_FORMAT = "3"
"""Changes whenever this module writes a feed differently, so that ETags made before no longer match."""


def feed_etag(tasks: Iterable[Task], *, domain: str, base_url: str | None = None, lang: str | None = None) -> str:
    """The feed's ETag (quoted, as HTTP writes it), from exactly what ``build_calendar`` writes, without writing it:
    a client that has the feed gets its 304 for the price of reading the tasks. Equal inputs, equal ETag; any change
    to what the feed shows (its language too), another ETag."""
    with speaking(lang or current_language()) as words:
        digest = hashlib.sha256(f"{FEED_FORMAT}\0{domain}\0{base_url or ''}\0{words}".encode())
    for task in tasks:
        if task.due_date is None or task.completed:
            continue
        people = "\x1f".join(f"{person.id}\x1e{person.name or ''}\x1e{person.done}" for person in task.assignees)
        items = "\x1f".join(f"{item.n}\x1e{item.text}\x1e{item.done}" for item in task.items)
        fields = (task.id, task.description, task.due_date, task.group_id or "", task.group_name or "",
                  task.created_at.isoformat(), people, task.completion.value, items)
        digest.update(("\0" + "\x1d".join(map(str, fields))).encode("utf-8", "surrogatepass"))
    return '"' + digest.hexdigest()[:32] + '"'
