"""Chores in and out through the real web app (SPEC section 35): the CSV export read back as a spreadsheet program
would read it, and an import previewed, then created with one group message sent to the fake gateway."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import AsyncIterator
from typing import Any

import pytest
from sqlalchemy import select

from taskcore.access import GatingMode
from taskcore.services import languages
from taskcore.services import tasks as task_service
from taskcore.storage import schema
from taskcore.storage.db import Database
from taskcore.storage.users import ensure_user
from tasksvc_run import units
from tasksvc_run.bot.worker import QueueWorker
from tasksvc_run.clock import SystemClock
from tasksvc_run.gateways.evolution import EvolutionGateway
from tasksvc_run.metrics import Metrics
from tasksvc_run.web.routes import document
from tests.builders import NOW, make_group, make_task
from tests.fakes.gateway import FakeGateway
from tests.integration.test_queue_worker import FAST, run_until_drained
from tests.integration.web_helpers import GROUP, ME, OTHER, WebEnv, check_documented, web_env

THIRD = "34600000003"
CSV = {"Content-Type": "text/csv; charset=utf-8"}
SPANISH = (
    "Descripción;Fecha;Asignados;Repetición;Puntos\r\n"
    "Sacar la basura;05/12/2026;Ana y Bruno;cada lunes !turnos;2\r\n"
    "Regar las plantas;31/02/2026;;;\r\n"
    "\"Comprar pan; y leche\";2026-12-01;Bruno;;\r\n"
    ";;;;\r\n"
    "Limpiar el baño;;Pedro;;\r\n"
    "Pasear al perro;;;cada día;11\r\n"
    "Fregar;07/12/2026;ana;;3\r\n"
)


@pytest.fixture
async def web(db: Database) -> AsyncIterator[WebEnv]:
    make_group(db, GROUP, name="Piso Ñandú", members=(ME, OTHER, THIRD))
    with db.write() as conn:
        ensure_user(conn, ME, NOW, name="Ana")
        ensure_user(conn, OTHER, NOW, name="Bruno")
    async with web_env(db) as env:
        yield env


def task_rows(db: Database) -> list[Any]:
    t = schema.tasks
    with db.read() as conn:
        return list(conn.execute(select(t.c.id, t.c.description, t.c.due_date, t.c.points, t.c.recurrence_rule,
                                        t.c.rotation_people).order_by(t.c.id)))


def queued_texts(db: Database) -> list[str]:
    q = schema.outbound_queue
    with db.read() as conn:
        return [json.loads(payload)["text"] for payload in conn.execute(select(q.c.payload).order_by(q.c.id))
                .scalars()]


async def fetch(web: WebEnv, path: str, user: str | None = ME) -> tuple[int, dict[str, str], bytes]:
    headers = web.session_for(user) if user else {}
    async with web.client.get(path, headers=headers) as response:
        return response.status, dict(response.headers), await response.read()


class TestExport:
    async def test_a_group_s_file_opens_with_accents_names_and_quoting_intact(self, web: WebEnv) -> None:
        tricky = 'Comprar "pan", leche\ny café'
        first = make_task(web.db, creator=ME, group_id=GROUP, description=tricky, due="2026-12-01",
                          assignees=(ME, OTHER))
        done = make_task(web.db, creator=OTHER, group_id=GROUP, description="=1+2 señal", assignees=(THIRD,))
        units.run(web.db, task_service.complete_task, GatingMode.ENFORCE, user_id=THIRD, task_id=done.id, now=NOW,
                  today=NOW.date())
        status, headers, body = await fetch(web, f"/api/groups/{GROUP}/tasks.csv")
        assert status == 200
        assert headers["Content-Type"] == "text/csv; charset=utf-8"
        assert headers["Content-Disposition"] == 'attachment; filename="group-tasks-2026-11-22.csv"'
        assert body.startswith(b"\xef\xbb\xbf")
        text = body.decode("utf-8-sig")
        assert "\r\n" in text
        rows = list(csv.reader(io.StringIO(text, newline="")))
        assert rows[0] == ["id", "description", "group", "due_date", "assignees", "state", "recurrence", "points",
                           "created_at", "completed_at", "items"]
        assert rows[1] == [str(first.id), "Comprar \"pan\", leche y café", "Piso Ñandú", "2026-12-01", "Ana, Bruno",
                           "open", "", "1", "2026-11-22T11:00:00+01:00", "", ""]  # the reader's zone: no group one
        assert rows[2][1] == "'=1+2 señal"  # a spreadsheet shows it, never computes it
        assert rows[2][4] == "Miembro sin nombre"
        assert rows[2][5] == "completed"
        assert rows[2][9] == "2026-11-22T11:00:00+01:00"
        for digits in (ME, OTHER, THIRD):
            assert digits not in text

    async def test_the_description_s_own_line_breaks_and_quotes_are_quoted_as_rfc_4180_says(self,
                                                                                        web: WebEnv) -> None:
        make_task(web.db, creator=ME, group_id=GROUP, description="x")
        with web.db.write() as conn:  # a description stored before sanitising existed is still quoted
            conn.execute(schema.tasks.update().values(description='a,b "c"\nd'))
        _, _, body = await fetch(web, f"/api/groups/{GROUP}/tasks.csv")
        assert '"a,b ""c""\nd"' in body.decode("utf-8-sig")

    async def test_my_file_holds_my_tasks_of_every_group_and_my_personal_ones_in_my_language(self,
                                                                                         web: WebEnv) -> None:
        make_task(web.db, creator=OTHER, group_id=GROUP, description="Mía", assignees=(ME,))
        make_task(web.db, creator=OTHER, group_id=GROUP, description="De Bruno", assignees=(OTHER,))
        make_task(web.db, creator=ME, group_id=None, description="Personal")
        with web.db.write() as conn:
            conn.execute(schema.tasks.update().where(schema.tasks.c.description == "Mía").values(
                recurrence_rule="FREQ=WEEKLY;BYDAY=MO", recurrence_text="cada lunes"))
        status, headers, body = await fetch(web, "/api/me/tasks.csv")
        rows = list(csv.DictReader(io.StringIO(body.decode("utf-8-sig"), newline="")))
        assert status == 200
        assert headers["Content-Disposition"] == 'attachment; filename="my-tasks-2026-11-22.csv"'
        assert [(row["description"], row["group"], row["recurrence"]) for row in rows] == [
            ("Mía", "Piso Ñandú", "cada lunes"), ("Personal", "", "")]

    async def test_the_recurrence_is_in_the_reader_s_words(self, web: WebEnv) -> None:
        units.run(web.db, languages.choose_language, user_id=ME, lang="en", default="es", now=NOW)
        make_task(web.db, creator=OTHER, group_id=GROUP, description="Mía", assignees=(ME,))
        with web.db.write() as conn:
            conn.execute(schema.tasks.update().values(recurrence_rule="FREQ=WEEKLY;BYDAY=MO",
                                                      recurrence_text="cada lunes"))
        _, _, body = await fetch(web, "/api/me/tasks.csv")
        assert next(iter(csv.DictReader(io.StringIO(body.decode("utf-8-sig")))))["recurrence"] == "every Monday"

    async def test_a_group_one_is_not_a_member_of_is_403_and_no_session_401(self, web: WebEnv) -> None:
        make_group(web.db, "120363000000000009@g.us", members=(OTHER,))
        assert (await fetch(web, "/api/groups/120363000000000009@g.us/tasks.csv"))[0] == 403
        assert (await fetch(web, f"/api/groups/{GROUP}/tasks.csv", user=None))[0] == 401

    def test_the_document_describes_both_files_as_text_csv(self) -> None:
        for path in ("/api/me/tasks.csv", "/api/groups/{id}/tasks.csv"):
            assert list(document()["paths"][path]["get"]["responses"]["200"]["content"]) == ["text/csv"]
        operation = document()["paths"]["/api/groups/{id}/tasks/import"]["post"]
        assert list(operation["requestBody"]["content"]) == ["text/csv"]
        assert {"200", "201", "413", "415"} <= set(operation["responses"])


class TestImport:
    async def test_a_spanish_semicolon_file_previews_then_creates_the_valid_lines_with_one_message(
            self, web: WebEnv, gateway: FakeGateway, client: EvolutionGateway) -> None:
        url = f"/api/groups/{GROUP}/tasks/import"
        status, preview = await web.call("POST", f"{url}?dry_run=true", data=SPANISH.encode(), headers=CSV)
        assert status == 200
        check_documented(document(), "/api/groups/{id}/tasks/import", "POST", 200, preview)
        assert preview["rows"] == [
            {"line": 2, "description": "Sacar la basura", "due_date": "2026-12-05", "assignees": ["Ana", "Bruno"],
             "recurrence": "cada lunes", "points": 2, "warning": None, "items": []},
            {"line": 4, "description": "Comprar pan; y leche", "due_date": "2026-12-01", "assignees": ["Bruno"],
             "recurrence": None, "points": 1, "warning": None, "items": []},
            {"line": 8, "description": "Fregar", "due_date": "2026-12-07", "assignees": ["Ana"],
             "recurrence": None, "points": 3, "warning": None, "items": []}]
        assert (preview["date_order"], preview["notes"]) == ("day_first", [
            "Las fechas se leen con el día primero (DD/MM/AAAA): 05/12/2026 es el 5 de diciembre de 2026. Si en tu "
            "hoja va el mes primero, escríbelas como AAAA-MM-DD."])
        assert [(error["line"], error["message"]) for error in preview["errors"]] == [
            (3, "Fecha no válida: «31/02/2026»; usa AAAA-MM-DD o DD/MM/AAAA"),
            (6, "Nadie del grupo se llama «Pedro»"),
            (7, "Los puntos van de 1 a 10")]
        assert task_rows(web.db) == []
        assert queued_texts(web.db) == []

        status, done = await web.call("POST", url, data=SPANISH.encode(), headers=CSV)
        assert status == 201
        check_documented(document(), "/api/groups/{id}/tasks/import", "POST", 201, done)
        rows = task_rows(web.db)
        assert [(row.description, row.due_date, row.points) for row in rows] == [
            ("Sacar la basura", "2026-12-05", 2), ("Comprar pan; y leche", "2026-12-01", 1),
            ("Fregar", "2026-12-07", 3)]  # the date given is the series' first, as in /t nueva
        assert rows[0].recurrence_rule == "FREQ=WEEKLY;BYDAY=MO"
        assert rows[0].rotation_people is not None
        assert done["created"] == [{"line": 2, "id": rows[0].id}, {"line": 4, "id": rows[1].id},
                                   {"line": 8, "id": rows[2].id}]
        assert [error["line"] for error in done["errors"]] == [3, 6, 7]
        worker = QueueWorker(web.db, client, clock=SystemClock(), metrics=Metrics(), config=FAST)
        await run_until_drained(worker, web.db)
        ids = ", ".join(f"#{row.id}" for row in rows)
        assert gateway.sent_texts() == [f"Ana ha importado 3 tareas desde un archivo ({ids}). Míralas con /t ver."]

    async def test_a_501_line_file_is_refused_with_413_and_creates_nothing(self, web: WebEnv) -> None:
        body = "description\n" + "".join(f"Tarea {n}\n" for n in range(501))
        status, problem = await web.call("POST", f"/api/groups/{GROUP}/tasks/import", data=body.encode(),
                                         headers=CSV)
        assert status == 413
        assert problem["errors"][0]["field"] == "body"
        assert "501" in problem["detail"]
        assert task_rows(web.db) == []

    async def test_500_lines_are_taken(self, web: WebEnv) -> None:
        body = "description\n" + "".join(f"Tarea {n}\n" for n in range(500))
        status, done = await web.call("POST", f"/api/groups/{GROUP}/tasks/import?dry_run=1", data=body.encode(),
                                      headers=CSV)
        assert (status, len(done["rows"])) == (200, 500)

    async def test_a_body_over_the_size_cap_is_413(self, web: WebEnv) -> None:
        body = "description\n" + "x" * (1024 * 1024 + 10)
        status, problem = await web.call("POST", f"/api/groups/{GROUP}/tasks/import",
                                         data=io.BytesIO(body.encode()), headers=CSV)
        assert (status, problem["errors"][0]["field"]) == (413, "body")

    @pytest.mark.parametrize(("body", "status", "field"), [
        (b"Fecha;Puntos\n2026-12-01;2\n", 422, "description"),
        (b"", 422, "body"),
        (b"  \r\n\r\n", 422, "body"),
        ("Descripción\nCafé\n".encode("latin-1"), 400, "body"),
    ])
    async def test_a_file_refused_whole_names_the_field(self, web: WebEnv, body: bytes, status: int,
                                                        field: str) -> None:
        answer_status, problem = await web.call("POST", f"/api/groups/{GROUP}/tasks/import?dry_run=true",
                                                data=body, headers=CSV)
        assert (answer_status, [error["field"] for error in problem["errors"]]) == (status, [field])

    async def test_english_headers_and_a_tab_file_with_an_export_s_columns(self, web: WebEnv) -> None:
        body = "id\tDescription\tdue_date\tassignees\tstate\n7\tWater the plants\t2026-12-01\tBruno\topen\n"
        status, done = await web.call("POST", f"/api/groups/{GROUP}/tasks/import?dry_run=true", data=body.encode(),
                                      headers={**CSV, "Accept-Language": "en"})
        assert status == 200
        assert done["rows"] == [{"line": 2, "description": "Water the plants", "due_date": "2026-12-01",
                                 "assignees": ["Bruno"], "recurrence": None, "points": 1, "warning": None, "items": []}]

    async def test_line_errors_are_in_the_reader_s_language(self, web: WebEnv) -> None:
        units.run(web.db, languages.choose_language, user_id=ME, lang="pt", default="es", now=NOW)
        body = "descrição,data\nLavar,31/02/2026\n"
        _, done = await web.call("POST", f"/api/groups/{GROUP}/tasks/import?dry_run=true", data=body.encode(),
                                 headers=CSV)
        assert done["errors"][0]["message"].startswith("Data inválida")

    async def test_a_file_without_valid_lines_is_a_422_naming_them_and_announces_nothing(self,
                                                                                     web: WebEnv) -> None:
        status, problem = await web.call("POST", f"/api/groups/{GROUP}/tasks/import", data=b"description,due\n"
                                         b"Pan,ayer\n", headers=CSV)
        assert (status, [error["field"] for error in problem["errors"]]) == (422, ["line 2"])
        assert queued_texts(web.db) == []

    async def test_only_a_member_imports_and_only_text_csv(self, web: WebEnv) -> None:
        make_group(web.db, "120363000000000009@g.us", members=(OTHER,))
        status, _ = await web.call("POST", "/api/groups/120363000000000009@g.us/tasks/import", data=b"description\n"
                                   b"Pan\n", headers=CSV)
        assert status == 403
        status, _ = await web.call("POST", f"/api/groups/{GROUP}/tasks/import", data=b"description\nPan\n",
                                   headers={"Content-Type": "text/plain"})
        assert status == 415
        assert task_rows(web.db) == []


AMERICAN, BRITON = "13105550123", "447812345678"
HOUSE = "120363000000000002@g.us"


class TestSpreadsheetDates:
    """SPEC section 39: dates as spreadsheets write them, and times in the group's zone."""

    async def test_an_american_s_12_01_2026_is_december_1_and_the_preview_says_so(self, web: WebEnv) -> None:
        """Measured: an American's 12/01/2026 became 12 January without a word."""
        make_group(web.db, HOUSE, name="House", members=(AMERICAN,))
        body = b"description,due date\nPay the rent,12/01/2026\nClean the gutters,01/02/2027\n"
        url = f"/api/groups/{HOUSE}/tasks/import"
        status, preview = await web.call("POST", f"{url}?dry_run=true", user=AMERICAN, data=body, headers=CSV)
        assert status == 200
        check_documented(document(), "/api/groups/{id}/tasks/import", "POST", 200, preview)
        assert [row["due_date"] for row in preview["rows"]] == ["2026-12-01", "2027-01-02"]
        assert preview["date_order"] == "month_first"
        assert preview["notes"] == ["Dates are read month first (MM/DD/YYYY): 12/01/2026 is December 1, 2026. If "
                                    "your sheet puts the day first, write them as YYYY-MM-DD."]
        status, _ = await web.call("POST", url, user=AMERICAN, data=body, headers=CSV)
        assert status == 201
        assert [str(row.due_date) for row in task_rows(web.db)] == ["2026-12-01", "2027-01-02"]

    async def test_a_briton_reads_the_same_file_day_first(self, web: WebEnv) -> None:
        make_group(web.db, HOUSE, name="House", members=(BRITON,))
        body = b"description,due date\nPay the rent,12/01/2027\n"
        _, preview = await web.call("POST", f"/api/groups/{HOUSE}/tasks/import?dry_run=true", user=BRITON,
                                    data=body, headers=CSV)
        assert [row["due_date"] for row in preview["rows"]] == ["2027-01-12"]
        assert preview["notes"] == ["Dates are read day first (DD/MM/YYYY): 12/01/2027 is 12 January 2027. If your "
                                    "sheet puts the month first, write them as YYYY-MM-DD."]

    async def test_a_file_that_tells_its_order_is_read_so_whoever_uploads_it(self, web: WebEnv) -> None:
        make_group(web.db, HOUSE, name="House", members=(AMERICAN,))
        body = b"description,due date\nPay the rent,25/12/2026\nWater,05/12/2026\n"
        _, preview = await web.call("POST", f"/api/groups/{HOUSE}/tasks/import?dry_run=true", user=AMERICAN,
                                    data=body, headers=CSV)
        assert [row["due_date"] for row in preview["rows"]] == ["2026-12-25", "2026-12-05"]
        assert preview["date_order"] == "day_first"

    async def test_a_date_in_the_past_or_over_a_year_ahead_is_flagged_as_the_chat_flags_it(self,
                                                                                       web: WebEnv) -> None:
        body = "descripción,fecha\nPasado,2025-03-26\nLejos,2028-01-01\nBien,2026-12-01\n".encode()
        _, preview = await web.call("POST", f"/api/groups/{GROUP}/tasks/import?dry_run=true", data=body, headers=CSV)
        assert [row["warning"] for row in preview["rows"]] == [
            "⚠️ La fecha 2025-03-26 ya pasó: ¿es la que querías?",
            "⚠️ La fecha 2028-01-01 está a más de un año: ¿es la que querías?", None]

    async def test_the_export_writes_times_in_the_group_s_zone_with_its_offset(self, web: WebEnv) -> None:
        with web.db.write() as conn:
            conn.execute(schema.groups.update().values(time_zone="America/Sao_Paulo"))
        make_task(web.db, creator=ME, group_id=GROUP, description="Lavar", due="2026-12-01")
        _, _, body = await fetch(web, f"/api/groups/{GROUP}/tasks.csv")
        row = next(csv.DictReader(io.StringIO(body.decode("utf-8-sig"), newline="")))
        assert row["created_at"] == "2026-11-22T07:00:00-03:00"

    async def test_the_semicolon_variant_names_its_delimiter_and_reads_back(self, web: WebEnv) -> None:
        make_task(web.db, creator=ME, group_id=GROUP, description="Comprar pan, leche", due="2026-12-01",
                  assignees=(ME, OTHER))
        status, _, body = await fetch(web, f"/api/groups/{GROUP}/tasks.csv?sep=semicolon")
        assert status == 200
        text = body.decode("utf-8-sig")
        assert text.startswith("sep=;\r\nid;description;group;due_date;")
        assert ";Comprar pan, leche;Piso Ñandú;2026-12-01;Ana, Bruno;open;" in text
        _, preview = await web.call("POST", f"/api/groups/{GROUP}/tasks/import?dry_run=true", data=body,
                                    headers=CSV)
        assert [(row["line"], row["description"], row["assignees"]) for row in preview["rows"]] == [
            (3, "Comprar pan, leche", ["Ana", "Bruno"])]
        assert (await fetch(web, f"/api/groups/{GROUP}/tasks.csv?sep=tab"))[0] == 422


