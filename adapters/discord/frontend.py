"""Discord interactions → game actions → boards: one message per turn, edited in place.

A `/general` command group and the buttons of the boards (dynamic items, see buttons.py) are the
whole interface; no privileged intent is needed. Every interaction is acknowledged within
Discord's 3 seconds: a press on the board being redrawn is answered with that redraw (type 7),
other work is deferred when it has to wait (a busy table, a slow step) and followed up.
Refusals are ephemeral. Work is serialised per channel so that edits land in order.

What the bot does by itself (computers' turns, reminders, expired turns) is shown through the same
drawing. Discord failing (an HTTP error, a dropped connection, a missing permission) never undoes
or blocks a game: the state is saved before anything is shown, the log says so once per channel
and kind of failure, and a board that could not be posted is posted again at the next chance.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

import aiohttp
import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters import payload
from adapters.discord import render
from adapters.discord.buttons import (
    SETTINGS_DONE,
    SETTINGS_PATTERN,
    SETTINGS_PREFIX,
    GameButton,
    SettingButton,
)
from adapters.discord.render import Rendered
from adapters.i18n import DEFAULT_LOCALE, Translator, message_ids, normalize_locale, translator
from adapters.pictures import sheet_png
from adapters.presenter import Redraw, plan
from adapters.ratelimit import RateLimiter, Verdict
from adapters.text import (
    hint_lines,
    history_lines,
    leaderboard_lines,
    narrate,
    review_lines,
    stats_lines,
)
from core.actions import Action, AddComputer, Cancel, Join, Kick, Leave, Open
from core.chat_settings import CHOICES, ChatSettings, SheetStyle, cycled
from core.errors import ErrorCode, GameError
from core.events import EndReason, Event, PlayerLeft
from core.game import Game, Phase
from core.identity import ChannelKey, PlayerRef
from core.locks import ChannelLocks
from core.service import GameService, Outcome
from core.view import GameView, make_view

log = logging.getLogger(__name__)
_LANGUAGE: ContextVar[Translator | None] = ContextVar("discord_language", default=None)
PLATFORM = "dc"
COMMAND = "general"
SUBCOMMANDS = (
    "start",
    "join",
    "leave",
    "sheet",
    "hint",
    "review",
    "leaderboard",
    "stats",
    "history",
    "settings",
    "kick",
    "stop",
    "rules",
    "help",
)
COMMAND_ACTIONS: dict[str, Action] = {"join": Join(), "leave": Leave(), "stop": Cancel()}
RECORD_COMMANDS = ("leaderboard", "stats", "history")
REVIEWED = (EndReason.COMPLETED, EndReason.BIG_GENERAL)
RECENT_DAYS = 30
# How long discord.py waits for the guilds after READY before it calls the bot ready. The bot
# keeps nothing per guild (interactions carry all it needs), so there is no point waiting long.
GUILD_READY_TIMEOUT = 0.5
# An interaction not answered after this many seconds is deferred (Discord allows 3).
ACK_AFTER = 1.5
DESCRIPTION_LIMIT = 100
NAME_LIMIT = 32
# Which version of its game each board message shows (the latest few thousand messages).
DRAWN_MEMORY = 4096
# What Discord (or the way to it) can fail with. The game is saved before anything is shown, so
# none of these loses anything: the log says so once, and play goes on.
PLATFORM_ERRORS: tuple[type[Exception], ...] = (discord.HTTPException, aiohttp.ClientError, OSError)


class BoardStore(Protocol):
    async def board(self, game_id: str) -> str | None: ...

    async def set_board(self, game_id: str, ref: str) -> None: ...


@dataclass(frozen=True)
class BoardRef:
    """Where a game's live board is: the channel (or thread) and the message."""

    channel: int
    message: int

    def dumps(self) -> str:
        return json.dumps({"channel": self.channel, "message": self.message})

    @classmethod
    def loads(cls, text: str | None) -> BoardRef | None:
        if not text:
            return None
        try:
            data = json.loads(text)
            return cls(int(data["channel"]), int(data["message"]))
        except (ValueError, KeyError, TypeError):
            log.warning("unreadable board reference %r", text)
            return None


def channel_of(interaction: discord.Interaction[Any]) -> ChannelKey:
    """One table per channel; a thread has its own id, so it is a table of its own."""
    return ChannelKey(PLATFORM, str(interaction.channel_id), "")


def player_of(user: discord.abc.User) -> PlayerRef:
    return PlayerRef(str(user.id), user.display_name)


def user_translator(interaction: discord.Interaction[Any]) -> Translator:
    """The language of the person's Discord client (for what only they see)."""
    return translator(normalize_locale(interaction.locale.value))


def _press_on(message: discord.Message | None) -> payload.Press | None:
    """The game and version a message's buttons belong to (None: no game buttons)."""
    for row in message.components if message else ():
        for child in getattr(row, "children", ()):
            press = payload.decode(getattr(child, "custom_id", None))
            if press is not None:
                return press
    return None


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


class CatalogueTranslator(app_commands.Translator):
    """Descriptions, option names and choice names in every language the Fluent catalogues
    have (the bot's own language is the default text itself, so it gets no localisation). The
    group and subcommand names stay as they are: every text, here and on Telegram, tells people
    to type `/general start`, and that must stay true in every language."""

    def __init__(self, default_locale: str = DEFAULT_LOCALE) -> None:
        self.default_locale = normalize_locale(default_locale)

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        message_id = string.extras.get("message")
        ours = normalize_locale(locale.value)
        # Option names are English identifiers whatever the bot's language; texts are in it.
        is_name = context.location is app_commands.TranslationContextLocation.parameter_name
        default = DEFAULT_LOCALE if is_name else self.default_locale
        if message_id is None or ours == default or message_id not in message_ids(ours):
            return None
        text = translator(ours)(message_id)
        return text[:NAME_LIMIT] if is_name else text[:DESCRIPTION_LIMIT]


