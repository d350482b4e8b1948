"""Logging for the bot process: one format, and secrets never written out."""

from __future__ import annotations

import logging
from collections.abc import Iterable

REDACTED = "[redacted]"


class RedactSecrets(logging.Filter):
    """Replaces every secret (bot tokens) in a record's text, arguments and traceback."""

    def __init__(self, secrets: Iterable[str]) -> None:
        super().__init__()
        self._secrets = sorted({s for s in secrets if s}, key=len, reverse=True)

    def _clean(self, text: str) -> str:
        for secret in self._secrets:
            text = text.replace(secret, REDACTED)
        return text

    def filter(self, record: logging.LogRecord) -> bool:
        if self._secrets:
            record.msg = self._clean(record.getMessage())
            record.args = None
            if record.exc_info and record.exc_info[1] is not None:
                record.exc_text = self._clean(logging.Formatter().formatException(record.exc_info))
                record.exc_info = None
        return True


def configure(level: str, secrets: Iterable[str]) -> None:
    logging.basicConfig(
        level=level.upper(), format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    redact = RedactSecrets(secrets)
    for handler in logging.getLogger().handlers:
        handler.addFilter(redact)
