"""Shared test fixtures: no test may pass while the bot logged an ERROR."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _fail_on_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    errors += [r for r in caplog.get_records("teardown") if r.levelno >= logging.ERROR]
    assert not errors, "ERROR logged: " + "; ".join(f"{r.name}: {r.getMessage()}" for r in errors)
