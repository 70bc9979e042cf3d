"""One line per event, key=value or JSON, with the process name; secrets never reach a line."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

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
    return fields


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


def setup_logging(process: str, *, log_format: str = "kv", level: int = logging.INFO) -> None:
    """Send every log record to stderr as one line tagged with ``process``."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonFormatter() if log_format == "json" else KeyValueFormatter())
    handler.addFilter(_ProcessName(process))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level)
    logging.getLogger("aiohttp.access").setLevel(logging.WARNING)
