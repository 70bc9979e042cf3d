"""The texts static/app.js writes into the pages, from the catalogs: the page carries them, translated, in its
``data-texts`` attribute (JSON), and the script fills their ``{name}`` placeholders. No text lives in the script."""

from __future__ import annotations

from tasksvc_run.i18n import N_, _

SCRIPT_TEXTS = {
    "expired": N_("Tu sesión ha caducado: escribe /t web en un chat para entrar de nuevo."),
    "failed": N_("No se pudo completar (error {status}). Inténtalo de nuevo."),
    "offline": N_("Sin conexión con el servidor. Comprueba tu red e inténtalo de nuevo."),
    "nobody": N_("Sin responsable"),
    "unnamed": N_("Miembro sin nombre"),
    "partDone": N_("(parte hecha)"),
    "partPending": N_("(parte pendiente)"),
    "parts": N_("{done}/{total} partes"),
    "due": N_("Vence el {date}"),
    "noDate": N_("Sin fecha"),
    "noDateLower": N_("sin fecha"),
    "next": N_("Próxima: #{id}, {date}."),
    "turns": N_("por turnos"),
    "finishPart": N_("Terminar mi parte"),
    "complete": N_("Completar"),
    "zoneUser": N_("la elegiste tú"),
    "zonePhone": N_("la del prefijo de tu número"),
    "zoneDefault": N_("la del servicio"),
    "doneComplete": N_("Tarea completada."),
    "doneTick": N_("Elemento marcado."),
    "itemDone": N_("(hecho)"),
    "itemPending": N_("(marcar como hecho)"),
    "donePart": N_("Tu parte queda hecha."),
    "doneClaim": N_("Ahora eres responsable."),
    "doneUnassign": N_("Ya no eres responsable."),
    "doneEdit": N_("Cambios guardados."),
    "saving": N_("Guardando…"),
    "remindersOff": N_("Recordatorios desactivados."),
    "remindersOn": N_("Guardado: te avisaremos a las {time} ({zone})."),
    "calendarActive": N_("Tienes una dirección de calendario activa; la anterior, si tenías, ya no funciona."),
    "calendarNew": N_("Crear una dirección nueva"),
    "calendarCreated": N_("Dirección de calendario creada."),
    "calendarConfirm": N_("¿Desactivar tu calendario? La dirección dejará de funcionar en todas partes."),
    "calendarNone": N_("Aún no tienes una dirección de calendario."),
    "calendarCreate": N_("Crear dirección"),
    "calendarOff": N_("Calendario desactivado: su dirección ya no funciona."),
    "tokenFresh": N_("Creado ahora · Sin usar"),
    "revoke": N_("Revocar"),
    "tokenCreated": N_("Token «{name}» creado."),
    "tokenConfirm": N_("¿Revocar el token «{name}»? Lo que lo use dejará de funcionar."),
    "tokenRevoked": N_("Token «{name}» revocado."),
}


def script_texts() -> dict[str, str]:
    """Every text of the script, in the language in force."""
    return {key: _(message) for key, message in SCRIPT_TEXTS.items()}
