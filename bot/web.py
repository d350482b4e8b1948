"""The live table's listener (adapters/web), on the bot's own event loop, where configured."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from aiohttp import web

from adapters.chat.tables import Tables
from adapters.web.auth import Signer
from adapters.web.discord_oauth import DiscordOAuth
from adapters.web.server import WebTable
from bot.http import Listener
from bot.settings import Settings
from core.service import GameService

log = logging.getLogger(__name__)


class WebListener(Listener):
    """The page's routes on their own address (GENERAL_WEB_LISTEN:GENERAL_WEB_PORT)."""

    def __init__(self, table: WebTable) -> None:
        self.table = table
        app = web.Application(client_max_size=16_384)
        app.add_routes(table.routes())
        super().__init__(app, "GENERAL_WEB", "the live table", shutdown_timeout=1.0)

    async def stop(self) -> None:
        """The pages' sockets first (each page reconnects to whichever bot serves next)."""
        await self.table.close()
        await super().stop()


def web_listener(
    settings: Settings, service: GameService, tables: Sequence[Tables]
) -> WebListener | None:
    """The listener the settings ask for, over the front ends' tables; None without them."""
    if not settings.general_web_url or settings.general_web_port is None:
        return None
    tokens = [s.get_secret_value() for s in (settings.telegram_token, settings.discord_token) if s]
    telegram = settings.telegram_token.get_secret_value() if settings.telegram_token else None
    served = {t.platform.key: t for t in tables}
    table = WebTable(
        service,
        served,
        Signer.derived(*tokens),
        telegram_token=telegram,
        discord=discord_oauth(settings),
        auth_age=settings.general_web_auth_age,
        locale=settings.general_language,
    )
    return WebListener(table)


def discord_oauth(settings: Settings) -> DiscordOAuth | None:
    """An Activity's sign-in, where the application's id and secret are set (settings check
    that they come together) and the bot's token, which asks where an Activity runs."""
    secret, application = settings.discord_client_secret, settings.discord_application_id
    token = settings.discord_token
    if secret is None or application is None or token is None:
        return None
    return DiscordOAuth(
        str(application),
        secret.get_secret_value(),
        token.get_secret_value(),
        api=settings.discord_api_base_url,
    )
