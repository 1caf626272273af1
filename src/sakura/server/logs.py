"""Structured logs: ``sakura serve --log-format json`` writes one JSON object a line.

Each line holds ``time`` (UTC, ISO 8601 with milliseconds), ``level``, ``logger``, ``event`` (the
message, its arguments filled in) and any fields the call passed (``extra={...}``), plus
``error`` (the exception's type and first line, never a traceback's locals) when one was
logged. A log collector (journald, Loki, Elasticsearch) reads it without a parser of its own.

Secrets are never logged: the server's messages name tables, seats and usernames, never a
password, a seat's token, a session or its cookie, nor a statement's parameters (the database
engine hides them; :mod:`sakura.server.database`). As a second layer, a field whose name says
it holds a secret (``password``, ``token``, ``cookie``, ``secret``, ``session``,
``authorization``) is written as ``"[redacted]"``; ``tests/server/test_log_secrets.py`` checks
both formats.
"""

from __future__ import annotations

import datetime as dt
import json
import logging
from typing import Any

SECRET_WORDS = ("password", "token", "cookie", "secret", "session", "authorization", "csrf")
# what every LogRecord has: anything else on a record came from ``extra=`` and is a field
_STANDARD = set(vars(logging.LogRecord("", 0, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
}


class JsonFormatter(logging.Formatter):
    """One JSON object a record (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": dt.datetime.fromtimestamp(record.created, dt.UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "event": record.getMessage(),
        }
        for key, value in vars(record).items():
            if key not in _STANDARD and key not in line:
                line[key] = "[redacted]" if _secret(key) else value
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            text = str(exc).strip().splitlines()
            line["error"] = f"{type(exc).__name__}: {text[0] if text else ''}"
        return json.dumps(line, default=str, ensure_ascii=False)


def _secret(key: str) -> bool:
    return any(word in key.lower() for word in SECRET_WORDS)


def config(log_format: str, level: str = "warning") -> dict[str, Any]:
    """uvicorn's ``log_config`` for ``log_format``: ``"json"`` sends uvicorn's loggers and the
    server's own (``sakura``, from ``info``) through :class:`JsonFormatter` to stderr; ``"text"``
    is uvicorn's own configuration, as before."""
    if log_format == "text":
        from uvicorn.config import LOGGING_CONFIG

        return LOGGING_CONFIG
    if log_format != "json":
        raise ValueError(f"unknown log format {log_format!r}: text or json")
    upper = level.upper()
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"json": {"()": JsonFormatter}},
        "handlers": {
            "stderr": {"class": "logging.StreamHandler", "formatter": "json", "stream": "ext://sys.stderr"}
        },
        "loggers": {
            "uvicorn": {"handlers": ["stderr"], "level": upper, "propagate": False},
            "uvicorn.error": {"level": upper},
            "uvicorn.access": {"handlers": ["stderr"], "level": upper, "propagate": False},
            "sakura": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
        },
    }
