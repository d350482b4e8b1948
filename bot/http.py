"""/healthz and /metrics over HTTP, on the bot's own event loop (GENERAL_HTTP_PORT).

/healthz answers 200 with a small JSON body while every configured front end is connected and
the storage answers a read within a second, else 503 with the reasons; either way it gives each
platform's state and the time of its last update. /metrics is the Prometheus text format of
the bot's own registry (adapters/chat/metrics.py), the process's figures included. In webhook
mode on the webhook's port the two routes are served by the webhook's server instead.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from datetime import UTC, datetime

import orjson
from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from adapters.chat.metrics import ACTIVE_TABLES, REGISTRY, Link
from bot.startup import REFUSED, StartupError, describe
from core.identity import ChannelKey
from core.service import GameService
from core.table import Phase

log = logging.getLogger(__name__)
STORAGE_TIMEOUT = 1.0  # seconds the storage has to answer /healthz's read
# A channel no platform has: reading its last finished game is a real round trip to the
# storage (no cache keeps it) that finds nothing.
PROBE = ChannelKey("health", "0")
PHASES = (Phase.LOBBY, Phase.PLAYING)


class Watched:
    """A front end as the health check sees it: its link, and its platform's channel key."""

    def __init__(self, link: Link, key: str) -> None:
        self.link, self.key = link, key


class Health:
    """What /healthz and /metrics read: the storage, and the configured front ends (given with
    `watch` once they are made)."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.watched: list[Watched] = []

    def watch(self, watched: Sequence[Watched]) -> None:
        self.watched = list(watched)

    async def storage(self) -> tuple[str, float]:
        """Why the storage is not well ("" when it answered in time), and how long it took."""
        started = time.perf_counter()
        try:
            await asyncio.wait_for(self.service.last_finished(PROBE), STORAGE_TIMEOUT)
        except TimeoutError:
            why = f"storage: no answer within {STORAGE_TIMEOUT:g} s"
        except Exception as error:
            why = f"storage: {describe(error)}"
        else:
            why = ""
        return why, time.perf_counter() - started

    async def healthz(self, request: web.Request) -> web.Response:
        storage, seconds = await self.storage()
        reasons = [storage] if storage else []
        platforms = {}
        for watched in self.watched:
            link = watched.link
            if not link.connected:
                reasons.append(f"{link.platform}: {link.reason}")
            platforms[link.platform] = {
                "connected": link.connected,
                "mode": link.mode,
                "since": _when(link.since),
                "last_update": _when(link.last_update),
                "reason": link.reason,
            }
        body = {
            "status": "unavailable" if reasons else "ok",
            "reasons": reasons,
            "storage": {"ok": not storage, "seconds": round(seconds, 6)},
            "platforms": platforms,
        }
        return web.Response(
            status=503 if reasons else 200,
            body=orjson.dumps(body),
            content_type="application/json",
        )

    async def metrics(self, request: web.Request) -> web.Response:
        await self.count_tables()
        return web.Response(
            body=generate_latest(REGISTRY), headers={"Content-Type": CONTENT_TYPE_LATEST}
        )

    async def count_tables(self) -> None:
        """The active tables, read from the storage at the scrape (with shared storage, every
        process's): left as they were when the storage does not answer in time."""
        for watched in self.watched:
            try:
                games = await asyncio.wait_for(
                    self.service.active_games(watched.key), STORAGE_TIMEOUT
                )
            except Exception as error:
                log.warning("counting the active tables failed: %s", describe(error))
                return
            for phase in PHASES:
                count = sum(1 for game in games if game.phase is phase)
                ACTIVE_TABLES.labels(watched.link.platform, phase.value).set(count)


def routes(health: Health) -> list[web.RouteDef]:
    return [web.get("/healthz", health.healthz), web.get("/metrics", health.metrics)]


class Listener:
    """Routes on an address of their own. `prefix` names the settings (GENERAL_HTTP,
    GENERAL_WEB): a start that cannot listen is a start-up failure naming them."""

    def __init__(
        self, app: web.Application, prefix: str, what: str, shutdown_timeout: float = 60.0
    ) -> None:
        self.prefix, self.what = prefix, what
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=shutdown_timeout)

    async def start(self, listen: str, port: int) -> None:
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, listen, port).start()
        except OSError as error:
            await self._runner.cleanup()
            prefix = self.prefix
            raise StartupError(
                f"{prefix}_LISTEN, {prefix}_PORT: cannot listen on {listen}:{port}: "
                f"{describe(error)}",
                hint=f"another process may listen there: choose another {prefix}_PORT",
                code=REFUSED,
            ) from error
        log.info("%s on http://%s:%d/", self.what, listen, port)

    async def stop(self) -> None:
        await self._runner.cleanup()


class HttpServer(Listener):
    """/healthz and /metrics on an address of their own."""

    def __init__(self, health: Health) -> None:
        app = web.Application()
        app.add_routes(routes(health))
        super().__init__(app, "GENERAL_HTTP", "health and metrics (/healthz, /metrics)")


def _when(moment: float | None) -> str | None:
    """A moment as ISO 8601 in UTC, to the millisecond."""
    if moment is None:
        return None
    stamp = datetime.fromtimestamp(moment, UTC).isoformat(timespec="milliseconds")
    return stamp.replace("+00:00", "Z")
