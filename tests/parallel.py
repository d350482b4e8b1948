"""What keeps the suite's parallel workers (pytest-xdist) out of each other's way: each worker
its own PostgreSQL database (advisory locks are per database, so two workers' channel locks
would otherwise meet) and its own range of listening ports (below the kernel's ephemeral range,
where the fakes' port-0 servers are placed)."""

from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import random
import socket
from urllib.parse import urlsplit, urlunsplit

from xdist.scheduler import LoadScopeScheduling

POSTGRES_VARIABLE = "GENERAL_TEST_POSTGRES_URL"
PORTS_FROM = 20_000  # the kernel hands out 32768 and up for port 0
PORTS_PER_WORKER = 1_000
# Modules whose tests share a module-scoped fixture that starts processes: run by one worker, the
# fixture is made once (xdist's own xdist_group mark no longer takes effect under pytest 9).
TOGETHER = frozenset({"tests/test_startup.py"})


class OneByOne(LoadScopeScheduling):
    """Each test to whichever worker is free, in the order collected (conftest.py puts the
    slow ones first), but a module of TOGETHER whole to one worker."""

    def _split_scope(self, nodeid: str) -> str:
        module = nodeid.split("::", 1)[0]
        return module if module in TOGETHER else nodeid


def worker() -> int:
    """This worker's number: 0 for gw0 and for a run without workers."""
    name = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
    return int(name.removeprefix("gw")) if name.startswith("gw") else 0


_GIVEN: collections.deque[int] = collections.deque(maxlen=64)


def free_port() -> int:
    """A port nobody listens on, from this worker's range: another worker never picks it, no
    server bound to port 0 is given it while the test is still to start its own, and it is not
    one of the last ports handed out here (two asked for in a row, neither yet bound, differ)."""
    first = PORTS_FROM + worker() * PORTS_PER_WORKER
    start = random.randrange(PORTS_PER_WORKER)
    for step in range(PORTS_PER_WORKER):
        port = first + (start + step) % PORTS_PER_WORKER
        if port in _GIVEN:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
            _GIVEN.append(port)
            return port
    raise RuntimeError(f"no free port in {first}..{first + PORTS_PER_WORKER - 1}")


def own_postgres_database() -> None:
    """Under xdist, point GENERAL_TEST_POSTGRES_URL at a database of this worker's (made once,
    kept for the next run), so that the processes its tests start use it too."""
    url = os.environ.get(POSTGRES_VARIABLE, "").strip()
    name = os.environ.get("PYTEST_XDIST_WORKER")
    if not url or not name:
        return
    parts = urlsplit(url)
    database = f"{parts.path.lstrip('/') or 'postgres'}_{name}"
    asyncio.run(_create(url, database))
    os.environ[POSTGRES_VARIABLE] = urlunsplit(parts._replace(path=f"/{database}"))


async def _create(url: str, database: str) -> None:
    import asyncpg

    connection = await asyncpg.connect(url)
    try:
        exists = await connection.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", database)
        if not exists:
            with contextlib.suppress(asyncpg.DuplicateDatabaseError):  # made meanwhile
                await connection.execute(f'CREATE DATABASE "{database}"')
    finally:
        await connection.close()
