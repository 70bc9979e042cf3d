"""The calendar feed's text (SPEC section 22): one all-day event per open task with a due date, read back with the
same iCalendar library a client would use."""

from __future__ import annotations

from dataclasses import replace
from datetime import date, timedelta

import pytest
from icalendar import Calendar

from taskcore.calendar_feed import (
    DEFAULT_UID_DOMAIN,
    build_calendar,
    feed_etag,
    feed_url,
    task_event,
    task_uid,
    uid_domain,
)
from taskcore.completion import CompletionMode
from taskcore.model import Item, Person, Task
from tests.builders import NOW

GROUP = "120363000000000001@g.us"
BASE = "https://tareas.example"


def task(task_id: int = 7, *, due: date | None = date(2026, 11, 30), group: str | None = GROUP,
         name: str | None = "Casa", description: str = "Sacar la basura", completed: bool = False,
         assignees: tuple[Person, ...] = (Person("34600000001", "Ana"),)) -> Task:
    return Task(id=task_id, description=description, due_date=due, group_id=group, group_name=name,
                created_by="34600000001", created_at=NOW, completed=completed, completed_at=None,
                completed_by=None, assignees=assignees)


def events(body: bytes) -> list[dict[str, object]]:
    parsed = Calendar.from_ical(body)
    return [{"uid": str(e["uid"]), "summary": str(e["summary"]), "start": e.decoded("dtstart"),
             "end": e.decoded("dtend"), "description": str(e["description"]), "url": str(e.get("url"))}
            for e in parsed.walk("VEVENT")]


def test_each_open_dated_task_is_one_all_day_event_named_by_id_and_description() -> None:
    body = build_calendar([task()], domain="tareas.example", base_url=BASE)
    assert events(body) == [{
        "uid": "task-7@tareas.example", "summary": "#7 Sacar la basura", "start": date(2026, 11, 30),
        "end": date(2026, 12, 1), "description": "Grupo: Casa\nResponsables: Ana",
        "url": "https://tareas.example/grupos/120363000000000001%40g.us"}]
    assert b"DTSTART;VALUE=DATE:20261130\r\n" in body  # a date, not a time: an all-day event in every client


def test_a_task_s_checklist_is_in_its_event_ticked_or_not() -> None:
    listed = replace(task(), items=(Item(1, "encimera", done=True), Item(2, "horno")))
    (event,) = events(build_calendar([listed], domain="x"))
    assert event["description"] == "Grupo: Casa\nResponsables: Ana\n☑ 1 encimera\n☐ 2 horno"


def test_tasks_without_a_due_date_or_completed_are_left_out() -> None:
    body = build_calendar([task(1, due=None), task(2, completed=True), task(3)], domain="x")
    assert [e["uid"] for e in events(body)] == ["task-3@x"]


def test_a_personal_task_says_so_and_links_to_my_tasks() -> None:
    (event,) = events(build_calendar([task(group=None, name=None)], domain="x", base_url=BASE))
    assert (event["description"], event["url"]) == ("Tarea personal\nResponsables: Ana", f"{BASE}/")


def test_a_task_nobody_has_says_so_and_an_unnamed_group_shows_its_id() -> None:
    (event,) = events(build_calendar([task(name=None, assignees=())], domain="x"))
    assert event["description"] == f"Grupo: {GROUP}\nSin responsable"
    assert event["url"] == "None"  # no WEB_BASE_URL: no link


def test_text_that_means_something_in_icalendar_comes_back_unchanged() -> None:
    tricky = "Pagar 3,50; luego: casa\\garaje — ñandú " + "x" * 120
    (event,) = events(build_calendar([task(description=tricky, name="A, B; C")], domain="x"))
    assert event["summary"] == f"#7 {tricky}"
    assert event["description"].startswith("Grupo: A, B; C\n")


def test_the_calendar_names_itself_and_asks_to_be_refreshed_hourly() -> None:
    parsed = Calendar.from_ical(build_calendar([], domain="x"))
    assert (str(parsed["version"]), str(parsed["x-wr-calname"]), str(parsed["method"])) == ("2.0", "Tareas", "PUBLISH")
    assert parsed.decoded("refresh-interval") == timedelta(hours=1)
    assert str(parsed["x-published-ttl"]) == "PT1H"
    assert parsed.walk("VEVENT") == []


def test_the_uid_of_a_task_never_changes_whatever_is_edited() -> None:
    before = events(build_calendar([task()], domain="x"))[0]["uid"]
    edited = replace(task(), description="Otra cosa", due_date=date(2027, 1, 2), assignees=())
    assert events(build_calendar([edited], domain="x"))[0]["uid"] == before == task_uid(7, "x")