@dataclass(frozen=True)
class Shards:
    """Gateway sharding: `count` shards in all (0: as many as Discord recommends), of which this
    process runs `ids` (None: all of them)."""

    count: int
    ids: tuple[int, ...] | None = None


class GeneralClient(discord.Client):
    """The discord.py client: the command tree, the buttons, and the fallback for presses."""

    def __init__(self, front: DiscordFrontEnd, guild_ready_timeout: float, **more: Any) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            max_messages=None,
            **more,
        )
        self.front = front
        self.tree = app_commands.CommandTree(self)
        self.tree.error(front.on_tree_error)

    async def setup_hook(self) -> None:
        await self.front.setup(self)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        await self.front.on_interaction(interaction)

    async def on_game_press(
        self, interaction: discord.Interaction[Any], custom_id: str, *, shown: bool
    ) -> None:
        await self.front.on_press(interaction, custom_id, shown=shown)

    async def on_settings_press(
        self, interaction: discord.Interaction[Any], custom_id: str
    ) -> None:
        await self.front.on_settings_press(interaction, custom_id)


class ShardedGeneralClient(GeneralClient, discord.AutoShardedClient):
    """The same client over several gateway shards (some or all of the bot's)."""


class Answer:
    """The replies to one interaction. The first reply is the interaction's response, later ones
    follow up; if nothing was said after ACK_AFTER seconds the interaction is deferred, so it
    never fails for being slow. One reply at a time, so that a response is never sent twice.
    Words come in the language of the interaction (the front end's `t` in this task)."""

    def __init__(self, interaction: discord.Interaction[Any], front: DiscordFrontEnd):
        self.interaction = interaction
        self.front = front
        self.component = interaction.type is discord.InteractionType.component
        message = interaction.message if self.component else None
        self.pressed = BoardRef(interaction.channel_id or 0, message.id) if message else None
        self._guard = asyncio.Lock()
        self._thinking = False  # deferred as an ephemeral "thinking…" message
        self._spoke = False  # a follow-up replaced that message
        self._timer: asyncio.TimerHandle | None = None
        self._late_ack: asyncio.Task[None] | None = None

    @property
    def t(self) -> Translator:
        return self.front.t

    @property
    def channel_id(self) -> int:
        return self.interaction.channel_id or 0

    @property
    def done(self) -> bool:
        return self.interaction.response.is_done()

    async def __aenter__(self) -> Answer:
        loop = asyncio.get_running_loop()
        self._timer = loop.call_later(ACK_AFTER, self._start_late_ack)
        return self

    async def __aexit__(self, kind: type[BaseException] | None, *exc: object) -> None:
        try:
            if self._timer is not None:
                self._timer.cancel()
            if self._late_ack is not None:
                await self._late_ack
            if kind is not None and not issubclass(kind, Exception):
                return  # cancelled (the bot is stopping): say nothing more
            try:
                await self._finish()
            except PLATFORM_ERRORS as error:
                log.warning("finishing interaction %s failed: %s", self.interaction.id, error)
        finally:
            log.debug("interaction %s handled", self.interaction.id)

    def _start_late_ack(self) -> None:
        self._late_ack = asyncio.create_task(self._ack_quietly())

    async def _ack_quietly(self) -> None:
        try:
            await self.ack()
        except PLATFORM_ERRORS as error:
            log.warning("deferring interaction %s failed: %s", self.interaction.id, error)

    async def ack(self) -> None:
        """Acknowledge now, saying nothing yet (a command's "thinking…" goes at the end if
        nothing follows it)."""
        async with self._guard:
            if self.done:
                return
            if self.component:
                await self.interaction.response.defer()
            else:
                await self.interaction.response.defer(ephemeral=True, thinking=True)
                self._thinking = True

    async def update(self, rendered: Rendered) -> bool:
        """Redraw the pressed message as the response (type 7), if that is still possible."""
        async with self._guard:
            if not self.component or self.done:
                return False
            await self.interaction.response.edit_message(**rendered.edit_kwargs())
            return True

    async def redraw_pressed(self, rendered: Rendered) -> None:
        """Redraw the pressed message, as the response or, once answered, through the
        interaction (which reaches an ephemeral message too)."""
        if not await self.update(rendered):
            await self.interaction.edit_original_response(**rendered.edit_kwargs())

    async def public(self, rendered: Rendered) -> int:
        """Say something to the channel; returns the message's id. A command's first public
        message is its response; a button's are new channel messages."""
        async with self._guard:
            if not self.component and not self.done:
                response = await self.interaction.response.send_message(**rendered.send_kwargs())
                if response.message_id is not None:
                    return response.message_id
                return (await self.interaction.original_response()).id
        await self.ack()
        message = await self.front.send(self.channel_id, rendered)
        return message.id

    async def private(self, said: str | Rendered) -> None:
        """Tell the person who acted, and no one else."""
        rendered = said if isinstance(said, Rendered) else Rendered(said)
        kwargs = {**rendered.send_kwargs(), "ephemeral": True}
        async with self._guard:
            if not self.done:
                await self.interaction.response.send_message(**kwargs)
                return
        await self.interaction.followup.send(**kwargs)
        self._spoke = True

    async def fail(self) -> None:
        try:
            await self.private(self.t("error-unexpected"))
        except PLATFORM_ERRORS as error:
            log.warning("could not tell of the failure of %s: %s", self.interaction.id, error)

    async def after_trouble(self, error: Exception) -> None:
        """Discord refused or failed part of the answer; the game is saved. Where the bot may
        not post, the person is told privately (an interaction's answer always gets through)."""
        if not isinstance(error, discord.Forbidden):
            return
        try:
            await self.private(render.esc(self.t("discord-cannot-post")))
        except PLATFORM_ERRORS as failure:
            log.info("could not answer interaction %s: %s", self.interaction.id, failure)

    async def _finish(self) -> None:
        if not self.done:
            if self.component:
                await self.ack()
            else:
                await self.private(render.esc(self.t("discord-done")))
        elif self._thinking and not self._spoke:
            await self.interaction.delete_original_response()


