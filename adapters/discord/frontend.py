"""The Discord front end: a `/general` command group and the boards' buttons (dynamic items, see
buttons.py) are the whole interface; no privileged intent is needed. Each interaction becomes a
call of the chat layer, answered through `Answer` (answer.py), drawn with Discord's widgets."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters.chat import metrics, payload
from adapters.chat.commands import Asked, command
from adapters.chat.presses import press
from adapters.chat.tables import Tables
from adapters.discord.answer import Answer, DiscordExchange, handled
from adapters.discord.buttons import EventButton, ForgetButton, GameButton, SettingButton
from adapters.discord.calls import ERRORS, DiscordCalls
from adapters.discord.client import GeneralClient, Shards, make_client
from adapters.discord.commands import CatalogueTranslator, command_group
from adapters.i18n import DEFAULT_LOCALE, normalize_locale, translator
from adapters.ratelimit import RateLimiter
from core.identity import ChannelKey
from core.outcome import Outcome
from core.service import GameService

if TYPE_CHECKING:  # the live table's links come with its settings only
    from adapters.chat.weblinks import WebLinks

log = logging.getLogger(__name__)
# How long discord.py waits for the guilds after READY before it calls the bot ready. The bot
# keeps nothing per guild (interactions carry all it needs), so there is no point waiting long.
GUILD_READY_TIMEOUT = 0.1
DRAIN = 10.0  # seconds a stop waits for the interactions being carried out
__all__ = ["DiscordFrontEnd", "Shards"]


def _shows(message: discord.Message | None, custom_id: str, component_type: Any) -> bool:
    """Whether the message carries this component: discord.py dispatches a dynamic item only
    then (a press from an outdated client, or a forged one, is left to `on_interaction`)."""
    for row in message.components if message else ():
        for child in getattr(row, "children", ()):
            if (
                getattr(child, "custom_id", None) == custom_id
                and child.type.value == component_type
            ):
                return True
    return False


class DiscordFrontEnd:
    """`start()` logs in, syncs the commands and connects; `stop()` closes."""

    def __init__(
        self,
        service: GameService,
        token: str,
        *,
        guild_id: int | None = None,
        api_base_url: str | None = None,
        gateway_url: str | None = None,
        locale: str = DEFAULT_LOCALE,
        guild_ready_timeout: float | None = None,
        pause: float = 1.0,
        limiter: RateLimiter | None = None,
        shards: Shards | None = None,
        links: WebLinks | None = None,
    ) -> None:
        self.service = service
        self.shards = shards
        self.token = token
        self.guild_id = guild_id
        self.api_base_url = api_base_url
        self.gateway_url = gateway_url
        self.guild_ready_timeout = guild_ready_timeout
        self.calls = DiscordCalls(tables=links is not None)
        self.tables = Tables(
            service, self.calls, log, locale=locale, pause=pause, limiter=limiter, links=links
        )
        self.client: GeneralClient | None = None
        self.link = metrics.Link("discord", "gateway")
        self.connection: asyncio.Task[None] | None = None
        self._stopping = False
        self._taken: set[asyncio.Task[Any]] = set()  # interactions being carried out
        self._saved_endpoints: tuple[str, yarl.URL] | None = None

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Log in (syncing the commands), connect to the gateway, and return once ready; then
        the chat layer resumes the tables (deadlines, lost boards, computers)."""
        self._point_at_endpoints()
        timeout = self.guild_ready_timeout
        client = make_client(self, GUILD_READY_TIMEOUT if timeout is None else timeout, self.shards)
        self.client = self.calls.client = client
        try:
            await client.login(self.token)
            self.connection = asyncio.create_task(client.connect(), name="discord-gateway")
            ready = asyncio.create_task(client.wait_until_ready())
            await asyncio.wait({self.connection, ready}, return_when=asyncio.FIRST_COMPLETED)
            if not ready.done():
                ready.cancel()
                self.connection.result()  # raises what ended the connection
                raise RuntimeError("the Discord gateway connection ended before it was ready")
        except BaseException:
            await self._close()
            raise
        self.connection.add_done_callback(self._connection_ended)
        log.info("discord front end connected as %s", client.user)
        await self.tables.resume()

    async def stop(self) -> None:
        """A clean stop: no interaction is taken any more (one arriving now is asked to come
        again in a moment), those taken are carried out and answered, the boards still owed an
        edit get it, and then the gateway and the HTTP session close."""
        self._stopping = True
        self.link.close()
        if self._taken:
            await asyncio.wait(self._taken, timeout=DRAIN)
        await self.tables.flush()
        await self._close()

    async def _close(self) -> None:
        if self.client is not None:
            await self.client.close()
        if self.connection is not None:
            try:
                await asyncio.wait_for(self.connection, 10)
            except Exception:
                log.exception("the Discord gateway connection ended with an error")
        if self._saved_endpoints is not None:
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved_endpoints
            self._saved_endpoints = None

    def _point_at_endpoints(self) -> None:
        """discord.py's REST base and gateway are process-wide; set them before logging in."""
        self._saved_endpoints = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        if self.api_base_url:
            Route.BASE = self.api_base_url.rstrip("/")
        if self.gateway_url:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def _connection_ended(self, task: asyncio.Task[None]) -> None:
        if self._stopping:
            return
        error = None if task.cancelled() else task.exception()
        self.link.lost("the gateway connection ended")
        log.error("the Discord gateway connection ended: %r; Discord is not served", error)

    def linked(self, shard: int | None, up: bool) -> None:
        part = None if shard is None else str(shard)
        if up:
            self.link.up(part)
        else:
            self.link.lost("gateway disconnected", part or "")

    async def setup(self, client: GeneralClient) -> None:
        """At login: the buttons of earlier boards, the commands, and their sync."""
        client.add_dynamic_items(GameButton, SettingButton, ForgetButton, EventButton)
        default = self.tables.languages.default
        client.tree.add_command(command_group(default, self.on_command))
        await client.tree.set_translator(CatalogueTranslator(default.locale))
        guild = discord.Object(self.guild_id) if self.guild_id else None
        if guild is not None:
            client.tree.copy_global_to(guild=guild)
        synced = await client.tree.sync(guild=guild)
        where = f"guild {self.guild_id}" if guild else "globally"
        log.info("discord: %d command(s) synced %s", len(synced), where)

    # ------------------------------------------------------------------ interactions

    async def on_command(self, interaction: discord.Interaction[Any], asked: Asked) -> None:
        await self._answer(interaction, lambda exchange: command(self.tables, exchange, asked))

    async def on_button(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        await self._answer(interaction, lambda exchange: press(self.tables, exchange, custom_id))

    async def _answer(
        self,
        interaction: discord.Interaction[Any],
        act: Callable[[DiscordExchange], Awaitable[None]],
    ) -> None:
        """An interaction carried out, its channel's boards drawn, and then logged as handled."""
        task = asyncio.current_task()
        try:
            if self._stopping:
                await self._come_again(interaction)
                return
            if task is not None:
                self._taken.add(task)
            async with Answer(interaction, self.calls) as answer:
                await act(DiscordExchange(answer))
            await self.tables.redraws.settled(str(interaction.channel_id or 0))
        finally:
            if task is not None:
                self._taken.discard(task)
            handled(interaction)

    async def _come_again(self, interaction: discord.Interaction[Any]) -> None:
        """While the bot stops: nothing is done, and the person hears why."""
        text = translator(normalize_locale(interaction.locale.value))("error-restarting")
        try:
            await interaction.response.send_message(text, ephemeral=True)
        except ERRORS as failure:
            log.info("could not answer interaction %s while stopping: %s", interaction.id, failure)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Presses discord.py does not route to a button of ours: a custom_id that is not
        ours, or one the message does not show (an outdated client's, or a forged one)."""
        self.link.received()  # every interaction comes here first
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        custom_id = custom_id if isinstance(custom_id, str) else ""
        ours = payload.PATTERN.fullmatch(custom_id) or payload.SETTINGS_PATTERN.fullmatch(custom_id)
        ours = ours or payload.FORGET_PATTERN.fullmatch(custom_id)
        ours = ours or payload.EVENT_PATTERN.fullmatch(custom_id)
        if ours and _shows(interaction.message, custom_id, data.get("component_type")):
            return  # GameButton.callback or SettingButton.callback has it
        await self.on_button(interaction, custom_id)

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """What the command callbacks did not catch themselves (an outdated command, say)."""
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            log.warning("outdated command in interaction %s: %s", interaction.id, error)
        else:
            log.error("command interaction %s failed", interaction.id, exc_info=error)
        text = translator(normalize_locale(interaction.locale.value))("error-unexpected")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except ERRORS as failure:
            log.warning("could not answer interaction %s: %s", interaction.id, failure)

    async def publish(self, channel: ChannelKey, outcome: Outcome) -> None:
        """Show an action that came without an interaction (a move the service made itself)."""
        await self.tables.clock.publish_in_turn(channel, outcome)
