"""The texts of ``/t borrarme`` (SPEC section 32), in the language in force."""

from __future__ import annotations

from taskcore.i18n import N_

ONLY_IN_PRIVATE = N_("Esto va por privado: escríbeme /t borrarme en un mensaje directo.")
ASK_TO_CONFIRM = N_("Borraré tu nombre, tus preferencias, tus enlaces y tus asignaciones; las tareas que creaste se "
                    "quedan en sus grupos sin autor. No se puede deshacer. Para confirmar: /t borrarme sí")
FORGOTTEN = N_("Hecho: he borrado tus datos. Si vuelves a escribirme, empezarás de cero.")
NOTHING_KEPT = N_("No guardo nada sobre ti.")
