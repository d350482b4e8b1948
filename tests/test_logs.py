"""Secrets never reach the log."""

from __future__ import annotations

import logging

from bot.logs import REDACTED, RedactSecrets


def test_tokens_are_redacted_from_messages_arguments_and_tracebacks() -> None:
    token = "123456:SECRET-token"
    record = logging.LogRecord(
        "x", logging.ERROR, __file__, 1, "POST %s/getMe", (f"/bot{token}",), None
    )
    assert RedactSecrets([token]).filter(record)
    assert token not in record.getMessage() and REDACTED in record.getMessage()
    try:
        raise RuntimeError(f"bad url /bot{token}/send")
    except RuntimeError:
        import sys

        failed = logging.LogRecord("x", logging.ERROR, __file__, 1, "failed", None, sys.exc_info())
    RedactSecrets([token]).filter(failed)
    text = logging.Formatter().format(failed)
    assert token not in text and "RuntimeError" in text
