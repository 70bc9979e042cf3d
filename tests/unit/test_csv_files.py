"""The CSV files of SPEC section 35, pure: what the export writes reads back through the import's reader (quoting,
formula marks, accents), the delimiter and the dates are detected, the line cap holds."""

from __future__ import annotations

import csv
import io
from datetime import UTC, date, datetime
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from taskcore.csvfiles.dates import date_warning, order_note, read_order
from taskcore.csvfiles.reading import MAX_LINES, TooManyLines, UnreadableFile, delimiter, read_sheet
from taskcore.csvfiles.writing import BOM, COLUMNS, export_csv
from taskcore.errors import InvalidDescription, ValidationError
from taskcore.i18n import speaking
from taskcore.model import Item, Person, Series, Task
from taskcore.recurrence import pinned
from taskcore.text import sanitize_description
from taskcore.words.read import table_date

MEMBERS = [("1", "Ana María"), ("2", "Luis"), ("3", "Luisa")]


def task(description: str, **fields: object) -> Task:
    values: dict[str, object] = {"id": 1, "description": description, "due_date": None, "group_id": "1@g.us",
                                 "group_name": "Casa", "created_by": "1",
                                 "created_at": datetime(2026, 11, 22, 10, tzinfo=UTC), "completed": False,
                                 "completed_at": None, "completed_by": None}
    return Task(**{**values, **fields})  # type: ignore[arg-type]


def test_a_checklist_is_one_cell_of_items_joined_by_a_bar_and_reads_back() -> None:
    listed = task("Limpiar la cocina", items=(Item(1, "encimera", done=True), Item(2, "horno")))
    text = export_csv([listed]).decode("utf-8")
    assert text.splitlines()[1].endswith(",encimera | horno")
    (row,) = read_sheet(text.encode("utf-8"), MEMBERS).rows
    assert row.items == ("encimera", "horno")


