"""The texts of ``/t plantilla`` (SPEC section 35), in the language in force."""

from __future__ import annotations

from collections.abc import Sequence

from taskcore.chores.starter_sets import Chore, StarterSet
from taskcore.i18n import _, ngettext
from taskcore.recurrence import rule_text


def _points(points: int) -> str:
    return ngettext("{n} punto", "{n} puntos", points)


def _people(names: Sequence[str]) -> str:
    if len(names) == 1:
        return names[0]
    return _("{first} y {last}", first=", ".join(names[:-1]), last=names[-1])


def only_in_groups(command: str) -> str:
    """``/t plantilla`` in a direct message."""
    return _("Las plantillas crean tareas de grupo: escribe {command} en el grupo.", command=command)


def listing(sets: Sequence[StarterSet], command: str) -> str:
    """The sets, each with how many chores it has and the command that shows it."""
    lines = [_("Plantillas de tareas que se repiten:")]
    lines += [_("• {title}: {count}. Ver: {command} {name}", title=starter.title, command=command,
                name=starter.names[0], count=ngettext("{n} tarea", "{n} tareas", len(starter.chores)))
              for starter in sets]
    return "\n".join(lines)


def unknown(name: str, sets: Sequence[StarterSet], command: str) -> str:
    """A name that is no set's."""
    names = ", ".join(starter.names[0] for starter in sets)
    return _("No hay ninguna plantilla «{name}». Elige una de estas: {names} ({command} <nombre>).",
             name=name[:40], names=names, command=command)


def _chore_line(chore: Chore) -> str:
    return _("• {text}, {rule} ({points})", text=chore.text, rule=rule_text(chore.recurrence),
             points=_points(chore.points))


def preview(starter: StarterSet, people: Sequence[str], command: str, yes: str) -> str:
    """What the set would create, who would take turns, and the command that creates it."""
    lines = [_("«{title}» crearía estas tareas:", title=starter.title), *map(_chore_line, starter.chores)]
    if len(people) >= 2:
        lines.append(_("Por turnos entre {people}.", people=_people(people)))
    else:
        lines.append(_("Sin asignar: para hacer turnos, el bot tiene que conocer al menos a dos miembros del grupo."))
    lines.append(_("Para crearlas: {command} {name} {yes}", command=command, name=starter.names[0], yes=yes))
    return "\n".join(lines)


def created(starter: StarterSet, made: Sequence[tuple[int, Chore, str | None]]) -> str:
    """The tasks created, each with its id, rule and whose turn it is first."""
    lines = [ngettext("{n} tarea creada de «{title}»:", "{n} tareas creadas de «{title}»:", len(made),
                      title=starter.title)]
    for task_id, chore, holder in made:
        rule = rule_text(chore.recurrence)
        lines.append(_("• #{id} {text}, {rule}: le toca a {name}", id=task_id, text=chore.text, rule=rule,
                       name=holder) if holder else _("• #{id} {text}, {rule}", id=task_id, text=chore.text,
                                                     rule=rule))
    return "\n".join(lines)
