"""Language use cases (SPEC section 24): read a person's or a group's language in force, and choose one."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime

from sqlalchemy import Connection

from taskcore.languages import LanguageSource, effective_language, majority_language
from taskcore.storage import groups as g
from taskcore.storage import members as m
from taskcore.storage import preferences as q
from taskcore.storage.users import ensure_user
from taskcore.unit import Reading, UnitOfWork


def language_of(conn: Connection, user_id: str, default: str) -> tuple[str, LanguageSource]:
    """The person's language inside an open transaction: chosen, else their number's country's, else ``default``."""
    return effective_language(q.chosen_language(conn, user_id), user_id, default)


def languages_of(conn: Connection, user_ids: Collection[str], default: str) -> dict[str, str]:
    """The language in force of each of ``user_ids``, in one query."""
    chosen = q.chosen_languages(conn, user_ids)
    return {user: effective_language(chosen.get(user), user, default)[0] for user in user_ids}


def group_language_of(conn: Connection, group_id: str, default: str) -> str:
    """The language of what the bot starts in the group (SPEC section 39): the group's choice, else the one most
    of its active members read (``majority_language``; ``default`` on a tie)."""
    chosen = g.group_language(conn, group_id)
    if chosen is not None:
        return chosen
    read = languages_of(conn, m.active_member_ids(conn, group_id), default)
    return majority_language(list(read.values()), default)


def user_language(uow: Reading, *, user_id: str, default: str) -> tuple[str, LanguageSource]:
    """The person's language in force and where it comes from."""
    conn = uow.conn
    return language_of(conn, user_id, default)


def save_user_language(conn: Connection, *, user_id: str, lang: str | None, now: datetime) -> None:
    """Inside an open transaction: set (None: forget) the person's chosen language."""
    ensure_user(conn, user_id, now)
    q.save_language(conn, user_id=user_id, lang=lang, now=now)


def choose_language(uow: UnitOfWork, *, user_id: str, lang: str | None, default: str,
                    now: datetime) -> tuple[str, LanguageSource]:
    """Set (None: forget) the person's chosen language; the language now in force."""

    conn = uow.conn
    save_user_language(conn, user_id=user_id, lang=lang, now=now)
    return effective_language(lang, user_id, default)


def group_language(uow: Reading, *, group_id: str, default: str) -> str:
    """The group's language: its choice, else ``default``."""
    conn = uow.conn
    return group_language_of(conn, group_id, default)


def choose_group_language(uow: UnitOfWork, *, group_id: str, lang: str | None, now: datetime) -> None:
    """Set (None: forget) the group's language."""

    conn = uow.conn
    g.save_group_language(conn, group_id, lang, now)