class TestChecklistsAndSeasons:
    """SPEC section 41: a task's checklist and a seasonal rule survive the export and the import."""

    async def test_an_exported_checklist_and_season_come_back_on_import_in_the_reader_s_language(
            self, web: WebEnv) -> None:
        from taskcore.recurrence import parse_recurrence  # noqa: PLC0415 - only this class reads a rule

        rule = parse_recurrence("cada lunes de abril a septiembre, cada 2 semanas el resto")
        units.run(web.db, task_service.create_task, creator=ME, description="Cortar el césped", group_id=GROUP,
                  assignees=(ME,), now=NOW, recurrence=rule, today=NOW.date(), items=("bordes", "recoger"))
        status, _headers, body = await fetch(web, f"/api/groups/{GROUP}/tasks.csv")
        assert status == 200
        rows = list(csv.reader(io.StringIO(body.decode("utf-8-sig"), newline="")))
        shown = dict(zip(rows[0], rows[1], strict=True))
        assert (shown["recurrence"], shown["items"]) == (
            "cada lunes de abril a septiembre, cada 2 semanas el resto", "bordes | recoger")
        english = body.decode("utf-8-sig").replace(shown["recurrence"],
                                                   "every Monday from April to September, every 2 weeks the rest")
        url = f"/api/groups/{GROUP}/tasks/import"
        status, preview = await web.call("POST", f"{url}?dry_run=true", data=english.encode(),
                                         headers=CSV)
        assert status == 200
        assert [(row["recurrence"], row["items"]) for row in preview["rows"]] == [  # read in English, shown in Ana's
            ("cada lunes de abril a septiembre, cada 2 semanas el resto", ["bordes", "recoger"])]
        status, _done = await web.call("POST", url, data=english.encode(), headers=CSV)
        assert status == 201
        first, again = task_rows(web.db)
        assert again.recurrence_rule == first.recurrence_rule
        _, listed = await web.call("GET", f"/api/groups/{GROUP}/tasks")
        assert [[item["text"] for item in task["items"]] for task in listed["items"]] == [["bordes", "recoger"]] * 2
