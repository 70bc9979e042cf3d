"""SPEC section 25's state over the reminder dataset (issue 29), as a running bot leaves it at the simulated day's
start: 10% of users with quiet hours (22:00-07:00 in their zone), 2% away for up to a week, a fifth of the open group
tasks nagging every 24 h (the overdue ones' next nag spread over the day), a few rotations whose turns are two days
late during the day, messages held overnight for a share of the quiet, 300 groups with a Monday summary, and the same
300 with a penalty for missed chores (SPEC section 41: their occurrences due before the day were looked at already).
Drawn with its own random stream, after the reminder rows."""

from __future__ import annotations

import random
from collections import defaultdict
from datetime import date, datetime, time, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from taskcore.chores.nagging import first_nag_at
from taskcore.chores.quiet import QuietHours, held_until
from taskcore.chores.turns import AUTO_PASS_AFTER
from taskcore.chores.weekly import next_weekly
from taskcore.zones import effective_zone

Rows = dict[str, list[dict[str, Any]]]
QUIET = QuietHours(time(22), time(7))
QUIET_SHARE = 0.10
AWAY_SHARE = 0.02
NAG_SHARE = 0.20  # of the open group tasks
ROTATION_SHARE = 0.01  # of the open group tasks
HELD_SHARE = 0.30  # of the quiet inside their window at the start: one or two messages held overnight
WEEKLY_GROUPS = 300
NAG_EVERY = 24
_TASK_DEFAULTS = dict.fromkeys(("nag_every_hours", "nag_escalated_at", "recurrence_rule", "recurrence_text",
                                "rotation_people", "rotation_turn", "turn_passed_at", "missed_at"))
_PART_DEFAULTS = {"nag_count": 0, "nag_last_at": None, "nag_next_at": None}


def add_chores(rows: Rows, rng: random.Random, *, start: datetime, today: date, fallback: ZoneInfo) -> None:
    """Layer section 25's state over ``rows`` (the reminder dataset's), in place; ``rows["held"]`` is new."""
    zones = {p["user_id"]: effective_zone(p["tz"], p["user_id"], fallback).zone for p in rows["prefs"]}
    for pref in rows["prefs"]:
        _person(pref, rng, today)
    _tasks(rows, zones, rng, start=start, today=today)
    rows["held"] = [held for pref in rows["prefs"] for held in _held(pref, zones[pref["user_id"]], rng, start)]
    chosen = set(rng.sample(range(len(rows["groups"])), min(WEEKLY_GROUPS, len(rows["groups"]))))
    for n, group in enumerate(rows["groups"]):
        group.update(_weekly(rng, start, fallback) if n in chosen else dict.fromkeys(_WEEKLY_KEYS))
    penalised = {rows["groups"][n]["id"] for n in chosen}
    rows["penalties"] = [{"group_id": group, "points": 1, "since": start - timedelta(days=30), "set_by": None}
                         for group in sorted(penalised)]
    for task in rows["tasks"]:  # a running bot looked at the occurrences past their date before the day began
        if task["recurrence_rule"] and task["group_id"] in penalised and date.fromisoformat(task["due_date"]) < today:
            task["missed_at"] = start


def _person(pref: dict[str, Any], rng: random.Random, today: date) -> None:
    quiet, away = rng.random() < QUIET_SHARE, rng.random() < AWAY_SHARE
    pref["quiet_from"], pref["quiet_to"] = (f"{QUIET.start:%H:%M}", f"{QUIET.end:%H:%M}") if quiet else (None, None)
    pref["away_until"] = (today + timedelta(days=rng.randrange(7))).isoformat() if away else None


def _tasks(rows: Rows, zones: dict[str, ZoneInfo], rng: random.Random, *, start: datetime, today: date) -> None:
    parts = defaultdict(list)
    for part in rows["assign"]:
        part.update(_PART_DEFAULTS)
        parts[part["task_id"]].append(part)
    members = defaultdict(list)
    for member in rows["members"]:
        members[member["group_id"]].append(member["user_id"])
    for task in rows["tasks"]:
        task.update(_TASK_DEFAULTS)
        draw = rng.random()
        if task["group_id"] is None or not parts[task["id"]]:
            continue
        if draw < NAG_SHARE:
            _nagging(task, parts[task["id"]], zones, rng, start)
        elif draw < NAG_SHARE + ROTATION_SHARE:
            holder = parts[task["id"]][0]["user_id"]
            _rotation(task, holder, members[task["group_id"]], rng, today)
            task["turn_passed_at"] = passed_before(date.fromisoformat(task["due_date"]), zones[holder], start)


def _nagging(task: dict[str, Any], parts: list[dict[str, Any]], zones: dict[str, ZoneInfo], rng: random.Random,
             start: datetime) -> None:
    task["nag_every_hours"] = NAG_EVERY
    for part in parts:
        part.update(nag_part(date.fromisoformat(task["due_date"]), zones[part["user_id"]], rng, start))
        if part["nag_count"] >= 3:
            task["nag_escalated_at"] = start - timedelta(days=1)


def nag_part(due: date, zone: ZoneInfo, rng: random.Random, start: datetime) -> dict[str, Any]:
    """One part's nag columns: its first nag when that is still ahead, else 0-3 sent, the next due during the day."""
    first = first_nag_at(due, zone)
    if first > start:
        return {"nag_count": 0, "nag_last_at": None, "nag_next_at": first}
    following = start + timedelta(minutes=rng.randrange(24 * 60))
    count = min(rng.randrange(4), (following - first).days)
    return {"nag_count": count, "nag_last_at": following - timedelta(hours=NAG_EVERY) if count else None,
            "nag_next_at": following}


def _rotation(task: dict[str, Any], holder: str, members: list[str], rng: random.Random, today: date) -> None:
    others = [person for person in rng.sample(members, min(3, len(members))) if person != holder][:2]
    task.update({"recurrence_rule": "FREQ=WEEKLY", "recurrence_text": "cada semana", "rotation_turn": 0,
                 "rotation_people": " ".join([holder, *others]),
                 "due_date": (today + timedelta(days=rng.randrange(-2, 7))).isoformat()})


def passed_before(due: date, zone: ZoneInfo, start: datetime) -> datetime | None:
    """When a running bot passed on a turn due on ``due`` (two days late in its holder's calendar) if that was before
    ``start``, else None."""
    return start if start.astimezone(zone).date() >= due + AUTO_PASS_AFTER else None


def _held(pref: dict[str, Any], zone: ZoneInfo, rng: random.Random, start: datetime) -> list[dict[str, Any]]:
    release = held_until(QUIET, start, zone) if pref["quiet_from"] else None
    if release is None or rng.random() >= HELD_SHARE:
        return []
    user = pref["user_id"]
    return [{"user_id": user, "chat_id": user, "text": f"Recordatorio {n}", "label": "nag",
             "dedupe_key": f"bench-held:{user}:{n}", "held_at": start - timedelta(hours=n + 1), "release_at": release}
            for n in range(rng.choice((1, 1, 2)))]


_WEEKLY_KEYS = ("summary_weekday", "summary_time", "summary_next_at")


def _weekly(rng: random.Random, start: datetime, zone: ZoneInfo) -> dict[str, Any]:
    at = time(rng.randrange(8, 22), rng.choice((0, 15, 30, 45)))
    return dict(zip(_WEEKLY_KEYS, (0, f"{at:%H:%M}", next_weekly(start - timedelta(seconds=1), 0, at, zone)),
                    strict=True))
