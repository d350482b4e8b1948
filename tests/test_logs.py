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


def test_a_json_line_is_redacted_and_says_where_it_happened() -> None:
    """The filters run before the formatter: the secret is gone from the message and the
    traceback, and the platform, chat and game bound in this task are on the line."""
    import contextvars
    import io
    import json
    import sys

    from adapters.logcontext import Where, bind
    from bot.logs import JsonLines

    token = "123456:SECRET-token"
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.addFilter(Where())
    handler.addFilter(RedactSecrets([token]))
    handler.setFormatter(JsonLines())
    logger = logging.getLogger("tests.json")
    logger.addHandler(handler)
    logger.propagate = False

    def in_an_action() -> None:
        bind(platform="telegram", chat="-100", game="abcdefgh")
        try:
            raise RuntimeError(f"bad url /bot{token}/send")
        except RuntimeError:
            logger.exception("calling %s failed", f"/bot{token}")

    try:
        contextvars.copy_context().run(in_an_action)  # the binding stays in there
    finally:
        logger.removeHandler(handler)
    (line,) = stream.getvalue().splitlines()
    record = json.loads(line)
    assert token not in line and REDACTED in record["message"]
    assert record["platform"] == "telegram" and record["chat"] == "-100"
    assert record["game"] == "abcdefgh" and record["level"] == "ERROR"
    assert record["logger"] == "tests.json" and "RuntimeError" in record["exception"]
    assert sys.exc_info() == (None, None, None)