def test_the_same_tasks_give_the_same_bytes_and_the_same_etag() -> None:
    assert build_calendar([task()], domain="x") == build_calendar([task()], domain="x")
    etag = feed_etag([task()], domain="x")
    assert etag == feed_etag([task()], domain="x")
    assert etag.startswith('"')
    assert etag.endswith('"')


CHANGES = {
    "description": lambda t: replace(t, description="Otra"),
    "due date": lambda t: replace(t, due_date=date(2026, 12, 1)),
    "group name": lambda t: replace(t, group_name="Piso"),
    "personal": lambda t: replace(t, group_id=None, group_name=None),
    "assignee name": lambda t: replace(t, assignees=(Person("34600000001", "Ana M."),)),
    "assignee gone": lambda t: replace(t, assignees=()),
    "creation": lambda t: replace(t, created_at=NOW + timedelta(seconds=1)),
    "completed": lambda t: replace(t, completed=True),
    "undated": lambda t: replace(t, due_date=None),
    "shared": lambda t: replace(t, completion=CompletionMode.EACH),
    "part done": lambda t: replace(t, completion=CompletionMode.EACH,
                                   assignees=(Person("34600000001", "Ana", NOW),)),
    "an item": lambda t: replace(t, items=(Item(1, "horno"),)),
    "an item ticked": lambda t: replace(t, items=(Item(1, "horno", done=True),)),
}


@pytest.mark.parametrize("change", CHANGES.values(), ids=list(CHANGES))
def test_the_etag_changes_exactly_when_the_feed_does(change: object) -> None:
    before, after = [task(), task(8)], [task(), change(task(8))]  # type: ignore[operator]
    assert build_calendar(before, domain="x") != build_calendar(after, domain="x")
    assert feed_etag(before, domain="x") != feed_etag(after, domain="x")


def test_the_etag_follows_the_uid_domain_and_the_links_too() -> None:
    etags = {feed_etag([task()], domain=d, base_url=b) for d, b in (("x", None), ("y", None), ("x", BASE))}
    assert len(etags) == 3


def test_tasks_left_out_of_the_feed_do_not_change_its_etag() -> None:
    assert feed_etag([task(), task(9, due=None), task(10, completed=True)], domain="x") == feed_etag(
        [task()], domain="x")


def test_a_shared_task_ticks_the_parts_done_and_shows_its_progress() -> None:
    people = (Person("34600000001", "Ana", NOW), Person("34600000002", "Bea"), Person("34600000003", None))
    (event,) = events(build_calendar([replace(task(), completion=CompletionMode.EACH, assignees=people)], domain="x"))
    assert event["description"] == "Grupo: Casa\nResponsables: Ana ✓, Bea, Miembro sin nombre (1/3 partes)"


def test_an_event_needs_a_due_date() -> None:
    with pytest.raises(ValueError, match="due date"):
        task_event(task(due=None), domain="x")


@pytest.mark.parametrize(("base", "domain"), [
    ("https://tareas.example.org", "tareas.example.org"), ("http://127.0.0.1:3000", "127.0.0.1"),
    (None, DEFAULT_UID_DOMAIN), ("", DEFAULT_UID_DOMAIN)])
def test_uids_carry_the_host_of_web_base_url(base: str | None, domain: str) -> None:
    assert uid_domain(base) == domain


def test_the_feed_url_sits_under_the_base_url() -> None:
    assert feed_url(BASE, "abc_-12") == f"{BASE}/cal/abc_-12.ics"


def test_the_feeds_words_are_in_the_owners_language_and_the_etag_tells_the_languages_apart() -> None:
    tasks = [task(1, group=None, name=None, assignees=()), task(2, assignees=(Person("34600000001", "Ana"),))]
    spanish, portuguese, english = (build_calendar(tasks, domain="x", lang=lang) for lang in ("es", "pt", "en"))
    described = [[e["description"] for e in events(body)] for body in (spanish, portuguese, english)]
    assert described == [["Tarea personal\nSin responsable", "Grupo: Casa\nResponsables: Ana"],
                         ["Tarefa pessoal\nSem responsável", "Grupo: Casa\nResponsáveis: Ana"],
                         ["Personal task\nNobody assigned", "Group: Casa\nAssigned to: Ana"]]
    assert str(Calendar.from_ical(portuguese)["x-wr-calname"]) == "Tarefas"
    assert str(Calendar.from_ical(english)["x-wr-caldesc"]) == "Your open tasks with a due date"
    assert build_calendar(tasks, domain="x") == spanish  # outside any block: Spanish, as before
    assert len({feed_etag(tasks, domain="x", lang=lang) for lang in ("es", "pt", "en")}) == 3
    assert feed_etag(tasks, domain="x") == feed_etag(tasks, domain="x", lang="es")
