"""Log lines: one per event, key=value or JSON, tagged with the process; a request aiohttp cannot parse is one
warning line, not an error with a traceback."""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Iterator

import pytest
from aiohttp import web

from tasksvc_run.logs import setup_logging


@pytest.fixture
def restored_logging() -> Iterator[None]:
    root = logging.getLogger()
    handlers, level = root.handlers[:], root.level
    yield
    root.handlers[:] = handlers
    root.setLevel(level)


def test_a_key_value_line_carries_the_process_the_message_and_the_extra_fields(
    restored_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    setup_logging("bot")
    logging.getLogger("tasksvc.test").info("migrations up to date", extra={"applied": 2, "path": "/a b"})
    line = capsys.readouterr().err.strip()
    assert "\n" not in line
    assert " level=info proc=bot logger=tasksvc.test " in line
    assert 'msg="migrations up to date" applied=2 path="/a b"' in line


def test_a_json_line_is_one_object_with_the_same_fields(
    restored_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    setup_logging("web", log_format="json")
    try:
        raise ValueError("boom")
    except ValueError:
        logging.getLogger("tasksvc.test").exception("failed", extra={"path": "/api"})
    record = json.loads(capsys.readouterr().err)
    assert (record["proc"], record["level"], record["msg"], record["path"]) == ("web", "error", "failed", "/api")
    assert "ValueError: boom" in record["exc"]


async def _send_raw(raw: bytes) -> bytes:
    app = web.Application()
    runner = web.AppRunner(app)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(raw)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(100), 5)
        writer.close()
        return answer
    finally:
        await runner.cleanup()


@pytest.mark.parametrize(("raw", "warnings"), [
    (b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", 1),  # aiohttp: ERROR with a traceback
    (b"GET / HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n", 1),
    (b"GARBAGE / HTTP/1.1\r\n\r\n", 0),  # aiohttp itself says this one at DEBUG only
])
async def test_a_request_that_cannot_be_parsed_is_one_warning_line_without_a_traceback(
    restored_logging: None, capsys: pytest.CaptureFixture[str], raw: bytes, warnings: int
) -> None:
    setup_logging("proxy")
    answer = await _send_raw(raw)
    assert answer.startswith((b"HTTP/1.0 400", b"HTTP/1.1 400"))
    output = capsys.readouterr().err
    assert "Traceback" not in output, output
    assert "level=error" not in output, output
    lines = [line for line in output.splitlines() if "aiohttp.server" in line]
    assert len(lines) == warnings, lines
    for line in lines:
        assert "level=warning" in line
        assert 'msg="malformed HTTP request rejected" reason=' in line


# Phone numbers (SPEC section 16): only the last four digits ever reach a line.

PHONE, LID = "34600112233", "123456789012345"


def test_phone_numbers_in_the_message_the_fields_and_the_traceback_show_only_their_last_four_digits(
    restored_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    setup_logging("bot", log_format="json")
    try:
        raise KeyError(f"{PHONE}:7@s.whatsapp.net")
    except KeyError:
        logging.getLogger("tasksvc.test").exception(
            "no chat for %s", f"{LID}@lid", extra={"user": PHONE, "error": f'[{{"number":"{PHONE}"}}]'})
    line = capsys.readouterr().err
    assert PHONE not in line
    assert LID not in line
    record = json.loads(line)
    assert record["msg"] == "no chat for ***2345@lid"
    assert record["user"] == "***2233"
    assert record["error"] == '[{"number":"***2233"}]'
    assert "KeyError: '***2233:7@s.whatsapp.net'" in record["exc"]


def test_a_masked_key_value_line_keeps_group_ids_numbers_and_short_figures(
    restored_logging: None, capsys: pytest.CaptureFixture[str]
) -> None:
    setup_logging("bot")
    logging.getLogger("tasksvc.test").warning("member sync: participants unavailable", extra={
        "group": "120363012345678901@g.us", "old_group": f"{PHONE}-1580000000@g.us", "job": 12345678,
        "pid": 4194304, "port": "3007"})
    line = capsys.readouterr().err
    assert "group=120363012345678901@g.us" in line
    assert "old_group=***2233-1580000000@g.us" in line
    assert "job=12345678 pid=4194304 port=3007" in line
