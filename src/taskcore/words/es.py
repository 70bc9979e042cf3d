"""The chat's words in Spanish (the seed's language): each meaning and the words that say it."""

from __future__ import annotations

WORDS: dict[str, tuple[str, ...]] = {
    "task.ayuda": ("ayuda",),
    "task.nueva": ("nueva", "n", "+"),
    "task.ver": ("ver", "ls", "mis"),
    "task.x": ("x", "hecho"),
    "task.info": ("info", "detalle"),
    "task.tomar": ("tomar",),
    "task.soltar": ("soltar", "dejar"),
    "task.modo": ("modo",),
    "task.fecha": ("fecha",),
    "task.editar": ("editar",),
    "task.recordatorios": ("recordatorios", "config"),
    "task.parar": ("parar",),
    "task.zona": ("zona", "tz"),
    "task.web": ("web",),
    "task.calendario": ("calendario", "cal"),
    "task.idioma": ("idioma",),
    "scope.group": ("grupo",),  # /t idioma grupo pt: the group's language, not the sender's (SPEC section 39)
    "task.insistir": ("insistir",),
    "flag.each": ("todos",),  # /t nueva !todos: each assignee does their part
    "task.pasar": ("pasar",),
    "admin.ayuda": ("ayuda",),
    "admin.grupos": ("grupos",),
    "admin.permitir": ("permitir",),
    "admin.bloquear": ("bloquear",),
    "admin.sync": ("sync", "sincronizar"),
    "status.pending": ("pendientes",),
    "status.allowed": ("permitidos",),
    "status.blocked": ("bloqueados",),
    "place.here": ("aquí",),
    "mode.each": ("todos", "cada"),
    "mode.any": ("uno", "cualquiera"),
    "due.none": ("sin",),
    "zone.default": ("sin", "auto"),
    "calendar.revoke": ("borrar", "quitar", "desactivar", "revocar", "off"),
    "freq.off": ("off", "apagado", "no"),
    "freq.daily": ("diario",),
    "freq.weekdays": ("laborables",),
    "freq.weekly": ("semanal",),
    "date.today": ("hoy",),
    "date.tomorrow": ("mañana",),
    "date.after_tomorrow": ("pasado mañana",),
    "rule.intro": ("cada",),
    "rule.joiner": ("y",),
    "rule.workdays": ("laborable", "laborables"),
    "rule.DAILY": ("día", "días"),
    "rule.WEEKLY": ("semana", "semanas"),
    "rule.MONTHLY": ("mes", "meses"),
    "weekday.0": ("lunes",),
    "weekday.1": ("martes",),
    "weekday.2": ("miércoles",),
    "weekday.3": ("jueves",),
    "weekday.4": ("viernes",),
    "weekday.5": ("sábado",),
    "weekday.6": ("domingo",),
    **{f"month.{n}": (name,) for n, name in enumerate(
        ("enero", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto", "septiembre", "octubre",
         "noviembre", "diciembre"), start=1)},
    "month.9": ("septiembre", "setiembre"),
    "reply.complete": ("x", "hecho", "listo", "ya está", "terminado", "ya quedó", "ya está hecho", "terminé", "quedó",
                       "ya lo hice"),
    # What may follow a reply word and leave it one (SPEC section 39): ``listo gracias``.
    "polite.thanks": ("gracias", "muchas gracias", "mil gracias", "porfa", "por favor", "saludos", "jaja", "jeje",
                      "amigos", "chicos", "gente", "equipo"),
    "reply.claim": ("yo", "tomo", "me lo quedo", "lo hago yo", "yo mero"),
    "task.puntos": ("puntos",),
    "task.resumen": ("resumen",),
    "task.silencio": ("silencio",),
    "task.ausente": ("ausente",),
    "task.vuelvo": ("vuelvo",),
    "quiet.off": ("no", "sin"),
    "weekday_short.0": ("lun",),
    "weekday_short.1": ("mar",),
    "weekday_short.2": ("mié",),
    "weekday_short.3": ("jue",),
    "weekday_short.4": ("vie",),
    "weekday_short.5": ("sáb",),
    "weekday_short.6": ("dom",),
    **{f"month_short.{n}": words for n, words in enumerate(
        (("ene",), ("feb",), ("mar",), ("abr",), ("may",), ("jun",), ("jul",), ("ago",), ("sep", "sept", "set"),
         ("oct",), ("nov",), ("dic",)), start=1)},
    "of.of": ("de",),  # 1 de diciembre
    "period.week": ("semana",),
    "period.month": ("mes",),
    "range.to": ("a", "hasta", "-", "–"),  # 23:00 a 7:30, 23h-7h
    "clock.hour": ("h",),  # 23h, 23h30
    "clock.at": ("a las", "a la", "sobre las"),  # a las 8: an hour alone is a time after it (SPEC section 39)
    "range.from": ("de", "desde"),  # de 23 a 7
    "clock.am": ("am", "a.m.", "a. m."),
    "clock.pm": ("pm", "p.m.", "p. m."),
    "lang.es": ("es", "español", "castellano"),
    "lang.pt": ("pt", "pt-br", "portugués", "brasileño"),
    "lang.en": ("en", "inglés"),
    "unit.hour": ("h", "hora", "horas"),  # /t insistir 12 cada 12 h
    "family.task": ("/t", "/tarea"),  # the prefix of a task command
    "family.admin": ("/admin",),
    "flag.rotation": ("turnos",),  # /t nueva ... !turnos: the assignees take turns
    "flag.balanced": ("reparto",),  # !reparto: turns by the fewest points
    "admin.inalcanzables": ("inalcanzables",),  # who the bot cannot write to in private (SPEC section 31)
    "task.borrarme": ("borrarme",),  # erase me (SPEC section 32), in a direct message
    "confirm.yes": ("sí",),  # /t borrarme sí
    "task.foto": ("foto",),  # /t foto <id> [no]: the task needs a photo to be done (SPEC section 34)
    "flag.photo": ("foto",),  # /t nueva ... !foto
    "task.aprobar": ("aprobar",),  # a photo or a reward request approved
    "task.rechazar": ("rechazar",),  # sent back, with the reason
    "approval.request": ("canje",),  # /t aprobar canje 3: a reward request
    "task.premio": ("premio",),  # /t premio nuevo|borrar (SPEC section 34)
    "task.premios": ("premios",),
    "task.canjear": ("canjear",),
    "task.pendientes": ("pendientes",),  # what waits for the sender's approval
    "task.penalizacion": ("penalizacion", "penalización"),  # SPEC section 41
    "task.aplicar": ("aplicar",),
    "task.excusar": ("excusar", "perdonar"),
    "task.pantalla": ("pantalla",),
    "reward.new": ("nuevo", "nueva"),  # /t premio nuevo <nombre> <puntos>
    "reward.delete": ("borrar", "quitar"),  # /t premio borrar <n>
    "price.unit": ("puntos", "punto", "pts", "ptos"),  # /t premio nuevo pizza por 15 puntos: not the name
    "price.for": ("por",),
    "task.plantilla": ("plantilla", "plantillas"),  # starter chores (SPEC section 35)
    # The columns of a CSV file to import (SPEC section 35), as its header names them.
    "column.description": ("descripción", "tarea", "texto"),
    "column.due_date": ("fecha", "vence", "vencimiento", "fecha límite"),
    "column.assignees": ("asignados", "asignado", "responsables", "responsable"),
    "column.recurrence": ("repetición", "se repite", "recurrencia", "regla"),
    "column.items": ("elementos", "lista", "checklist"),
    "column.points": ("puntos",),
    # Seasons of a recurrence (SPEC section 41): cada semana de abril a septiembre (its ends are the range words),
    # cada 2 semanas el resto
    "season.in": ("en",),
    "season.rest": ("el resto", "resto", "el resto del año"),
    # Checklists (SPEC section 41): /t añadir 12 horno, /t quitar 12 2
    "task.añadir": ("añadir", "agregar"),
    "task.quitar": ("quitar",),
}
