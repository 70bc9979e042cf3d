"""The help of ``/t`` and ``/admin``, and the command sheet of the README made from them (``tasksvc
commands-sheet``), from the usage lines and examples the conversation's registry holds, in the language in force.

Each help line ``• <usage> — ej.: <example>`` becomes a row of the sheet; any other line is kept as a paragraph, so
a change to a command's usage changes the sheet and the README test says so.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

from taskcore.chat.usage import date_forms, example_mark, rule_forms, usage_line
from taskcore.i18n import _, speaking

_BULLET = "• "


class Entry(Protocol):
    """A command as its help shows it: its family (``task`` or ``admin``), usage line and example (both marked for
    translation, untranslated; no usage: not in the help)."""

    @property
    def family(self) -> str:
        """``task`` for a ``/t`` command, ``admin`` for an ``/admin`` one."""
        ...

    @property
    def usage(self) -> str | None:
        """Its usage line."""
        ...

    @property
    def example(self) -> str | None:
        """One example (None: the usage line is the example)."""
        ...


def _lines(entries: Iterable[Entry], family: str) -> str:
    lines = []
    for entry in entries:
        if entry.family == family and entry.usage is not None:
            example = entry.example or entry.usage
            lines.append(f"{_BULLET}{usage_line(entry.usage)}{example_mark()}{_(example)}" if example != entry.usage
                         else f"{_BULLET}{usage_line(entry.usage)}")
    return "\n".join(lines)


def help_text(entries: Iterable[Entry]) -> str:
    """The help of ``/t``: every command with one example, in the language in force."""
    return "\n".join([
        _("Órdenes (/t o /tarea):"),
        _lines(entries, "task"),
        _('{dates}. El texto entre comillas va tal cual: /t nueva "comprar 2/3 kg" mañana', dates=date_forms()),
        _("!todos: cada responsable completa su parte. Respondiendo a un mensaje de una tarea, sin id: /t x, "
          "/t tomar, /t soltar, /t fecha, /t editar; o solo «hecho» (✅) o «yo» (✋). "
          "También vale reaccionar ✅ o ✋."),
        rule_forms(),
        _("Al completar una tarea que se repite se crea la siguiente; con !turnos le toca a la siguiente persona "
          "mencionada: /t nueva sacar la basura cada lunes y jueves @Ana @Luis !turnos"),
        _("Listas (hasta 20 elementos): /t nueva limpiar la cocina: encimera, horno, nevera. Marca uno con /t x 12.2 "
          "o respondiendo «2 hecho» al mensaje de la tarea; queda hecha cuando lo están todos."),
        _("Temporadas: /t nueva cortar el césped cada semana de abril a septiembre, cada 2 semanas el resto; fuera "
          "de su temporada no se crea ninguna."),
        _("!N (1 a 10): los puntos de la tarea (1 si no). Con !reparto en vez de !turnos, le toca a quien menos "
          "puntos ha completado en el grupo en 30 días: /t nueva limpiar el baño cada sábado @Ana @Luis !3 !reparto"),
        _("Premios: los administradores del grupo los ofrecen por puntos (/t premio nuevo); los puntos de tus tareas "
          "hechas se canjean con /t canjear <n> y un administrador lo aprueba. /t puntos: cuántos tienes; "
          "/t pendientes: lo que espera tu aprobación."),
    ])


def admin_help_text(entries: Iterable[Entry]) -> str:
    """The help of ``/admin``: every admin command with one example, in the language in force."""
    return _("Órdenes de administración:") + "\n" + _lines(entries, "admin")


def command_sheet(entries: Iterable[Entry], lang: str = "es") -> str:
    """Markdown in ``lang``: the ``/t`` commands, then the administrators' ``/admin`` commands, each with its
    example."""
    rows = list(entries)
    with speaking(lang):
        return "\n".join([*_section(help_text(rows)), "", *_section(admin_help_text(rows))]) + "\n"


def _section(text: str) -> list[str]:
    title, *lines = text.splitlines()
    out = [f"**{title.rstrip(':')}**", "", "| {} | {} |".format(_("Orden"), _("Ejemplo")), "|---|---|"]
    notes = []
    for line in lines:
        if line.startswith(_BULLET):
            usage, _sep, example = line.removeprefix(_BULLET).partition(example_mark())
            out.append(f"| {_code(usage)} | {_code(example or usage)} |")
        else:
            notes.append(line)
    return out + (["", *notes] if notes else [])


def _code(text: str) -> str:
    """Inline code that survives a Markdown table: pipes escaped."""
    return "`" + text.replace("|", "\\|") + "`"
