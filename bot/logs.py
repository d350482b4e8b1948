"""Logging for the bot process: text (the default) or one JSON object a line, secrets never
written out either way."""

from __future__ import annotations

import json
import logging
import sys
import traceback
from collections.abc import Iterable
from datetime import UTC, datetime
from types import TracebackType

from adapters.logcontext import Where

REDACTED = "[redacted]"


class RedactSecrets(logging.Filter):
    """Replaces every secret (bot tokens) in a record's text, arguments and traceback."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def clean(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if self._secrets:
            record.msg = self.clean(record.getMessage())
            record.args = None
            if record.exc_info and record.exc_info[1] is not None:
                record.exc_text = self.clean(logging.Formatter().formatException(record.exc_info))
                record.exc_info = None
        return True


def guard_tracebacks(redact: RedactSecrets) -> None:
    """Last resort: a traceback Python prints itself (an exception nobody caught) is redacted
    like the log. asyncio's reports (a task's exception never retrieved, an unclosed session)
    go through the log's handlers, and so through the filter, already."""

    def excepthook(
        kind: type[BaseException], error: BaseException, trace: TracebackType | None
    ) -> None:
        sys.stderr.write(redact.clean("".join(traceback.format_exception(kind, error, trace))))

    sys.excepthook = excepthook


class JsonLines(logging.Formatter):
    """One JSON object a line: time (UTC, ISO 8601), level, logger, message, the platform, chat
    and game where the record was made in an action's context, and the traceback if any. The
    record reaches it redacted (the handler's filters run first)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, object] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            **getattr(record, "where", {}),
        }
        if record.exc_info:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            line["exception"] = record.exc_text
        return json.dumps(line, ensure_ascii=False)


def configure(level: str, secrets: Iterable[str], form: str = "text") -> RedactSecrets:
    """The log's format ("text" or "json") and level, and the redaction of `secrets` wherever
    text is written."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact = RedactSecrets(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(Where())
        handler.addFilter(redact)
        if form == "json":
            handler.setFormatter(JsonLines())
    guard_tracebacks(redact)
    return redact
