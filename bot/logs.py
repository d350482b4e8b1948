"""Logging for the bot process: one format, and secrets never written out."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Iterable
from types import TracebackType

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


def configure(level: str, secrets: Iterable[str]) -> RedactSecrets:
    """The log's format and level, and the redaction of `secrets` wherever text is written."""
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    redact = RedactSecrets(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
    guard_tracebacks(redact)
    return redact
