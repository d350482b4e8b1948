"""Wiring: settings → storage → service → front ends, and a clean stop on a signal.

Start-up imports only what the settings use: each platform's library with its front end,
PostgreSQL's driver with GENERAL_DATABASE_URL, the HTTP server with GENERAL_HTTP_PORT, the
console in console mode; numpy and the strategy come with the first board, hint or computer
that needs them, or with the warm-up after ready (BENCHMARKS.md, start-up)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol
from urllib.parse import urlsplit

from adapters.chat.metrics import SAVE_SECONDS, Link
from adapters.chat.pacing import Limits
from adapters.chat.tables import Tables
from adapters.i18n import translator
from adapters.ratelimit import RateLimiter
from adapters.sqlite import SqliteRepository
from bot import collector
from bot.logs import RedactSecrets, configure
from bot.settings import Settings
from bot.startup import (
    StartupError,
    database_failure,
    discord_failure,
    load_settings,
    telegram_failure,
)
from core.dice import Roller, SecureRoller, SeededRoller
from core.events import Event
from core.rules import DEFAULT_VARIANTS
from core.service import GameService
from core.table import Game

if TYPE_CHECKING:
    from aiohttp import web

    from adapters.chat.weblinks import WebLinks
    from adapters.postgres import PostgresRepository
    from bot.http import Health, HttpServer
    from bot.web import WebListener

    Repository = SqliteRepository | PostgresRepository

log = logging.getLogger("bot")


class FrontEnd(Protocol):
    link: Link  # connected or not, for /healthz
    tables: Tables

    async def start(self) -> None: ...

    async def stop(self) -> None: ...


class TimedSqlite(SqliteRepository):
    """The SQLite repository, each save timed for /metrics."""

    async def save(self, game: Game, events: Sequence[Event], previous_version: int | None) -> None:
        with SAVE_SECONDS.time():
            await super().save(game, events, previous_version)


def timed_postgres() -> type[PostgresRepository]:
    """The PostgreSQL repository, each save timed for /metrics (asyncpg imported only here)."""
    from adapters.postgres import PostgresRepository

    class TimedPostgres(PostgresRepository):
        async def save(
            self, game: Game, events: Sequence[Event], previous_version: int | None
        ) -> None:
            with SAVE_SECONDS.time():
                await super().save(game, events, previous_version)

    return TimedPostgres


async def open_repository(settings: Settings) -> Repository:
    """PostgreSQL when GENERAL_DATABASE_URL names one (several processes), else the SQLite file."""
    url = settings.general_database_url
    try:
        if url:
            postgres = timed_postgres()
            return await postgres.open(url, server_settings={"application_name": "general"})
        return await TimedSqlite.open(settings.general_database)
    except Exception as error:  # whatever stops the database opening, the setting is named
        raise database_failure(settings, error) from error


def telegram_pace(settings: Settings) -> Limits | None:
    """How fast the bot writes in one Telegram chat (its Bot FAQ's limits, by default)."""
    if not settings.telegram_chat_rate:
        return None
    return Limits(
        burst=settings.telegram_chat_burst,
        per_second=settings.telegram_chat_rate,
        group_writes=settings.telegram_group_messages,
        group_window=settings.telegram_group_window,
        group_burst=settings.telegram_group_burst,
        slack=settings.telegram_pace_slack,
        group=lambda chat: chat.startswith("-"),  # Telegram's groups have negative ids
        overall_per_second=settings.telegram_overall_messages,
    )


def make_roller(settings: Settings) -> Roller:
    seed = settings.general_dice_seed
    return SeededRoller(seed) if seed else SecureRoller()


def shares_webhook(settings: Settings) -> bool:
    """Whether /healthz and /metrics are served by the webhook's server, on its port."""
    return (
        settings.general_http_port is not None
        and settings.telegram_token is not None
        and bool(settings.telegram_webhook_url and settings.telegram_webhook_secret)
        and settings.general_http_port == settings.telegram_webhook_port
    )


def web_links(settings: Settings) -> WebLinks | None:
    """The live table's links where GENERAL_WEB_URL sets it up (None: the chats offer no table),
    signed with a key derived from the bot tokens configured (imported only then)."""
    if not settings.general_web_url:
        return None
    from adapters.chat.weblinks import WebLinks
    from adapters.web.auth import Signer

    tokens = [
        token.get_secret_value()
        for token in (settings.telegram_token, settings.discord_token)
        if token is not None
    ]
    return WebLinks(
        settings.general_web_url, Signer.derived(*tokens), activity=settings.discord_activity
    )


def chat_front_ends(
    settings: Settings,
    service: GameService,
    shared: Sequence[web.AbstractRouteDef] = (),
) -> list[FrontEnd]:
    """The front ends the settings configure; `shared`: routes the webhook's server serves.
    Each platform's library is imported here, only for the front ends configured."""
    front_ends: list[FrontEnd] = []
    links = web_links(settings)
    if settings.telegram_token is not None:
        from adapters.telegram.frontend import TelegramFrontEnd, Webhook

        webhook = None
        if settings.telegram_webhook_url and settings.telegram_webhook_secret:
            webhook = Webhook(
                url=settings.telegram_webhook_url,
                secret=settings.telegram_webhook_secret.get_secret_value(),
                listen=settings.telegram_webhook_listen,
                port=settings.telegram_webhook_port,
                path=urlsplit(settings.telegram_webhook_url).path.lstrip("/"),
                routes=shared,
            )

        front_ends.append(
            TelegramFrontEnd(
                service,
                settings.telegram_token.get_secret_value(),
                base_url=settings.telegram_base_url,
                locale=settings.general_language,
                pace=telegram_pace(settings),
                group_rate=settings.telegram_group_rate,
                overall_rate=settings.telegram_overall_rate,
                pause=settings.general_computer_pause,
                limiter=RateLimiter(settings.general_flood_burst, settings.general_flood_rate),
                webhook=webhook,
                links=links,
                mini_app=settings.telegram_mini_app,
            )
        )
    if settings.discord_token is not None:
        from adapters.discord.frontend import DiscordFrontEnd, Shards

        shards = None
        if settings.discord_shard_count is not None:
            shards = Shards(settings.discord_shard_count, settings.shard_ids)

        front_ends.append(
            DiscordFrontEnd(
                service,
                settings.discord_token.get_secret_value(),
                guild_id=settings.discord_guild_id,
                api_base_url=settings.discord_api_base_url,
                gateway_url=settings.discord_gateway_url,
                locale=settings.general_language,
                pause=settings.general_computer_pause,
                limiter=RateLimiter(settings.general_flood_burst, settings.general_flood_rate),
                shards=shards,
                links=links,
            )
        )
    return front_ends


async def _start(settings: Settings, front_end: FrontEnd) -> None:
    """Start one front end; one that fails is stopped (what it opened closed) and its failure
    said by the setting to fix, where one explains it."""
    try:
        await front_end.start()
    except BaseException as error:
        await abandon(front_end)
        failure = explain(settings, front_end, error)
        if failure is None:
            raise
        raise failure from error


async def abandon(front_end: FrontEnd) -> None:
    """Stop a front end whose start failed, closing what it opened before failing."""
    await front_end.stop()


def explain(settings: Settings, front_end: FrontEnd, error: BaseException) -> StartupError | None:
    """A front end's start-up failure by the setting to fix; None for one no setting explains."""
    if not isinstance(error, Exception):
        return None
    telegram = sys.modules.get("adapters.telegram.frontend")  # loaded with a Telegram front end
    if telegram is not None and isinstance(front_end, telegram.TelegramFrontEnd):
        return telegram_failure(settings, error)
    return discord_failure(settings, error)


async def serve(
    settings: Settings,
    stop: asyncio.Event,
    ready: asyncio.Event | None = None,
    roller: Roller | None = None,
) -> None:
    """Run the chat front ends until `stop` is set; `ready` is set once all of them listen.

    `roller` replaces the dice of the settings (tests script them)."""
    repository = await open_repository(settings)
    service = GameService(repository, roller or make_roller(settings))
    await service.listen()  # with shared storage, the other processes' tables are watched too
    started: list[FrontEnd] = []
    server: HttpServer | None = None
    page: WebListener | None = None
    warming: asyncio.Task[object] | None = None
    try:
        health: Health | None = None
        shared = shares_webhook(settings)
        beside: Sequence[web.AbstractRouteDef] = ()
        port = settings.general_http_port
        if port is not None:
            from bot.http import Health, routes  # aiohttp.web: only with GENERAL_HTTP_PORT

            health = Health(service)
            beside = routes(health) if shared else ()
        front_ends = chat_front_ends(settings, service, beside)
        if health is not None and port is not None:
            from bot.http import HttpServer, Watched

            health.watch([Watched(f.link, f.tables.platform.key) for f in front_ends])
            if not shared:
                listening = HttpServer(health)  # first: /healthz says how the start goes
                await listening.start(settings.general_http_listen, port)
                server = listening
        # Every front end at once: each mostly waits for its platform (Discord for its guilds).
        outcomes = await asyncio.gather(
            *(_start(settings, front_end) for front_end in front_ends), return_exceptions=True
        )
        started.extend(f for f, done in zip(front_ends, outcomes, strict=True) if done is None)
        for done in outcomes:
            if isinstance(done, BaseException):
                raise done
        if settings.general_web_url and settings.general_web_port is not None:
            from bot.web import web_listener  # the live table: only where configured

            page = web_listener(settings, service, [f.tables for f in front_ends])
            if page is not None:
                await page.start(settings.general_web_listen, settings.general_web_port)
        # What start-up built (libraries, catalogues, front ends) lives as long as the process:
        # out of the collector's way, a full collection walks only what the games made since.
        collector.settle()
        log.info("ready")
        if ready is not None:
            ready.set()
        warming = warm_up()
        await stop.wait()
    finally:
        if warming is not None:
            warming.cancel()  # the thread finishes unheeded
        if page is not None:
            await page.stop()  # no page presses once the computers and clocks stop
        await service.close()  # computers stop first: every step they made is already saved
        # Every front end at once stops taking updates and finishes those it took.
        await asyncio.gather(*(_stop(front_end) for front_end in reversed(started)))
        if server is not None:
            await server.stop()
        await repository.close()


def warm_up() -> asyncio.Task[object]:
    """Solve the default rules' score distributions in a thread, after ready.

    Every board of two players or more shows the chances, which need them (numpy, core.strategy
    and a few tenths of a second of solving): done here, off the event loop, before the first
    board most likely; a board that comes sooner waits for this thread instead of solving them a
    second time (core.once). Start-up does not wait for it."""
    from core.distribution import distributions

    task: asyncio.Task[object] = asyncio.create_task(
        asyncio.to_thread(distributions, DEFAULT_VARIANTS)
    )
    task.add_done_callback(_warmed)
    return task


def _warmed(task: asyncio.Task[object]) -> None:
    if task.cancelled():
        return
    error = task.exception()
    if error is not None:  # a board solves them itself, and fails there as it would have
        log.error("solving the default rules in advance failed", exc_info=error)
        return
    collector.settle()  # what the warm-up imported and built lives as long as the process too


async def _stop(front_end: FrontEnd) -> None:
    try:
        await front_end.stop()
    except Exception:
        log.exception("stopping %s failed", type(front_end).__name__)


async def main(settings: Settings | None = None) -> int:
    """Run the bot; a start-up failure is one line on stderr (and a hint), its exit code
    returned (bot/startup.py), with no secret in it."""
    redact = RedactSecrets(())
    try:
        if settings is None:
            settings = load_settings()
        redact = configure(
            settings.general_log_level, settings.secrets, settings.general_log_format
        )
        return await run(settings)
    except StartupError as failure:
        sys.stderr.write(redact.clean(failure.report()))
        return failure.code


async def run(settings: Settings) -> int:
    """The console game with no chat token configured, else the chat front ends until a signal."""
    if settings.console_mode:
        from adapters.console import run_console

        repository = await open_repository(settings)
        try:
            service = GameService(repository, make_roller(settings))
            await run_console(
                service,
                translator(settings.general_language),
                pause=settings.general_computer_pause,
            )
        finally:
            await repository.close()
        return 0
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    await serve(settings, stop)
    return 0