def test_a_season_is_written_in_the_reader_s_words_and_reads_back() -> None:
    rule = "FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9\nFREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYMONTH=1,2,3,10,11,12"
    seasonal = task("Cortar el césped", recurrence=Series(rule, "cada lunes de abril a septiembre, cada 2 semanas el "
                                                                "resto"))
    for lang, words in [("es", "cada lunes de abril a septiembre, cada 2 semanas el resto"),
                        ("pt", "a cada segunda-feira de abril a setembro, a cada 2 semanas o resto"),
                        ("en", "every Monday from April to September, every 2 weeks the rest")]:
        with speaking(lang):
            text = export_csv([seasonal]).decode("utf-8")
        assert f'"{words}"' in text
        (row,) = read_sheet(text.encode("utf-8"), MEMBERS).rows
        assert row.recurrence is not None
        assert pinned(row.recurrence, date(2026, 11, 23)).rule.split("\n") == [  # a Monday: its parts pinned to it
            "FREQ=WEEKLY;BYDAY=MO;BYMONTH=4,5,6,7,8,9", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYMONTH=1,2,3,10,11,12"]


def test_too_many_or_empty_items_make_an_error_line() -> None:
    many = " | ".join(f"cosa {n}" for n in range(21))
    sheet = read_sheet(f"descripción,elementos\nmudanza,{many}\nlimpiar,horno | | nevera\n".encode(), MEMBERS)
    assert [(error.line, error.message) for error in sheet.errors] == [
        (2, "Una tarea tiene como mucho 20 elementos (esta tendría 21)"), (3, "El elemento 2 está vacío")]


def test_the_export_starts_with_a_bom_and_the_header() -> None:
    text = export_csv([]).decode("utf-8")
    assert text == BOM + ",".join(COLUMNS) + "\r\n"


def test_a_recurrence_is_written_in_the_reader_s_words_and_people_by_name() -> None:
    one = task("Regar", assignees=(Person("1", "Ana"), Person("2", None)),
               recurrence=Series("FREQ=WEEKLY;BYDAY=MO,TH", "cada lunes y jueves"))
    with speaking("pt"):
        row = next(csv.DictReader(io.StringIO(export_csv([one]).decode("utf-8-sig"))))
    assert (row["assignees"], row["recurrence"]) == ("Ana, Membro sem nome", "a cada segunda-feira e quinta-feira")


@given(st.text(min_size=1, max_size=200))
def test_every_description_the_export_writes_reads_back_the_same(text: str) -> None:
    try:
        description = sanitize_description(text)
    except InvalidDescription:
        return
    sheet = read_sheet(export_csv([task(description)]), MEMBERS)
    assert [row.description for row in sheet.rows] == [description]


@pytest.mark.parametrize(("first", "found"), [
    ("descripción;fecha", ";"), ("a,b;c,d", ","), ("a\tb", "\t"), ('"x;y",z', ","), ("solo", ","),
])
def test_the_delimiter_is_the_most_frequent_outside_quotes(first: str, found: str) -> None:
    assert delimiter(first + "\nmore") == found


@pytest.mark.parametrize(("cell", "day"), [
    ("2026-03-05", date(2026, 3, 5)), ("05/03/2026", date(2026, 3, 5)), ("5.3.2026", date(2026, 3, 5)),
    ("12/31/2026", None), ("05/03/26", None), ("2026/03/05", None), ("hoy", None),
])
def test_dates_are_iso_or_day_first_with_the_year(cell: str, day: date | None) -> None:
    assert table_date(cell) == day


def test_names_are_matched_as_typed_names_and_two_people_are_an_error() -> None:
    body = "description,assignees\nA,Ana María + luis\nB,AnaMaria\nC,Lu\n".encode()
    sheet = read_sheet(body, [*MEMBERS, ("4", "Luis Gómez")])
    assert [(row.line, row.assignees) for row in sheet.rows] == [(3, ("1",))]
    assert [error.line for error in sheet.errors] == [2, 4]


def test_a_formula_mark_is_dropped_and_quotes_and_line_breaks_are_kept_whole() -> None:
    body = b'description\n"\'=SUM(1)"\n"two\nlines, ""quoted"""\n'
    assert [row.description for row in read_sheet(body, MEMBERS).rows] == ["=SUM(1)", 'two lines, "quoted"']


def test_more_than_the_cap_is_refused_whole_and_blank_lines_do_not_count() -> None:
    read_sheet(("description\n" + "x\n\n" * MAX_LINES).encode(), MEMBERS)
    with pytest.raises(TooManyLines):
        read_sheet(("description\n" + "x\n" * (MAX_LINES + 1)).encode(), MEMBERS)


@pytest.mark.parametrize(("body", "kind", "field"), [
    ("descripción\n".encode("utf-16"), UnreadableFile, "body"),
    (b"", ValidationError, "body"),
    (b"fecha\n2026-01-01\n", ValidationError, "description"),
])
def test_a_file_refused_whole_names_its_field(body: bytes, kind: type[Exception], field: str) -> None:
    with pytest.raises(kind) as caught:
        read_sheet(body, MEMBERS)
    assert getattr(caught.value, "field", None) == field


@pytest.mark.parametrize(("cells", "month_first", "order", "example"), [
    (["12/01/2026", "03/04/2026"], True, "month_first", "12/01/2026"),  # nothing tells: the uploader's
    (["12/01/2026"], False, "day_first", "12/01/2026"),
    (["25/12/2026", "12/01/2026"], True, "day_first", "12/01/2026"),  # 25 can only be a day: the file's order
    (["12/25/2026", "12/01/2026"], False, "month_first", "12/01/2026"),
    (["2026-12-01", "25/12/2026"], True, "day_first", None),  # nothing read both ways: nothing to say
    (["25/12/2026", "12/25/2026"], False, "day_first", None),  # the file contradicts itself: the uploader's
])
def test_a_file_s_date_order_is_the_one_its_cells_tell_else_the_uploader_s(
        cells: list[str], month_first: bool, order: str, example: str | None) -> None:
    dates = read_order(cells, month_first=month_first)
    assert (dates.order.value, dates.example) == (order, example)


def test_a_date_that_does_not_fit_the_order_taken_is_an_error_line() -> None:
    sheet = read_sheet(b"description,due\nA,12/25/2026\nB,01/02/2026\n", MEMBERS, month_first=False)
    assert [row.due for row in sheet.rows] == [date(2026, 12, 25), date(2026, 1, 2)]
    sheet = read_sheet(b"description,due\nA,25/12/2026\nB,12/25/2026\n", MEMBERS, month_first=True)
    assert [row.due for row in sheet.rows] == [date(2026, 12, 25)]
    with speaking("en"):
        sheet = read_sheet(b"description,due\nA,25/12/2026\nB,12/25/2026\n", MEMBERS, month_first=True)
    assert [(error.line, error.message) for error in sheet.errors] == [
        (2, "Invalid date: “25/12/2026”; use YYYY-MM-DD or MM/DD/YYYY")]


def test_the_preview_note_names_one_of_the_file_s_own_cells_in_the_reader_s_words() -> None:
    with speaking("pt", region="BR"):
        assert order_note(read_order(["05/03/2027"], month_first=False)) == (
            "As datas são lidas com o dia primeiro (DD/MM/AAAA): 05/03/2027 é 5 de março de 2027. Se na sua planilha "
            "o mês vem primeiro, escreva-as como AAAA-MM-DD.")
    assert order_note(read_order(["25/03/2027"], month_first=False)) is None


def test_a_sep_line_names_the_delimiter_and_is_no_header() -> None:
    assert delimiter("sep=;\r\ndescription,x;y\r\n") == ";"
    sheet = read_sheet("\ufeffsep=;\r\ndescripción;fecha\r\nRegar, ya;2026-12-01\r\n".encode(), MEMBERS)
    assert [(row.line, row.description, row.due) for row in sheet.rows] == [(3, "Regar, ya", date(2026, 12, 1))]


def test_the_semicolon_export_reads_back_and_writes_times_in_the_zone_given() -> None:
    one = task("Regar, ya")
    text = export_csv([one], zone_of=lambda _task: ZoneInfo("America/Sao_Paulo"), semicolon=True).decode("utf-8")
    assert text.startswith(BOM + "sep=;\r\nid;description;")
    assert "2026-11-22T07:00:00-03:00" in text
    assert [row.description for row in read_sheet(text.encode(), MEMBERS).rows] == ["Regar, ya"]


def test_a_date_before_today_or_beyond_a_year_is_flagged() -> None:
    today = date(2026, 11, 22)
    assert date_warning(date(2026, 11, 22), today) is None
    assert date_warning(date(2027, 11, 22), today) is None
    with speaking("en"):
        assert date_warning(date(2027, 11, 23), today) == (
            "⚠️ The date 2027-11-23 is more than a year away: is that the one you meant?")
        assert date_warning(date(2026, 11, 21), today) == (
            "⚠️ The date 2026-11-21 has already passed: is that the one you meant?")