class DiscordFrontEnd:
    """The Discord front end: `start()` logs in, syncs the commands and connects; `stop()`
    closes. Words are in the chat's language (its setting), else the person's, else the
    server's, else the bot's; the settings of a server are shared by its channels."""

    def __init__(
        self,
        service: GameService,
        boards: BoardStore,
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
    ) -> None:
        self.service = service
        self.shards = shards
        self.boards = boards
        self.token = token
        self.guild_id = guild_id
        self.api_base_url = api_base_url
        self.gateway_url = gateway_url
        self._default_t = translator(normalize_locale(locale))
        self.guild_ready_timeout = (
            GUILD_READY_TIMEOUT if guild_ready_timeout is None else guild_ready_timeout
        )
        self.pause = pause
        self.limiter = limiter or RateLimiter()
        self.client: GeneralClient | None = None
        self.connection: asyncio.Task[None] | None = None
        self._stopping = False
        self._saved_endpoints: tuple[str, yarl.URL] | None = None
        self._locks = ChannelLocks()  # one table's answers in order: one action's edits first
        self._troubles: set[tuple[str, str]] = set()
        self._drawn: OrderedDict[int, int] = OrderedDict()
        self._places: dict[int, tuple[str, str | None]] = {}
        self._lost: dict[str, str] = {}  # channel → game whose live board could not be posted

    @property
    def t(self) -> Translator:
        """The language of what is being handled (see `_settings_for`)."""
        return _LANGUAGE.get() or self._default_t

    # ------------------------------------------------------------------ lifecycle

    def _client(self) -> GeneralClient:
        if self.shards is None:
            return GeneralClient(self, self.guild_ready_timeout)
        more: dict[str, Any] = {}
        if self.shards.count:
            more["shard_count"] = self.shards.count
        if self.shards.ids is not None:
            more["shard_ids"] = list(self.shards.ids)
        return ShardedGeneralClient(self, self.guild_ready_timeout, **more)

    async def start(self) -> None:
        """Log in (syncing the commands), connect to the gateway, and return once ready; then
        re-arm the stored deadlines and let computers finish turns a restart cut short."""
        self._point_at_endpoints()
        client = self._client()
        self.client = client
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
        self.service.on_deadline(PLATFORM, self._on_deadline)
        await self.service.resume_deadlines(PLATFORM)
        for game in await self.service.repository.active_games(PLATFORM):
            if BoardRef.loads(await self.boards.board(game.id)) is None:
                self._lost[str(game.channel)] = game.id  # posted again at the next chance
            await self._wake_computers(game.channel)  # a computer's turn cut short by a restart

    async def stop(self) -> None:
        self._stopping = True
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
            Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = self._saved_endpoints  # type: ignore[misc]
            self._saved_endpoints = None

    def _point_at_endpoints(self) -> None:
        """discord.py's REST base and gateway are process-wide; set them before logging in."""
        self._saved_endpoints = (Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY)
        if self.api_base_url:
            Route.BASE = self.api_base_url.rstrip("/")  # type: ignore[misc]
        if self.gateway_url:
            DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(self.gateway_url)

    def _connection_ended(self, task: asyncio.Task[None]) -> None:
        if self._stopping:
            return
        error = None if task.cancelled() else task.exception()
        log.error("the Discord gateway connection ended: %r; Discord is not served", error)

    async def setup(self, client: GeneralClient) -> None:
        """At login: the buttons of earlier boards, the commands, and their sync."""
        client.add_dynamic_items(GameButton, SettingButton)
        client.tree.add_command(self._commands())
        await client.tree.set_translator(CatalogueTranslator(self._default_t.locale))
        guild = discord.Object(self.guild_id) if self.guild_id else None
        if guild is not None:
            client.tree.copy_global_to(guild=guild)
        synced = await client.tree.sync(guild=guild)
        where = f"guild {self.guild_id}" if guild else "globally"
        log.info("discord: %d command(s) synced %s", len(synced), where)

    def _commands(self) -> app_commands.Group:
        """`/general` and its subcommands, described in the bot's language and localised
        (see CatalogueTranslator) into the others."""
        t = self._default_t

        def text(key: str) -> app_commands.locale_str:
            return app_commands.locale_str(t(key)[:DESCRIPTION_LIMIT], message=key)

        def name(default: str, key: str) -> app_commands.locale_str:
            return app_commands.locale_str(default, message=key)

        group = app_commands.Group(
            name=COMMAND,
            description=text("discord-cmd-general"),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )
        Choice = app_commands.Choice

        @app_commands.rename(text=name("text", "discord-opt-text"))
        @app_commands.describe(text=text("discord-opt-text-about"))
        async def sheet(interaction: discord.Interaction[Any], text: bool = False) -> None:
            await self.on_command(interaction, "sheet", text=text)

        @app_commands.rename(
            scope=name("scope", "discord-opt-scope"), period=name("period", "discord-opt-period")
        )
        @app_commands.describe(
            scope=text("discord-opt-scope-about"), period=text("discord-opt-period-about")
        )
        @app_commands.choices(
            scope=[
                Choice(name=text("discord-choice-channel"), value="channel"),
                Choice(name=text("discord-choice-global"), value="global"),
            ],
            period=[
                Choice(name=text("discord-choice-all"), value="all"),
                Choice(name=text("discord-choice-recent"), value="recent"),
            ],
        )
        async def leaderboard(
            interaction: discord.Interaction[Any], scope: str = "channel", period: str = "all"
        ) -> None:
            await self.on_command(interaction, "leaderboard", scope=scope, period=period)

        @app_commands.rename(player=name("player", "discord-opt-player"))
        @app_commands.describe(player=text("discord-opt-stats-player-about"))
        async def stats(
            interaction: discord.Interaction[Any], player: discord.User | None = None
        ) -> None:
            await self.on_command(interaction, "stats", player=player)

        @app_commands.rename(player=name("player", "discord-opt-player"))
        @app_commands.describe(player=text("discord-opt-kick-player-about"))
        async def kick(interaction: discord.Interaction[Any], player: discord.User) -> None:
            await self.on_command(interaction, "kick", player=player)

        with_options: dict[str, Callable[..., Awaitable[None]]] = {
            "sheet": sheet,
            "leaderboard": leaderboard,
            "stats": stats,
            "kick": kick,
        }
        for sub in SUBCOMMANDS:
            group.add_command(
                app_commands.Command(
                    name=sub,
                    description=text(f"discord-cmd-{sub}"),
                    callback=with_options.get(sub) or self._command_callback(sub),
                )
            )
        return group

    def _command_callback(self, name: str) -> Callable[[discord.Interaction[Any]], Awaitable[None]]:
        async def callback(interaction: discord.Interaction[Any]) -> None:
            await self.on_command(interaction, name)

        callback.__name__ = name
        return callback

    @contextlib.asynccontextmanager
    async def _serial(self, channel: ChannelKey, answer: Answer) -> AsyncIterator[None]:
        lock = self._locks[channel]
        if lock.locked():  # someone else's action is being shown: acknowledge, then wait
            await answer.ack()
        async with lock:
            yield
            await self._heal(channel)

    # ------------------------------------------------------------------ chats and languages

    async def _place(
        self, channel_id: int, interaction: discord.Interaction[Any] | None = None
    ) -> tuple[str, str | None]:
        """The chat a channel's settings are kept under (its server; a DM is its own) and the
        server's language. Interactions tell it; otherwise the client's cache or Discord."""
        if interaction is not None:
            guild_id = interaction.guild_id
            locale = interaction.guild_locale
            place = (str(guild_id or channel_id), locale.value if locale else None)
            self._places[channel_id] = place
            return place
        known = self._places.get(channel_id)
        if known is not None:
            return known
        assert self.client is not None
        found: Any = self.client.get_channel(channel_id)
        if found is None:
            try:
                found = await self.client.fetch_channel(channel_id)
            except PLATFORM_ERRORS as error:
                log.info("channel %s unknown for now: %s", channel_id, error)
                return str(channel_id), None
        guild = getattr(found, "guild", None)
        if guild is None:
            place: tuple[str, str | None] = (str(channel_id), None)
        else:
            place = (str(guild.id), str(guild.preferred_locale.value))
        self._places[channel_id] = place
        return place

    async def _settings_for(
        self, channel: ChannelKey, interaction: discord.Interaction[Any] | None = None
    ) -> ChatSettings:
        """Load the chat's settings and take up its language for the rest of this task: the
        chat's choice, else the person's (their client's), else the server's, else the bot's."""
        chat, guild_locale = await self._place(int(channel.chat), interaction)
        settings = await self.service.repository.chat_settings(PLATFORM, chat)
        person = interaction.locale.value if interaction is not None else None
        code = settings.language or person or guild_locale
        _LANGUAGE.set(translator(normalize_locale(code)) if code else self._default_t)
        return settings

    async def _chat_settings(self, channel: ChannelKey) -> ChatSettings:
        chat, _ = await self._place(int(channel.chat))
        return await self.service.repository.chat_settings(PLATFORM, chat)

    @staticmethod
    def _may_configure(interaction: discord.Interaction[Any]) -> bool:
        """Members who may manage the channel (anyone in a DM) change the chat's settings."""
        return interaction.guild_id is None or interaction.permissions.manage_channels

    def _limited(self, interaction: discord.Interaction[Any]) -> Verdict:
        return self.limiter.check(str(interaction.user.id))

    # ------------------------------------------------------------------ commands

    async def on_command(
        self, interaction: discord.Interaction[Any], name: str, **options: Any
    ) -> None:
        channel = channel_of(interaction)
        async with Answer(interaction, self) as answer:
            try:
                settings = await self._settings_for(channel, interaction)
                if await self._slowed(answer):
                    return
                t = self.t
                player = player_of(interaction.user)
                if name in ("help", "rules"):
                    await answer.private(render.help_text(t, name, SUBCOMMANDS))
                elif name == "settings":
                    if self._may_configure(interaction):
                        await answer.private(render.settings(t, settings))
                    else:
                        await answer.private(render.esc(t("settings-admins-only")))
                elif name in RECORD_COMMANDS:
                    for page in await self._records(name, channel, interaction.user, options):
                        await answer.public(Rendered(page))
                elif name == "hint":
                    await self._hint(answer, channel, player)
                elif name == "review":
                    for page in await self._review_pages(channel):
                        await answer.public(Rendered(page))
                else:
                    async with self._serial(channel, answer):
                        await self._command(answer, channel, player, name, settings, options)
            except PLATFORM_ERRORS as error:
                self._trouble(channel, error)
                await answer.after_trouble(error)
            except Exception:
                log.exception("/%s %s in %s failed", COMMAND, name, channel)
                await answer.fail()
        await self._wake_computers(channel)

    async def _slowed(self, answer: Answer) -> bool:
        """The per-person flood limit: beyond it "slow down" once, then silence (but every
        interaction is still acknowledged)."""
        verdict = self._limited(answer.interaction)
        if verdict is Verdict.WARN:
            await answer.private(render.esc(self.t("error-slow-down")))
        elif verdict is Verdict.DROP:
            await answer.ack()
        return verdict is not Verdict.ALLOW

    async def _command(
        self,
        answer: Answer,
        channel: ChannelKey,
        player: PlayerRef,
        name: str,
        settings: ChatSettings,
        options: dict[str, Any],
    ) -> None:
        t = self.t
        if name == "sheet":
            view = await self.service.view(channel, player.id)
            if view is None:
                await answer.private(render.esc(t("chat-sheet-none")))
                return
            for rendered in await self._sheet(view, settings, text=bool(options.get("text"))):
                await answer.public(rendered)
            return
        if name == "kick":
            await self._kick(answer, channel, player, options["player"])
            return
        action = Open(settings.variants()) if name == "start" else COMMAND_ACTIONS[name]
        try:
            outcome = await self.service.act(channel, player, action)
        except GameError as error:
            await answer.private(render.refusal(t, error))
            if error.code is ErrorCode.GAME_EXISTS:
                await self._repost_board(channel)
            return
        if isinstance(action, Join | Leave):
            lines = self._narrate_seating(outcome, player)
            if lines:
                await answer.public(Rendered(render.narration(lines)))
        ref = BoardRef.loads(await self.boards.board(outcome.view.game_id))
        await self._publish(answer, outcome, ref)

    async def _kick(
        self, answer: Answer, channel: ChannelKey, host: PlayerRef, user: discord.abc.User
    ) -> None:
        """The host removes a player (named with Discord's user picker) from the table."""
        t = self.t
        game = await self.service.game(channel)
        if game is None:
            await answer.private(render.refusal(t, GameError(ErrorCode.NO_GAME)))
            return
        target = next(
            (s.player for s in game.seats if s.active and s.player.id == str(user.id)), None
        )
        if target is None:
            await answer.private(render.esc(t("discord-kick-not-seated", name=user.display_name)))
            return
        try:
            outcome = await self.service.act(channel, host, Kick(target.id))
        except GameError as error:
            if error.code is ErrorCode.BAD_ACTION:  # the host named themselves
                await answer.private(render.esc(t("discord-kick-self")))
            else:
                await answer.private(render.refusal(t, error))
            return
        removed = t("event-removed-kicked", name=target.name)
        await answer.public(Rendered(render.narration([removed])))
        ref = BoardRef.loads(await self.boards.board(outcome.view.game_id))
        await self._publish(answer, outcome, ref)

    async def _hint(self, answer: Answer, channel: ChannelKey, player: PlayerRef) -> None:
        """The best choices now, for the player whose turn it is, privately."""
        t = self.t
        try:
            options = await self.service.hint(channel, player)
        except GameError as error:
            await answer.private(render.refusal(t, error))
            return
        view = await self.service.view(channel, player.id)
        dice = tuple(d.value for d in view.dice) if view else ()
        await answer.private(render.lines_text(hint_lines(t, options, dice)))

    async def _records(
        self,
        name: str,
        channel: ChannelKey,
        user: discord.abc.User,
        options: dict[str, Any],
    ) -> list[str]:
        """Leaderboard, statistics or history, as monospace blocks."""
        t = self.t
        records = self.service.repository
        if name == "history":
            lines = history_lines(t, await records.history(channel))
        elif name == "stats":
            who: discord.abc.User = options.get("player") or user
            stats = await records.player_stats(PLATFORM, str(who.id), None)
            lines = stats_lines(t, stats) if stats else [t("stats-none", name=who.display_name)]
        else:
            global_ = options.get("scope") == "global"
            days = RECENT_DAYS if options.get("period") == "recent" else None
            since = time.time() - days * 86400 if days else None
            standings = await records.leaderboard(PLATFORM, None if global_ else channel, since)
            lines = leaderboard_lines(t, standings, global_, days)
        return render.records(lines)

    def _narrate_seating(self, outcome: Outcome, player: PlayerRef) -> list[str]:
        """Who sat down or left. A player who leaves a lobby is no longer in the view, where
        `narrate` looks names up: their own name is used for them."""
        view = outcome.view
        gone = [
            e for e in outcome.events if isinstance(e, PlayerLeft) and not view.player(e.player_id)
        ]
        rest = [e for e in outcome.events if e not in gone]
        lines = narrate(self.t, view, rest)
        return [self.t("event-left", name=player.name) for _ in gone] + lines

    async def on_tree_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError
    ) -> None:
        """What the command callbacks did not catch themselves (an outdated command, say)."""
        if isinstance(error, app_commands.CommandNotFound | app_commands.CommandSignatureMismatch):
            log.warning("outdated command in interaction %s: %s", interaction.id, error)
        else:
            log.error("command interaction %s failed", interaction.id, exc_info=error)
        text = user_translator(interaction)("error-unexpected")
        try:
            if interaction.response.is_done():
                await interaction.followup.send(text, ephemeral=True)
            else:
                await interaction.response.send_message(text, ephemeral=True)
        except PLATFORM_ERRORS as failure:
            log.warning("could not answer interaction %s: %s", interaction.id, failure)

    # ------------------------------------------------------------------ buttons

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Presses discord.py does not route to a button of ours: a custom_id that is not
        ours, or one the message does not show (an outdated client's, or a forged one)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        custom_id = custom_id if isinstance(custom_id, str) else ""
        ours = payload.PATTERN.fullmatch(custom_id) or SETTINGS_PATTERN.fullmatch(custom_id)
        if ours and _shows(interaction.message, custom_id, data.get("component_type")):
            return  # GameButton.callback or SettingButton.callback has it
        await self.on_press(interaction, custom_id, shown=False)

    async def on_press(
        self, interaction: discord.Interaction[Any], custom_id: str, *, shown: bool
    ) -> None:
        """A button: `shown` says whether the pressed message carries it."""
        channel = channel_of(interaction)
        async with Answer(interaction, self) as answer:
            try:
                await self._settings_for(channel, interaction)
                if await self._slowed(answer):
                    return
                t = self.t
                press = payload.decode(custom_id)
                if press is None or answer.pressed is None:
                    await answer.private(render.esc(t("error-bad-action")))
                    return
                if press.code == payload.HINT:
                    await self._hint_pressed(answer, channel, press)
                    return
                async with self._serial(channel, answer):
                    await self._press(answer, channel, press, shown=shown)
            except PLATFORM_ERRORS as error:
                # Whatever was pressed is saved; only showing it failed: the next press redraws.
                self._trouble(channel, error)
                await answer.after_trouble(error)
            except Exception:
                log.exception("press %r in %s failed", custom_id[:100], channel)
                await answer.fail()
        await self._wake_computers(channel)

    async def _hint_pressed(
        self, answer: Answer, channel: ChannelKey, press: payload.Press
    ) -> None:
        game = await self.service.game(channel)
        if game is None or game.id != press.game_id:
            await answer.private(render.esc(self.t("error-game-over")))
            return
        await self._hint(answer, channel, player_of(answer.interaction.user))

    async def _press(
        self,
        answer: Answer,
        channel: ChannelKey,
        press: payload.Press,
        *,
        shown: bool,
    ) -> None:
        assert answer.pressed is not None
        t = self.t
        player = player_of(answer.interaction.user)
        action = press.action
        if press.computer is not None:
            action = AddComputer(press.computer, t(f"computer-{press.computer.value}"))
        elif action is None:  # the score sheet, for the presser's eyes only
            view = await self.service.view(channel, player.id)
            if view is None or view.game_id != press.game_id:
                await answer.private(render.esc(t("error-game-over")))
                return
            for rendered in await self._sheet(view, await self._chat_settings(channel)):
                await answer.private(rendered)
            return
        try:
            outcome = await self.service.act(
                channel, player, action, game_id=press.game_id, version=press.version
            )
        except GameError as error:
            await self._after_refusal(answer, channel, press, error)
            await answer.private(render.refusal(t, error))
            return
        game_id = outcome.view.game_id
        ref = BoardRef.loads(await self.boards.board(game_id))
        if shown and ref != answer.pressed:
            # The pressed message shows this very version of the game: it is the live board
            # (a crash may have kept the stored reference from following it).
            ref = answer.pressed
            await self.boards.set_board(game_id, ref.dumps())
            self._lost.pop(str(channel), None)
        await self._publish(answer, outcome, ref)

    async def _after_refusal(
        self, answer: Answer, channel: ChannelKey, press: payload.Press, error: GameError
    ) -> None:
        """A stale press redraws the live board it was made on (unless it shows the game as it
        is already); a board of a game that is over loses its buttons. Only what the pressed
        message itself shows is trusted."""
        pressed = answer.pressed
        assert pressed is not None
        on_message = _press_on(answer.interaction.message)
        if error.code is ErrorCode.STALE:
            game = await self.service.game(channel)
            if game is None or on_message is None or on_message.game_id != game.id:
                return
            ref = BoardRef.loads(await self.boards.board(game.id))
            if ref is None or ref == pressed:
                if self._drawn.get(pressed.message) != game.version:
                    board = self._board(make_view(game))
                    await self._redraw_board(answer, game.id, pressed, board, game.version)
                if ref is None:
                    await self.boards.set_board(game.id, pressed.dumps())
                    self._lost.pop(str(channel), None)
            elif on_message.version != game.version:
                await self._strip(answer, pressed)  # a left-over board of an earlier turn
        elif (
            error.code is ErrorCode.GAME_OVER
            and on_message is not None
            and on_message.game_id == press.game_id
        ):
            await self._strip(answer, pressed)

    async def on_settings_press(
        self, interaction: discord.Interaction[Any], custom_id: str
    ) -> None:
        """A button of the settings screen (shown on the pressed message: see on_interaction).
        Those who may manage the channel only; each press cycles one setting and saves it."""
        channel = channel_of(interaction)
        async with Answer(interaction, self) as answer:
            try:
                settings = await self._settings_for(channel, interaction)
                if await self._slowed(answer):
                    return
                name = custom_id[len(SETTINGS_PREFIX) :]
                if name not in CHOICES and name != SETTINGS_DONE:
                    await answer.private(render.esc(self.t("error-bad-action")))
                elif not self._may_configure(interaction):
                    await answer.private(render.esc(self.t("settings-admins-only")))
                elif name == SETTINGS_DONE:
                    await answer.redraw_pressed(Rendered(render.esc(self.t("settings-closed"))))
                else:
                    settings = cycled(settings, name)
                    chat, _ = await self._place(int(channel.chat), interaction)
                    await self.service.repository.save_chat_settings(PLATFORM, chat, settings)
                    await self._settings_for(channel, interaction)  # a new language at once
                    await answer.redraw_pressed(render.settings(self.t, settings))
            except PLATFORM_ERRORS as error:
                self._trouble(channel, error)
            except Exception:
                log.exception("settings press %r in %s failed", custom_id[:100], channel)
                await answer.fail()

    # ------------------------------------------------------------------ drawing

    def _board(self, view: GameView, *, notify: bool = False) -> Rendered:
        if view.phase is Phase.PLAYING:
            return render.turn(self.t, view, notify=notify)
        return render.lobby(self.t, view)

    def _redraw(self, how: Redraw, view: GameView, events: tuple[Event, ...]) -> Rendered:
        match how:
            case Redraw.LOBBY:
                return render.lobby(self.t, view)
            case Redraw.TURN:
                return render.turn(self.t, view)
            case Redraw.FINISHED_TURN:
                return render.finished_turn(self.t, view)
        lines = narrate(self.t, view, events)
        return Rendered(render.narration(lines) if lines else render.esc(self.t("game-over")))

    async def publish(self, channel: ChannelKey, outcome: Outcome) -> None:
        """Show an action that came without an interaction (a move the service made itself)."""
        async with self._locks[channel]:
            await self._heal(channel)
            ref = BoardRef.loads(await self.boards.board(outcome.view.game_id))
            await self._publish(None, outcome, ref, channel_id=int(channel.chat))

    async def _publish(
        self,
        answer: Answer | None,
        outcome: Outcome,
        ref: BoardRef | None,
        *,
        channel_id: int = 0,
    ) -> None:
        """Bring the channel up to date with an applied action (see adapters.presenter)."""
        view, events = outcome.view, outcome.events
        steps = plan(view, events)
        channel_id = answer.channel_id if answer is not None else channel_id
        channel = outcome.game.channel

        async def say(rendered: Rendered) -> int:
            if answer is not None:
                return await answer.public(rendered)
            return (await self.send(channel_id, rendered)).id

        if steps.redraw is not None and ref is not None:
            rendered = self._redraw(steps.redraw, view, events)
            await self._redraw_board(answer, view.game_id, ref, rendered, view.version)
        if steps.final:
            for rendered in await self._final(channel, view):
                await say(rendered)
        if steps.new_board:
            board = self._board(view, notify=True)
            lines = narrate(self.t, view, steps.preface)
            preface = render.pages(render.esc(line) for line in lines)
            content = board.content or ""
            if preface and len(preface[-1]) + 2 + len(content) <= render.MESSAGE_LIMIT:
                board = Rendered(f"{preface.pop()}\n\n{content}", board.view, board.ping)
            try:
                for page in preface:  # the lot of a big table does not fit beside the board
                    await say(Rendered(page))
                ref = BoardRef(channel_id, await say(board))
            except PLATFORM_ERRORS:
                # No live board now: nothing to redraw until one is posted again (_heal).
                self._lost[str(channel)] = view.game_id
                await self.boards.set_board(view.game_id, "")
                raise
            self._lost.pop(str(channel), None)
            self._remember(ref, view.version)
            await self.boards.set_board(view.game_id, ref.dumps())
        for event in steps.notice:
            player = view.player(getattr(event, "player_id", ""))
            if player is not None:
                await say(render.notice(narrate(self.t, view, [event])[0], player))

    async def _final(self, channel: ChannelKey, view: GameView) -> list[Rendered]:
        """The final message: who won, the sheet (a picture where the chat chose them) and how
        everyone played."""
        review = await self._review(view) if view.round else []
        if view.round and (await self._chat_settings(channel)).sheet is SheetStyle.PICTURE:
            picture = await asyncio.to_thread(sheet_png, self.t, view)
            first, *rest = render.final(self.t, view, review, with_sheet=False)
            return [Rendered(first, picture=picture), *(Rendered(page) for page in rest)]
        return [Rendered(page) for page in render.final(self.t, view, review)]

    async def _sheet(
        self, view: GameView, settings: ChatSettings, *, text: bool = False
    ) -> list[Rendered]:
        """The score sheet: a picture where the chat chose them (unless text is asked for)."""
        if not text and settings.sheet is SheetStyle.PICTURE:
            picture = await asyncio.to_thread(sheet_png, self.t, view)
            return [Rendered(f"**{render.esc(self.t('sheet-title'))}**", picture=picture)]
        return [Rendered(page) for page in render.sheet(self.t, view)]

    async def _review(self, view: GameView) -> list[str]:
        """How each person played the game of `view` (none for a game that did not finish)."""
        if view.end_reason not in REVIEWED:
            return []
        reviews = await self.service.review(view.game_id)
        return review_lines(self.t, view, reviews, view.variants)

    async def _review_pages(self, channel: ChannelKey) -> list[str]:
        game = await self.service.repository.last_finished(channel)
        lines = await self._review(make_view(game)) if game is not None else []
        return render.pages(render.esc(line) for line in lines or [self.t("review-none")])

    async def _redraw_board(
        self,
        answer: Answer | None,
        game_id: str,
        ref: BoardRef,
        rendered: Rendered,
        version: int,
    ) -> None:
        if self._drawn.get(ref.message) == version:
            return  # it shows this version already
        if answer is not None and ref == answer.pressed and await answer.update(rendered):
            self._remember(ref, version)
            return
        await self._draw(game_id, ref, rendered, version)

    async def _repost_board(self, channel: ChannelKey) -> None:
        """Show the live board again at the bottom of the channel; the old one loses its
        buttons."""
        game: Game | None = await self.service.game(channel)
        if game is None:
            self._lost.pop(str(channel), None)
            return
        old = BoardRef.loads(await self.boards.board(game.id))
        channel_id = int(channel.chat)
        message = await self.send(channel_id, self._board(make_view(game)))
        ref = BoardRef(channel_id, message.id)
        self._remember(ref, game.version)
        await self.boards.set_board(game.id, ref.dumps())
        self._lost.pop(str(channel), None)
        if old is not None:
            await self._edit_quietly(old, Rendered(None))

    async def _heal(self, channel: ChannelKey) -> None:
        """A table whose live board could not be posted gets it now."""
        if str(channel) in self._lost:
            log.info("posting the board of %s again", channel)
            await self._repost_board(channel)

    async def _strip(self, answer: Answer, ref: BoardRef) -> None:
        if ref == answer.pressed and await answer.update(Rendered(None)):
            return
        await self._edit_quietly(ref, Rendered(None))

    def _remember(self, ref: BoardRef, version: int) -> None:
        """Which version of its game a board message shows now."""
        self._drawn[ref.message] = version
        self._drawn.move_to_end(ref.message)
        while len(self._drawn) > DRAWN_MEMORY:
            self._drawn.popitem(last=False)

    # ------------------------------------------------------------------ on its own

    async def _wake_computers(self, channel: ChannelKey) -> None:
        """Let the computers of this table play their turns (if it is one of theirs)."""
        try:
            settings = await self._chat_settings(channel)
        except Exception:
            log.exception("waking the computers of %s failed", channel)
            return
        pause = self.pause if settings.computer_pause is None else settings.computer_pause
        self.service.wake_computers(channel, partial(self._publish_in_turn, channel), pause)

    async def _on_deadline(self, channel: ChannelKey, outcome: Outcome) -> None:
        """The bot acted by itself (a reminder, an expired turn, a closed table): show it."""
        await self._publish_in_turn(channel, outcome)
        await self._wake_computers(channel)

    async def _publish_in_turn(self, channel: ChannelKey, outcome: Outcome) -> None:
        """Show a move the service made by itself, in the chat's language; Discord failing is
        logged (once) and does not stop the game."""
        try:
            await self._settings_for(channel)
            await self.publish(channel, outcome)
        except PLATFORM_ERRORS as error:
            self._trouble(channel, error)

    def _trouble(self, channel: ChannelKey, error: Exception) -> None:
        """Discord refused or failed: the game is saved as it is; say so in the log, once."""
        key = (channel.chat, type(error).__name__)
        if key in self._troubles:
            log.debug("discord again in %s: %s", channel, error)
            return
        self._troubles.add(key)
        if isinstance(error, discord.Forbidden):
            log.warning(
                "cannot write in channel %s (removed, or no right to send): %s; "
                "its game is kept for when the bot may write again",
                channel.chat,
                error,
            )
        else:
            log.warning("discord failed in %s: %r; the game is saved and goes on", channel, error)

    # ------------------------------------------------------------------ Discord calls

    def _messageable(self, channel_id: int) -> discord.PartialMessageable:
        assert self.client is not None
        return self.client.get_partial_messageable(channel_id)

    async def send(self, channel_id: int, rendered: Rendered) -> discord.Message:
        return await self._messageable(channel_id).send(**rendered.send_kwargs())

    async def _draw(self, game_id: str, ref: BoardRef, rendered: Rendered, version: int) -> None:
        """Edit a board; one that was deleted while it still had buttons is sent anew."""
        message = self._messageable(ref.channel).get_partial_message(ref.message)
        try:
            await message.edit(**rendered.edit_kwargs())
        except discord.NotFound:
            if rendered.view is None:
                log.info("board %s of game %s is gone", ref, game_id)
                return
            log.info("board %s of game %s was deleted; sending it again", ref, game_id)
            sent = await self.send(ref.channel, rendered)
            ref = BoardRef(ref.channel, sent.id)
            await self.boards.set_board(game_id, ref.dumps())
        self._remember(ref, version)

    async def _edit_quietly(self, ref: BoardRef, rendered: Rendered) -> None:
        """An edit that may find its message gone or out of reach (an old board's buttons)."""
        message = self._messageable(ref.channel).get_partial_message(ref.message)
        try:
            await message.edit(**rendered.edit_kwargs())
        except PLATFORM_ERRORS as error:
            log.info("could not edit board %s: %s", ref, error)
