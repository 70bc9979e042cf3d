"""Dates for the reader (SPEC section 39): an English reader never sees a day and month one could read either way
(``6 Dec`` in Britain, ``Dec 6`` in the United States, by CLDR); Spanish and Portuguese keep ``dd/MM``; English
readers see 12-hour times where CLDR's en-US does; overdue is decided in the group's zone (summaries) or the
reader's (lists), never the server's."""

from __future__ import annotations

from datetime import UTC, date, datetime, time

import pytest

from taskcore.i18n import clock_time, current_locale, date_and_time, day_and_month, speaking
from taskcore.storage.db import Database
from tests.builders import GROUP, make_group, make_task, wa_text
from tests.chat_support import run, texts

ANA, BRIT, YANK, BR = "34600111111", "447812345678", "13105550123", "5521987654321"
DEC_6 = date(2026, 12, 6)
LATE_EVENING_IN_BRAZIL = datetime(2026, 11, 22, 23, 30, tzinfo=UTC)  # 20:30 in São Paulo, 00:30 on 23/11 in Madrid


@pytest.mark.parametrize(("lang", "region", "shown"), [
    ("en", "GB", "6 Dec"), ("en", "US", "Dec 6"), ("en", None, "Dec 6"), ("en", "IE", "6 Dec"),
    ("es", "MX", "06/12"), ("pt", "BR", "06/12"), ("es", None, "06/12"),
])
def test_a_day_and_month_as_each_reader_reads_it(lang: str, region: str | None, shown: str) -> None:
    with speaking(lang, region=region):
        assert day_and_month(DEC_6) == shown


@pytest.mark.parametrize(("lang", "region", "shown"), [
    ("en", "US", "6:05 PM"), ("en", "GB", "18:05"), ("es", "MX", "18:05"), ("pt", "BR", "18:05"),
])
def test_twelve_hours_where_cldr_s_en_us_has_them(lang: str, region: str, shown: str) -> None:
    with speaking(lang, region=region):
        assert clock_time(time(18, 5)) == shown


def test_a_moment_on_the_pages_and_an_unknown_country() -> None:
    moment = datetime(2026, 12, 6, 18, 5)
    with speaking("en", region="US"):
        assert date_and_time(moment) == "Dec 6, 2026 6:05 PM"
    with speaking("en", region="GB"):
        assert date_and_time(moment) == "6 Dec 2026 18:05"
    with speaking("pt", region="BR"):
        assert date_and_time(moment) == "06/12/2026 18:05"
    with speaking("en", region="ZZ"):  # a country Babel has no English for: English as CLDR writes it
        assert current_locale() == "en"


def test_an_inner_block_without_a_region_keeps_the_reader_s() -> None:
    with speaking("en", region="GB"), speaking("en"):
        assert day_and_month(DEC_6) == "6 Dec"


def say(db: Database, text: str, sender: str, *, now: datetime | None = None) -> str:
    run(db, wa_text(text, sender=sender, group=GROUP), **({"now": now} if now else {}))
    return texts(db)[-1]


def test_a_listing_in_english_names_the_month_as_the_reader_s_country_writes_it(db: Database) -> None:
    make_group(db, GROUP, members=(BRIT, YANK, ANA))
    make_task(db, creator=BRIT, group_id=GROUP, description="Water the plants", due="2026-12-06", assignees=(BRIT,))
    assert "6 Dec" in say(db, "/t list", BRIT)
    assert "Dec 6" in say(db, "/t list", YANK)
    assert "06/12" in say(db, "/t ver", ANA)


def test_a_date_set_in_english_is_confirmed_without_ambiguity(db: Database) -> None:
    make_group(db, GROUP, members=(YANK,))
    task = make_task(db, creator=YANK, group_id=GROUP, description="Call the plumber", assignees=(YANK,))
    reply = say(db, f"/t due {task.id} 2026-12-06", YANK)
    assert "Dec 6" in reply
    assert "06/12" not in reply


def test_the_summary_decides_overdue_in_the_group_s_zone(db: Database) -> None:
    """Measured: /t resumo listed as overdue a task due today in São Paulo (the server was on Madrid's day)."""
    make_group(db, GROUP, members=(BR,))
    task = make_task(db, creator=BR, group_id=GROUP, description="Lavar a louça", due="2026-11-22", assignees=(BR,))
    say(db, "/t zona São Paulo", BR)
    reply = say(db, "/t resumo", BR, now=LATE_EVENING_IN_BRAZIL)
    assert f"#{task.id}" not in reply
    assert "vencidas" not in reply


def test_a_group_without_a_zone_sums_up_in_the_asker_s(db: Database) -> None:
    make_group(db, GROUP, members=(BR,))
    task = make_task(db, creator=BR, group_id=GROUP, description="Lavar a louça", due="2026-11-22", assignees=(BR,))
    assert f"#{task.id}" not in say(db, "/t resumo", BR, now=LATE_EVENING_IN_BRAZIL)
    late = make_task(db, creator=BR, group_id=GROUP, description="Tirar o lixo", due="2026-11-21", assignees=(BR,))
    assert f"#{late.id}" in say(db, "/t resumo", BR, now=LATE_EVENING_IN_BRAZIL)


def test_an_american_s_reminders_and_quiet_hours_are_on_a_12_hour_clock(db: Database) -> None:
    make_group(db, GROUP, members=(YANK, BRIT))
    assert say(db, "/t reminders daily 18:00", YANK).endswith(
        "Reminders every day at 6:00 PM (America/Los_Angeles time).")
    assert "Quiet hours from 10:00 PM to 7:00 AM" in say(db, "/t quiet 22:00-07:00", YANK)
    assert say(db, "/t reminders daily 18:00", BRIT).endswith("Reminders every day at 18:00 (Europe/London time).")
    assert "Quiet hours from 22:00 to 07:00" in say(db, "/t quiet 22:00-07:00", BRIT)
