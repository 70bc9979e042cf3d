"""One line per event, key=value or JSON, with the process name; secrets never reach a line, and phone numbers
only as their last four digits (SPEC section 16)."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

from taskcore.identity import mask_phone_numbers

_RESERVED = set(logging.LogRecord("", 0, "", 0, "", (), None).__dict__) | {"message", "asctime"}


def _fields(record: logging.LogRecord) -> dict[str, Any]:
    fields: dict[str, Any] = {
        "ts": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
        "level": record.levelname.lower(),
        "proc": getattr(record, "proc", record.processName),
        "logger": record.name,
        "msg": record.getMessage(),
    }
    fields |= {k: v for k, v in record.__dict__.items() if k not in _RESERVED and k != "proc"}
    if record.exc_info:
        fields["exc"] = logging.Formatter().formatException(record.exc_info)
    # Every text of the line, the message, the extra fields and the traceback alike: a user id, a JID or a number in
    # a gateway's error can turn up in any of them.
    return {k: mask_phone_numbers(v) if isinstance(v, str) else v for k, v in fields.items()}


def _kv(value: Any) -> str:
    text = str(value)
    return json.dumps(text, ensure_ascii=False) if (not text or any(c in text for c in ' ="\n')) else text


class KeyValueFormatter(logging.Formatter):
    """``ts=... level=info proc=bot logger=... msg="..." key=value``."""

    def format(self, record: logging.LogRecord) -> str:
        """Render one record on one line."""
        return " ".join(f"{k}={_kv(v)}" for k, v in _fields(record).items())


class JsonFormatter(logging.Formatter):
    """One JSON object per line."""

    def format(self, record: logging.LogRecord) -> str:
        """Render one record as JSON."""
        return json.dumps(_fields(record), ensure_ascii=False, default=str)


class _ProcessName(logging.Filter):
    def __init__(self, name: str) -> None:
        super().__init__()
        self.proc = name

    def filter(self, record: logging.LogRecord) -> bool:
        record.proc = self.proc
        return True


class _MalformedRequests(logging.Filter):
    """aiohttp logs a request it cannot parse at ERROR with a traceback; that is the client's fault, not ours: one
    warning line with the parser's reason instead (the reason quotes at most a few bytes of the request)."""

    def filter(self, record: logging.LogRecord) -> bool:
        # Imported here: only aiohttp's own logger calls this, and the supervisor, which never loads aiohttp, keeps
        # ~10 MB less resident.
        from aiohttp.http_exceptions import HttpProcessingError  # noqa: PLC0415

        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, HttpProcessingError) and getattr(error, "code", 500) < 500:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
            record.msg, record.args = "malformed HTTP request rejected", ()
            record.reason = str(error.message).strip().splitlines()[0][:120] if error.message else type(error).__name__
            record.exc_info, record.exc_text = None, None
        return True


LEVELS = {"debug": logging.DEBUG, "info": logging.INFO, "warning": logging.WARNING, "warn": logging.WARNING,
          "error": logging.ERROR}


def setup_logging(process: str, *, log_format: str = "kv", level: int | str = logging.INFO) -> None:
    """Send every log record of ``level`` or above (a number or LOG_LEVEL's word) to stderr as one line tagged with
    ``process``."""
    if isinstance(level, str):
        level = LEVELS.get(level.lower(), logging.INFO)
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else KeyValueFormatter())
    handler.addFilter(_ProcessName(process))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
    server = logging.getLogger("aiohttp.server")
    if not any(isinstance(f, _MalformedRequests) for f in server.filters):
        server.addFilter(_MalformedRequests())
