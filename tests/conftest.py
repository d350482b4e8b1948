"""Shared test fixtures: no test may pass while the bot logged an ERROR."""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from tests.parallel import OneByOne, own_postgres_database

own_postgres_database()  # before anything reads the URL
POSTGRES = os.environ.get("GENERAL_TEST_POSTGRES_URL")
needs_postgres = pytest.mark.skipif(
    not POSTGRES, reason="GENERAL_TEST_POSTGRES_URL is not set: no PostgreSQL server to use"
)


@pytest.hookimpl(trylast=True)  # after pytest-randomly's shuffle, which it keeps otherwise
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first: handed out one by one to the parallel workers, the longest then
    run beside the many short ones, and the run ends together instead of waiting on one."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> OneByOne:
    return OneByOne(config, log)


@pytest.fixture(autouse=True)
def _fail_on_error_logs(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    caplog.set_level(logging.INFO)
    yield
    errors = [r for r in caplog.get_records("call") if r.levelno >= logging.ERROR]
    errors += [r for r in caplog.get_records("teardown") if r.levelno >= logging.ERROR]
    assert not errors, "ERROR logged: " + "; ".join(f"{r.name}: {r.getMessage()}" for r in errors)


@pytest.fixture
async def postgres_url() -> AsyncIterator[str]:
    """A schema of its own in the test database, named in a URL any process can use."""
    import asyncpg

    assert POSTGRES is not None, "mark the test with needs_postgres"
    schema = f"t_{uuid.uuid4().hex[:12]}"
    connection = await asyncpg.connect(POSTGRES)
    await connection.execute(f"CREATE SCHEMA {schema}")
    try:
        yield f"{POSTGRES}{'&' if '?' in POSTGRES else '?'}search_path={schema}"
    finally:
        await connection.execute(f"DROP SCHEMA {schema} CASCADE")
        await connection.close()
