"""Webhook mode's listener: Telegram POSTs each update with the secret in a header. The secret
is compared in constant time, which python-telegram-bot's own listener does not do (PTB 22
compares it with `!=`), so that the time an answer takes tells nothing of the secret."""

from __future__ import annotations

import asyncio
import hmac
import logging
from collections.abc import Sequence

import orjson
from aiohttp import web
from telegram import Bot, Update

log = logging.getLogger(__name__)
SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
MAX_UPDATE = 1 << 20  # an update is a few kilobytes; anything far larger is not Telegram's


class WebhookListener:
    """Takes the updates pushed to `path` that carry `secret` and queues them for the
    application; anything else is refused (403) before it is read. `routes` are served beside
    (/healthz and /metrics where they share the webhook's port: bot/http.py)."""

    def __init__(
        self,
        bot: Bot,
        queue: asyncio.Queue[object],
        secret: str,
        path: str,
        routes: Sequence[web.AbstractRouteDef] = (),
    ) -> None:
        self.bot = bot
        self.queue = queue
        self._secret = secret.encode()
        app = web.Application(client_max_size=MAX_UPDATE)
        app.router.add_post("/" + path.strip("/"), self._receive)
        app.add_routes(routes)
        self._runner = web.AppRunner(app, access_log=None)

    async def start(self, listen: str, port: int) -> None:
        await self._runner.setup()
        await web.TCPSite(self._runner, listen, port).start()

    async def stop(self) -> None:
        await self._runner.cleanup()

    async def _receive(self, request: web.Request) -> web.Response:
        given = request.headers.get(SECRET_HEADER, "").encode()
        if not hmac.compare_digest(given, self._secret):
            return web.Response(status=403)
        try:
            data = orjson.loads(await request.read())
            if not isinstance(data, dict):
                raise ValueError("an update is a JSON object")
            update = Update.de_json(data, self.bot)
        except Exception:  # Telegram's, yet unreadable: taken, or it would come back forever
            log.exception("an update pushed to the webhook could not be read")
            return web.Response()
        await self.queue.put(update)
        return web.Response()
