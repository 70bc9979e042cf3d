"""The chat's words in English: each meaning and the words that say it."""

from __future__ import annotations

WORDS: dict[str, tuple[str, ...]] = {
    "task.ayuda": ("help",),
    "task.nueva": ("new",),
    "task.ver": ("list", "ls"),
    "task.x": ("done",),
    "task.info": ("info", "details"),
    "task.tomar": ("claim",),
    "task.soltar": ("drop", "unassign"),
    "task.modo": ("mode",),
    "task.fecha": ("due",),
    "task.editar": ("edit",),
    "task.recordatorios": ("reminders",),
    "task.parar": ("stop",),
    "task.zona": ("zone",),
    "task.web": ("web",),
    "task.calendario": ("calendar",),
    "task.idioma": ("language",),
    "scope.group": ("group",),  # /t language group en
    "task.insistir": ("nag",),
    "flag.each": ("all", "each"),  # /t nueva !todos: each assignee does their part
    "task.pasar": ("pass",),
    "admin.ayuda": ("help",),
    "admin.grupos": ("groups",),
    "admin.permitir": ("allow",),
    "admin.bloquear": ("block",),
    "admin.sync": ("sync",),
    "status.pending": ("pending",),
    "status.allowed": ("allowed",),
    "status.blocked": ("blocked",),
    "place.here": ("here",),
    "mode.each": ("each", "all"),
    "mode.any": ("any", "one"),
    "due.none": ("none",),
    "zone.default": ("none", "default", "auto"),
    "calendar.revoke": ("delete", "revoke", "off"),
    "freq.off": ("off",),
    "freq.daily": ("daily",),
    "freq.weekdays": ("weekdays",),
    "freq.weekly": ("weekly",),
    "date.today": ("today",),
    "date.tomorrow": ("tomorrow",),
    "date.after_tomorrow": ("day after tomorrow",),
    "rule.intro": ("every",),
    "rule.joiner": ("and",),
    "rule.workdays": ("weekday", "weekdays"),
    "rule.DAILY": ("day", "days"),
    "rule.WEEKLY": ("week", "weeks"),
    "rule.MONTHLY": ("month", "months"),
    **{f"weekday.{n}": (name,) for n, name in enumerate(
        ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"))},
    **{f"month.{n}": (name,) for n, name in enumerate(
        ("january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
         "november", "december"), start=1)},
    "reply.complete": ("done", "finished", "did it", "all done", "sorted", "finished it", "done it", "all sorted"),
    # What may follow a reply word and leave it one (SPEC section 39): ``Done, cheers!``.
    "polite.thanks": ("cheers", "thanks", "thank you", "thx", "ty", "ta", "please", "pls", "mate", "lol", "guys",
                      "folks", "everyone", "all"),
    "reply.claim": ("mine", "on it", "i'll do it", "i’ll do it", "me"),
    "task.puntos": ("points",),
    "task.resumen": ("summary",),
    "task.silencio": ("quiet",),
    "task.ausente": ("away",),
    "task.vuelvo": ("back",),
    "quiet.off": ("no", "off"),
    **{f"weekday_short.{n}": words for n, words in enumerate(
        (("mon",), ("tue", "tues"), ("wed",), ("thu", "thur", "thurs"), ("fri",), ("sat",), ("sun",)))},
    **{f"month_short.{n}": words for n, words in enumerate(
        (("jan",), ("feb",), ("mar",), ("apr",), ("may",), ("jun",), ("jul",), ("aug",), ("sep", "sept"),
         ("oct",), ("nov",), ("dec",)), start=1)},
    "of.of": ("of",),  # 1st of December
    "period.week": ("week",),
    "period.month": ("month",),
    "range.to": ("to", "till", "until", "-", "–"),  # 10pm to 7am
    "clock.hour": ("h",),
    "clock.at": ("at", "around"),  # at 7, at 7 pm
    "range.from": ("from",),  # from 10pm to 7am
    "clock.am": ("am", "a.m."),
    "clock.pm": ("pm", "p.m."),
    "lang.es": ("es", "spanish"),
    "lang.pt": ("pt", "pt-br", "portuguese"),
    "lang.en": ("en", "english"),
    "unit.hour": ("h", "hr", "hrs", "hour", "hours"),  # /t insistir 12 cada 12 h
    "family.task": ("/t",),  # the prefix of a task command
    "family.admin": ("/admin",),
    "flag.rotation": ("turns",),  # /t nueva ... !turnos: the assignees take turns
    "flag.balanced": ("fair",),  # !reparto: turns by the fewest points
    "admin.inalcanzables": ("unreachable",),  # who the bot cannot write to in private (SPEC section 31)
    "task.borrarme": ("forget-me", "forgetme"),  # erase me (SPEC section 32), in a direct message
    "confirm.yes": ("yes",),  # /t borrarme sí
    "task.foto": ("photo",),  # /t foto <id> [no]: the task needs a photo to be done (SPEC section 34)
    "flag.photo": ("photo",),  # /t nueva ... !foto
    "task.aprobar": ("approve",),  # a photo or a reward request approved
    "task.rechazar": ("reject",),  # sent back, with the reason
    "approval.request": ("request", "redemption"),  # /t aprobar canje 3: a reward request
    "task.premio": ("reward",),  # /t premio nuevo|borrar (SPEC section 34)
    "task.premios": ("rewards",),
    "task.canjear": ("redeem",),
    "task.pendientes": ("pending",),  # what waits for the sender's approval
    "task.penalizacion": ("penalty",),  # SPEC section 41
    "task.aplicar": ("apply",),
    "task.excusar": ("excuse",),
    "task.pantalla": ("display", "screen"),
    "reward.new": ("new", "add"),  # /t premio nuevo <nombre> <puntos>
    "reward.delete": ("delete", "remove"),  # /t premio borrar <n>
    "price.unit": ("points", "point", "pts"),  # /t reward new movie night for 30 points
    "price.for": ("for",),
    "task.plantilla": ("starter", "starters", "template", "templates"),  # starter chores (SPEC section 35)
    # The columns of a CSV file to import (SPEC section 35), as its header names them.
    "column.description": ("description", "task", "text"),
    "column.due_date": ("due date", "due_date", "due", "date", "deadline"),
    "column.assignees": ("assignees", "assignee", "assigned to", "who"),
    "column.recurrence": ("recurrence", "repeat", "repeats", "rule"),
    "column.items": ("items", "checklist", "list"),
    "column.points": ("points",),
    # Seasons of a recurrence (SPEC section 41): every week from April to September, every 2 weeks the rest
    "season.in": ("in",),
    "season.rest": ("the rest", "rest", "the rest of the year"),
    # Checklists (SPEC section 41): /t add 12 oven, /t remove 12 2
    "task.añadir": ("add",),
    "task.quitar": ("remove",),
}
