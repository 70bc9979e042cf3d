"""The development seed (seed section 8): users, groups, memberships, a preference and tasks for an empty database.

Deterministic: the same ``default_user``, ``now`` and ``today`` always give the same rows. Dates are relative to
``today`` and times to ``now`` so the data stays "past / today / future" and "completed within 24 h / long ago".
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, exists, select, text

from taskcore.access import GroupStatus
from taskcore.identity import normalize_user_id
from taskcore.reminders import DEFAULT_TIME, ReminderFreq
from taskcore.storage import schema
from taskcore.storage.sql import insert_ignore
from taskcore.unit import UnitOfWork

DEFAULT_USER_NAME = "Usuario de desarrollo"
# Companions of the default user: (id, display name); one is skipped if it happens to be the default user's id.
COMPANIONS = (
    ("34600000101", "Ana García"),
    ("34600000102", "Luis Martínez"),
    ("34600000103", "Carmen López"),
    ("34600000104", "Javier Ruiz"),
)
# (id, name, status, members as user indexes: 0 is the default user, 1-3 the companions; the first is admin)
GROUPS = (
    ("120363401000000001@g.us", "Familia", GroupStatus.ALLOWED, (0, 1, 2)),
    ("120363401000000002@g.us", "Piso compartido", GroupStatus.ALLOWED, (1, 0, 3)),
    ("5491100000000-1580000000@g.us", "Club de lectura", GroupStatus.ALLOWED, (2, 0, 3)),
    ("120363401000000004@g.us", "Equipo de trabajo", GroupStatus.ALLOWED, (1, 2, 3)),  # without the default user
    ("120363401000000005@g.us", "Vecinos del barrio", GroupStatus.PENDING, (1, 2)),
)


@dataclass(frozen=True, slots=True)
class SeedTask:
    """One seeded task; a completed one was completed ``done_hours_ago`` by its first assignee."""

    group: int | None  # index into GROUPS; None: personal (its creator is its only assignee)
    description: str
    due_in_days: int | None
    creator: int
    assignees: tuple[int, ...] = ()
    done_hours_ago: int | None = None


T = SeedTask
TASKS = (
    T(0, "Comprar pan y leche", 0, 0, (0,)),
    T(0, "Pagar la factura de la luz", -2, 1, (0, 1)),
    T(0, "Llevar el coche al taller", 3, 0),
    T(0, "Reservar mesa para el cumpleaños de la abuela", 10, 2, (1,)),
    T(0, "Regar las plantas", None, 1),
    T(0, "Sacar la basura", -1, 0, (0,), done_hours_ago=3),
    T(0, "Comprar el regalo de Lucía", -5, 2, (2, 0), done_hours_ago=72),
    T(0, "Llamar al fontanero", None, 0, (0, 1, 2)),
    T(1, "Limpiar la cocina", 0, 3, (0, 3)),
    T(1, "Comprar productos de limpieza", 1, 0),
    T(1, "Pagar el alquiler", -3, 1, (1,)),
    T(1, "Arreglar la persiana del salón", None, 3, (0,)),
    T(1, "Hacer la compra semanal", -1, 1, (3, 1), done_hours_ago=20),
    T(1, "Renovar el contrato de internet", -12, 0, (0,), done_hours_ago=240),
    T(1, "Organizar la cena del piso", 7, 3, (0, 1, 3)),
    T(2, "Elegir el libro de diciembre", 5, 2),
    T(2, "Leer los capítulos 1 a 5", 0, 0, (0,)),
    T(2, "Reservar sala en la biblioteca", -4, 3, (3,)),
    T(2, "Preparar preguntas para el debate", 14, 0, (0, 2)),
    T(2, "Enviar el resumen de la última reunión", None, 2, (2,), done_hours_ago=6),
    T(2, "Devolver los libros prestados", -8, 0, (0,), done_hours_ago=96),
    T(3, "Preparar la presentación trimestral", 2, 1, (1, 2)),
    T(3, "Revisar el presupuesto", -1, 2),
    T(3, "Actualizar la documentación", None, 3, (3,)),
    T(3, "Enviar el informe mensual", -2, 1, (1,), done_hours_ago=12),
    T(4, "Convocar la junta de vecinos", 6, 1),
    T(4, "Pedir presupuesto para pintar el portal", None, 2, (2,)),
    T(None, "Pedir cita con el dentista", 4, 0),
    T(None, "Renovar el DNI", -6, 0),
    T(None, "Apuntarme al gimnasio", None, 0),
    T(None, "Llamar a mamá", 0, 0, done_hours_ago=2),
    T(None, "Pagar la multa de aparcamiento", -15, 0, done_hours_ago=168),
    T(None, "Comprar entradas para el concierto", 20, 1),
)
FIRST_CREATED_DAYS_AGO = 15
CREATED_STEP = timedelta(hours=4)


def seed_dev_data(uow: UnitOfWork, *, default_user: str, now: datetime, today: date) -> bool:
    """Fill an empty database with development data; False (and nothing written) when any task exists."""
    people = _people(normalize_user_id(default_user))
    user_ids = [user_id for user_id, _ in people]

    conn = uow.conn
    if conn.dialect.name == "postgresql":  # two web processes starting together must not both seed
        conn.execute(text("LOCK TABLE tasks IN SHARE ROW EXCLUSIVE MODE"))
    if conn.execute(select(exists().select_from(schema.tasks))).scalar_one():
        return False
    _insert_people_and_groups(conn, people, now)
    for index, spec in enumerate(TASKS):
        _insert_task(conn, spec, user_ids, created_at=_created_at(index, now), now=now, today=today)
    return True


def _people(default_user: str) -> list[tuple[str, str]]:
    """(id, display name) of the default user and three companions."""
    companions = [person for person in COMPANIONS if person[0] != default_user]
    return [(default_user, DEFAULT_USER_NAME), *companions[:3]]


def _insert_people_and_groups(conn: Connection, people: Sequence[tuple[str, str]], now: datetime) -> None:
    user_ids = [user_id for user_id, _ in people]
    joined = now - timedelta(days=30)
    for user_id, name in people:
        row = {"id": user_id, "display_name": name, "created_at": joined, "last_seen_at": now}
        insert_ignore(conn, schema.users, row, ["id"])
    for group_id, name, status, members in GROUPS:
        _insert_group(conn, group_id, name, status, now)
        for position, member in enumerate(members):
            row = {"group_id": group_id, "user_id": user_ids[member], "is_admin": position == 0, "active": True,
                   "first_seen_at": joined, "last_seen_at": now}
            insert_ignore(conn, schema.group_members, row, ["group_id", "user_id"])
    pref = {"user_id": user_ids[0], "freq": ReminderFreq.DAILY.value, "time": DEFAULT_TIME, "updated_at": now,
            "next_due_at": now}
    insert_ignore(conn, schema.user_preferences, pref, ["user_id"])


def _insert_group(conn: Connection, group_id: str, name: str, status: GroupStatus, now: datetime) -> None:
    found = now - timedelta(days=60)
    group = {"id": group_id, "name": name, "active": True, "created_at": found, "last_synced_at": now}
    insert_ignore(conn, schema.groups, group, ["id"])
    access = {"group_id": group_id, "status": status.value, "discovered_at": found, "updated_at": found}
    insert_ignore(conn, schema.allowed_groups, access, ["group_id"])


def _created_at(index: int, now: datetime) -> datetime:
    return now - timedelta(days=FIRST_CREATED_DAYS_AGO) + CREATED_STEP * index


def _insert_task(
    conn: Connection, spec: SeedTask, user_ids: Sequence[str], *, created_at: datetime, now: datetime, today: date
) -> None:
    creator = user_ids[spec.creator]
    assignees = [creator] if spec.group is None else [user_ids[i] for i in spec.assignees]
    values: dict[str, Any] = {
        "group_id": None if spec.group is None else GROUPS[spec.group][0],
        "description": spec.description,
        "due_date": None if spec.due_in_days is None else (today + timedelta(days=spec.due_in_days)).isoformat(),
        "created_by": creator,
        "created_at": created_at,
        "completed": spec.done_hours_ago is not None,
    }
    if spec.done_hours_ago is not None:
        values |= {"completed_at": now - timedelta(hours=spec.done_hours_ago), "completed_by": assignees[0]}
    task_id = conn.execute(schema.tasks.insert().values(**values).returning(schema.tasks.c.id)).scalar_one()
    if assignees:
        rows = [{"task_id": task_id, "user_id": u, "assigned_at": created_at, "assigned_by": creator}
                for u in assignees]
        conn.execute(schema.task_assignments.insert(), rows)
