"""The chat simulator's own words, from the catalogs, in the language of the person chosen to write (SPEC section 39):
the page gets them all at once, one table per language, and speaks the writer's (their choice, else their number's
country's, else DEFAULT_LANGUAGE) as soon as someone is picked. ``{name}`` placeholders are filled by the page."""

from __future__ import annotations

from taskcore.words import LANGUAGES
from tasksvc_run.i18n import N_, catalog

__all__ = ["TEXTS", "page_texts"]

TEXTS = {
    "title": N_("Simulador de chat (desarrollo)"),
    "intro": N_("Los mensajes van al bot por el mismo camino que los de WhatsApp (/webhook); aquí se ven sus "
                "respuestas y reacciones. Prueba /t ayuda o /t nueva Comprar pan mañana. Toca un mensaje (o llega a "
                "él con el tabulador) para ver qué puedes hacer con él: «Responder» hace que el siguiente lo cite "
                "(prueba «hecho» o /t tomar sin id) y los otros botones reaccionan a él."),
    "who": N_("Quién escribe"),
    "where": N_("Dónde"),
    "private": N_("Privado con el bot"),
    "pending": N_("Este grupo está pendiente: el bot no responde en él hasta que un administrador escriba /admin "
                  "permitir aquí (o /admin permitir con su id) en el grupo o por privado."),
    "conversation": N_("Conversación"),
    "cancel": N_("Cancelar"),
    "message": N_("Mensaje"),
    "placeholder": N_("Escribe un mensaje (o el texto de la foto)"),
    "photo_hint": N_("Enviar una foto: la del archivo elegido, o una de muestra"),
    "photo": N_("📷 Foto"),
    "photo_file": N_("Archivo de la foto"),
    "send": N_("Enviar"),
    "add_person": N_("Añadir a alguien (cualquier país e idioma)"),
    "number": N_("Número, con el prefijo del país"),
    "name": N_("Nombre"),
    "add": N_("Añadir"),
    "lid_person": N_("Añadir a alguien que WhatsApp solo muestra por su LID (sin número)"),
    "lid": N_("LID (solo dígitos)"),
    "new_group": N_("Crear un grupo"),
    "group_name": N_("Nombre del grupo"),
    "members": N_("Quiénes están (además del bot)"),
    "admin": N_("admin del grupo"),
    "addressing": N_("Cómo nombra WhatsApp a sus miembros"),
    "by_phone": N_("Por su número"),
    "by_lid": N_("Por su LID"),
    "create_group": N_("Crear el grupo"),
    "make_admin": N_("Hacer admin del grupo a quien escribe"),
    "add_to_group": N_("Añadir a quien escribe al grupo"),
    "replying": N_("Respondiendo a {who}: «{text}»"),
    "webhook": N_("El webhook respondió {status}"),
    "reacts": N_("{who} reacciona {emoji}"),
    "unreacts": N_("{who} quita su reacción"),
    "bot_reacts": N_("El bot reacciona {emoji}"),
    "on": N_(" a «{text}»"),
    "reply": N_("Responder"),
    "reply_label": N_("Responder a este mensaje"),
    "react_done": N_("Reaccionar ✅ (completar)"),
    "react_claim": N_("Reaccionar ✋ (tomar)"),
    "remove": N_("Quitar"),
    "remove_label": N_("Quitar mi reacción"),
    "offline": N_("Sin conexión con la pasarela local; reintentando…"),
    "full_number": N_("Escribe el número completo, con el prefijo del país."),
    "full_lid": N_("Escribe el LID entero: solo dígitos, de 8 a 20."),
    "writes_now": N_("{name} escribe ahora; sus respuestas llegan en su idioma."),
    "group_made": N_("Grupo «{name}» creado, con el bot dentro: escribe en él."),
    "group_needs": N_("Pon un nombre al grupo y elige al menos a una persona."),
    "admin_made": N_("{name} ya administra «{group}»."),
    "member_added": N_("{name} está ahora en «{group}»."),
    "pick_group": N_("Elige primero un grupo en «Dónde»."),
}


def page_texts() -> dict[str, dict[str, str]]:
    """Every text of the page in every language: ``{lang: {key: text}}``."""
    return {lang: {key: catalog(lang).gettext(text) for key, text in TEXTS.items()} for lang in LANGUAGES}
