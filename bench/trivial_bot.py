"""The trivial bot of the round-trip benchmark: the same libraries, none of the game.

`python -m bench.trivial_bot` reads the same environment as `python -m bot` (TELEGRAM_TOKEN and
TELEGRAM_BASE_URL; DISCORD_TOKEN, DISCORD_API_BASE_URL and DISCORD_GATEWAY_URL) and serves
whichever platforms have a token, until SIGTERM or SIGINT.

`/general start` posts a board with the buttons the benchmark presses (the codes of the real
boards: b, r, h0…h4, s0…s9 in the shared `g1|game|version|code` payload). Every press is answered
with a fixed edit of the pressed message: a counter and the same buttons (a counter, since
Telegram refuses an edit that changes nothing). No database, no game, no rendering; the
python-telegram-bot Application is built with the real front end's concurrency (updates handled
concurrently, a pool of 32 connections), and the discord.py client dispatches presses through a
DynamicItem as the real front end does. So the round trip of this bot is the price of the
libraries, the HTTP and the fake platform, and the real bot's figure beyond it is the price of the
game itself. It runs with the garbage collector as the real bot sets it at ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import re
import signal
import sys
from typing import Any

from adapters.telegram.http import AiohttpRequest
from bot import collector

log = logging.getLogger("trivial")
GAME_ID = "aaaaaaaa"
CODES = ("b", "r", "h0", "h1", "h2", "h3", "h4", *(f"s{i}" for i in range(10)))
CUSTOM_ID = re.compile(r"g1\|[a-z2-7]{8}\|\d{1,9}\|[a-z0-9]{1,2}")


def rows() -> list[list[str]]:
    """The board's buttons as payloads, in rows of at most five."""
    payloads = [f"g1|{GAME_ID}|1|{code}" for code in CODES]
    return [payloads[:2], payloads[2:7], payloads[7:12], payloads[12:]]


# ---------------------------------------------------------------------------- Telegram


class TelegramTrivial:
    def __init__(self, token: str, base_url: str | None) -> None:
        os.environ.setdefault("PTB_TIMEDELTA", "true")
        from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
        from telegram.ext import Application, CallbackQueryHandler, CommandHandler

        self._update_type = Update
        self.markup = InlineKeyboardMarkup(
            [
                [InlineKeyboardButton(p.rsplit("|", 1)[1], callback_data=p) for p in row]
                for row in rows()
            ]
        )
        builder = (
            Application.builder()
            .token(token)
            .concurrent_updates(True)
            # The game bot's HTTP client and pool (adapters.telegram.frontend): the same cost
            # per request on both sides of the ratio.
            .request(AiohttpRequest(16))
            .get_updates_request(AiohttpRequest(1))
        )
        if base_url:
            head, _, tail = base_url.rstrip("/").rpartition("/")
            builder = builder.base_url(base_url).base_file_url(f"{head}/file/{tail}")
        self.app = builder.build()
        self.app.add_handler(CommandHandler("general", self._on_command))
        self.app.add_handler(CallbackQueryHandler(self._on_press))
        self.presses = 0

    async def _on_command(self, update: Any, context: Any) -> None:
        message = update.effective_message
        if message is not None:
            await message.reply_text("Board 0", reply_markup=self.markup)

    async def _on_press(self, update: Any, context: Any) -> None:
        query = update.callback_query
        if query is None:
            return
        self.presses += 1
        await query.edit_message_text(f"Board {self.presses}", reply_markup=self.markup)
        await query.answer()

    async def start(self) -> None:
        await self.app.initialize()
        await self.app.start()
        assert self.app.updater is not None
        update = self._update_type
        await self.app.updater.start_polling(
            poll_interval=0, timeout=30, allowed_updates=[update.MESSAGE, update.CALLBACK_QUERY]
        )

    async def stop(self) -> None:
        if self.app.updater and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()


# ---------------------------------------------------------------------------- Discord


class DiscordTrivial:
    def __init__(self, token: str, api_base: str | None, gateway: str | None) -> None:
        import discord
        import yarl
        from discord import app_commands
        from discord.gateway import DiscordWebSocket
        from discord.http import Route

        if api_base:
            Route.BASE = api_base.rstrip("/")  # type: ignore[misc]
        if gateway:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
        self.token = token
        self.presses = 0
        trivial = self

        class Press(discord.ui.DynamicItem[discord.ui.Button[Any]], template=CUSTOM_ID):
            def __init__(self, custom_id: str, row: int | None = None) -> None:
                button = discord.ui.Button[Any](custom_id=custom_id, label=custom_id[-2:])
                super().__init__(button, row=row)

            @classmethod
            async def from_custom_id(
                cls, interaction: Any, item: Any, match: re.Match[str], /
            ) -> Press:
                return cls(match.group(0))

            async def callback(self, interaction: Any) -> None:
                trivial.presses += 1
                await interaction.response.edit_message(
                    content=f"Board {trivial.presses}", view=board()
                )

        def board() -> discord.ui.View:
            view = discord.ui.View(timeout=None)
            for number, row in enumerate(rows()):
                for custom_id in row:
                    view.add_item(Press(custom_id, row=number))
            return view

        class Client(discord.Client):
            async def setup_hook(self) -> None:
                self.add_dynamic_items(Press)
                await tree.sync()

        self.client = Client(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=0.5,
            max_messages=None,
        )
        tree = app_commands.CommandTree(self.client)
        group = app_commands.Group(name="general", description="General")

        @group.command(name="start", description="Open a table")
        async def start(interaction: discord.Interaction[Any]) -> None:
            await interaction.response.send_message("Board 0", view=board())

        tree.add_command(group)
        self.connection: asyncio.Task[None] | None = None

    async def start(self) -> None:
        await self.client.login(self.token)
        self.connection = asyncio.create_task(self.client.connect())
        await self.client.wait_until_ready()

    async def stop(self) -> None:
        await self.client.close()
        if self.connection is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.connection, 10)


# ---------------------------------------------------------------------------- the process


async def serve() -> int:
    bots: list[TelegramTrivial | DiscordTrivial] = []
    if os.environ.get("TELEGRAM_TOKEN"):
        bots.append(
            TelegramTrivial(os.environ["TELEGRAM_TOKEN"], os.environ.get("TELEGRAM_BASE_URL"))
        )
    if os.environ.get("DISCORD_TOKEN"):
        bots.append(
            DiscordTrivial(
                os.environ["DISCORD_TOKEN"],
                os.environ.get("DISCORD_API_BASE_URL"),
                os.environ.get("DISCORD_GATEWAY_URL"),
            )
        )
    if not bots:
        print("trivial bot: no TELEGRAM_TOKEN or DISCORD_TOKEN", file=sys.stderr)
        return 2
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    started: list[TelegramTrivial | DiscordTrivial] = []
    try:
        for bot in bots:
            await bot.start()
            started.append(bot)
        collector.settle()  # the garbage collector as the real bot sets it at ready
        log.info("ready")
        await stop.wait()
    finally:
        for bot in reversed(started):
            await bot.stop()
    return 0


def main() -> None:
    logging.basicConfig(
        level=os.environ.get("GENERAL_LOG_LEVEL", "INFO").upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    sys.exit(asyncio.run(serve()))


if __name__ == "__main__":
    main()
