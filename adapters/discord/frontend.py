"""Discord interactions → game actions → boards: one message per turn, edited in place.

A `/general` command group and the buttons of the boards (dynamic items, see buttons.py) are the
whole interface; no privileged intent is needed. Every interaction is acknowledged within
Discord's 3 seconds: a press on the board being redrawn is answered with that redraw (type 7),
other work is deferred when it has to wait (a busy table, a slow step) and followed up.
Refusals are ephemeral. Work is serialised per channel so that edits land in order.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import weakref
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Protocol

import discord
import yarl
from discord import app_commands
from discord.gateway import DiscordWebSocket
from discord.http import Route

from adapters import payload
from adapters.discord import render
from adapters.discord.buttons import GameButton
from adapters.discord.render import Rendered
from adapters.i18n import DEFAULT_LOCALE, Translator, message_ids, normalize_locale, translator
from adapters.presenter import Redraw, plan
from adapters.text import narrate
from core.actions import Action, Cancel, Join, Leave, Open
from core.errors import ErrorCode, GameError
from core.events import Event, PlayerLeft
from core.game import Game, Phase
from core.identity import ChannelKey, PlayerRef
from core.service import GameService, Outcome
from core.view import GameView, make_view

log = logging.getLogger(__name__)
PLATFORM = "dc"
COMMAND = "general"
SUBCOMMANDS = ("start", "join", "leave", "sheet", "stop", "rules", "help")
COMMAND_ACTIONS: dict[str, Action] = {"join": Join(), "leave": Leave(), "stop": Cancel()}
# How long discord.py waits for the guilds after READY before it calls the bot ready. The bot
# keeps nothing per guild (interactions carry all it needs), so there is no point waiting long.
GUILD_READY_TIMEOUT = 0.5
# An interaction not answered after this many seconds is deferred (Discord allows 3).
ACK_AFTER = 1.5
DESCRIPTION_LIMIT = 100


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
    """Command descriptions in every language the Fluent catalogues have (English is the
    default text itself, so it gets no localisation)."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        message_id = string.extras.get("message")
        ours = normalize_locale(locale.value)
        if message_id is None or ours == DEFAULT_LOCALE or message_id not in message_ids(ours):
            return None
        return translator(ours)(message_id)[:DESCRIPTION_LIMIT]


class GeneralClient(discord.Client):
    """The discord.py client: the command tree, the buttons, and the fallback for presses."""

    def __init__(self, front: DiscordFrontEnd, guild_ready_timeout: float) -> None:
        super().__init__(
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
            guild_ready_timeout=guild_ready_timeout,
            max_messages=None,
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


class Answer:
    """The replies to one interaction. The first reply is the interaction's response, later ones
    follow up; if nothing was said after ACK_AFTER seconds the interaction is deferred, so it
    never fails for being slow. One reply at a time, so that a response is never sent twice."""

    def __init__(
        self, interaction: discord.Interaction[Any], t: Translator, front: DiscordFrontEnd
    ):
        self.interaction = interaction
        self.t = t
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
            except discord.HTTPException as error:
                log.warning("finishing interaction %s failed: %s", self.interaction.id, error)
        finally:
            log.debug("interaction %s handled", self.interaction.id)

    def _start_late_ack(self) -> None:
        self._late_ack = asyncio.create_task(self._ack_quietly())

    async def _ack_quietly(self) -> None:
        try:
            await self.ack()
        except discord.HTTPException as error:
            log.warning("deferring interaction %s failed: %s", self.interaction.id, error)

    async def ack(self) -> None:
        """Acknowledge now, saying nothing yet."""
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

    async def private(self, text: str) -> None:
        """Tell the person who acted, and no one else."""
        async with self._guard:
            if not self.done:
                await self.interaction.response.send_message(text, ephemeral=True)
                return
        await self.interaction.followup.send(text, ephemeral=True)
        self._spoke = True

    async def fail(self) -> None:
        try:
            await self.private(self.t("error-unexpected"))
        except discord.HTTPException as error:
            log.warning("could not tell of the failure of %s: %s", self.interaction.id, error)

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
    closes. Public text is in the bot's language, what one person alone sees in theirs."""

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
    ) -> None:
        self.service = service
        self.boards = boards
        self.token = token
        self.guild_id = guild_id
        self.api_base_url = api_base_url
        self.gateway_url = gateway_url
        self.t = translator(normalize_locale(locale))
        self.guild_ready_timeout = (
            GUILD_READY_TIMEOUT if guild_ready_timeout is None else guild_ready_timeout
        )
        self.client: GeneralClient | None = None
        self.connection: asyncio.Task[None] | None = None
        self._stopping = False
        self._saved_endpoints: tuple[str, yarl.URL] | None = None
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Log in (syncing the commands), connect to the gateway, and return once ready."""
        self._point_at_endpoints()
        client = GeneralClient(self, self.guild_ready_timeout)
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
        client.add_dynamic_items(GameButton)
        client.tree.add_command(self._commands())
        await client.tree.set_translator(CatalogueTranslator())
        guild = discord.Object(self.guild_id) if self.guild_id else None
        if guild is not None:
            client.tree.copy_global_to(guild=guild)
        synced = await client.tree.sync(guild=guild)
        where = f"guild {self.guild_id}" if guild else "globally"
        log.info("discord: %d command(s) synced %s", len(synced), where)

    def _commands(self) -> app_commands.Group:
        def text(key: str) -> app_commands.locale_str:
            return app_commands.locale_str(self.t(key)[:DESCRIPTION_LIMIT], message=key)

        group = app_commands.Group(
            name=COMMAND,
            description=text("discord-cmd-general"),
            allowed_contexts=app_commands.AppCommandContext(
                guild=True, dm_channel=True, private_channel=False
            ),
            allowed_installs=app_commands.AppInstallationType(guild=True, user=False),
        )
        for name in SUBCOMMANDS:
            group.add_command(
                app_commands.Command(
                    name=name,
                    description=text(f"discord-cmd-{name}"),
                    callback=self._command_callback(name),
                )
            )
        return group

    def _command_callback(self, name: str) -> Callable[[discord.Interaction[Any]], Awaitable[None]]:
        async def callback(interaction: discord.Interaction[Any]) -> None:
            await self.on_command(interaction, name)

        callback.__name__ = name
        return callback

    def _lock(self, channel: ChannelKey) -> asyncio.Lock:
        """Keeps one table's answers in order: the edits of one action land before the next's."""
        key = str(channel)
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    @contextlib.asynccontextmanager
    async def _serial(self, channel: ChannelKey, answer: Answer) -> AsyncIterator[None]:
        lock = self._lock(channel)
        if lock.locked():  # someone else's action is being shown: acknowledge, then wait
            await answer.ack()
        async with lock:
            yield

    # ------------------------------------------------------------------ commands

    async def on_command(self, interaction: discord.Interaction[Any], name: str) -> None:
        t = user_translator(interaction)
        channel = channel_of(interaction)
        async with Answer(interaction, t, self) as answer:
            try:
                if name in ("help", "rules"):
                    await answer.private(render.help_text(t, name, SUBCOMMANDS))
                    return
                async with self._serial(channel, answer):
                    await self._command(answer, channel, player_of(interaction.user), name, t)
            except Exception:
                log.exception("/%s %s in %s failed", COMMAND, name, channel)
                await answer.fail()

    async def _command(
        self, answer: Answer, channel: ChannelKey, player: PlayerRef, name: str, t: Translator
    ) -> None:
        if name == "sheet":
            view = await self.service.view(channel, player.id)
            if view is None:
                await answer.private(render.esc(t("chat-sheet-none")))
                return
            for page in render.sheet(self.t, view):
                await answer.public(Rendered(page))
            return
        action = Open() if name == "start" else COMMAND_ACTIONS[name]
        try:
            outcome = await self.service.act(channel, player, action)
        except GameError as error:
            await answer.private(render.refusal(t, error))
            if error.code is ErrorCode.GAME_EXISTS:
                await self._repost_board(answer, channel)
            return
        if isinstance(action, Join | Leave):
            lines = self._narrate_seating(outcome, player)
            if lines:
                await answer.public(Rendered(render.narration(lines)))
        ref = BoardRef.loads(await self.boards.board(outcome.view.game_id))
        await self._publish(answer, outcome, ref)

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
        except discord.HTTPException as failure:
            log.warning("could not answer interaction %s: %s", interaction.id, failure)

    # ------------------------------------------------------------------ buttons

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """Presses discord.py does not route to a GameButton: a custom_id that is not ours, or
        one the message does not show (an outdated client's, or a forged one)."""
        if interaction.type is not discord.InteractionType.component:
            return
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        custom_id = custom_id if isinstance(custom_id, str) else ""
        if payload.PATTERN.fullmatch(custom_id) and _shows(
            interaction.message, custom_id, data.get("component_type")
        ):
            return  # GameButton.callback has it
        await self.on_press(interaction, custom_id, shown=False)

    async def on_press(
        self, interaction: discord.Interaction[Any], custom_id: str, *, shown: bool
    ) -> None:
        """A button: `shown` says whether the pressed message carries it."""
        t = user_translator(interaction)
        channel = channel_of(interaction)
        async with Answer(interaction, t, self) as answer:
            try:
                press = payload.decode(custom_id)
                if press is None or answer.pressed is None:
                    await answer.private(render.esc(t("error-bad-action")))
                    return
                async with self._serial(channel, answer):
                    await self._press(answer, channel, press, t, shown=shown)
            except Exception:
                log.exception("press %r in %s failed", custom_id[:100], channel)
                await answer.fail()

    async def _press(
        self,
        answer: Answer,
        channel: ChannelKey,
        press: payload.Press,
        t: Translator,
        *,
        shown: bool,
    ) -> None:
        assert answer.pressed is not None
        player = player_of(answer.interaction.user)
        action = press.action
        if action is None:  # the score sheet, for the presser's eyes only
            view = await self.service.view(channel, player.id)
            if view is None or view.game_id != press.game_id:
                await answer.private(render.esc(t("error-game-over")))
                return
            for page in render.sheet(t, view):
                await answer.private(page)
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
        await self._publish(answer, outcome, ref)

    async def _after_refusal(
        self, answer: Answer, channel: ChannelKey, press: payload.Press, error: GameError
    ) -> None:
        """A stale press redraws the live board it was made on; a board of a game that is over
        loses its buttons. Only what the pressed message itself shows is trusted."""
        pressed = answer.pressed
        assert pressed is not None
        on_message = _press_on(answer.interaction.message)
        if error.code is ErrorCode.STALE:
            game = await self.service.game(channel)
            if game is None or on_message is None or on_message.game_id != game.id:
                return
            ref = BoardRef.loads(await self.boards.board(game.id))
            if ref is None or ref == pressed:
                await self._redraw_board(answer, game.id, pressed, self._board(make_view(game)))
                if ref is None:
                    await self.boards.set_board(game.id, pressed.dumps())
            elif on_message.version != game.version:
                await self._strip(answer, pressed)  # a left-over board of an earlier turn
        elif (
            error.code is ErrorCode.GAME_OVER
            and on_message is not None
            and on_message.game_id == press.game_id
        ):
            await self._strip(answer, pressed)

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
        async with self._lock(channel):
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

        async def say(rendered: Rendered) -> int:
            if answer is not None:
                return await answer.public(rendered)
            return (await self.send(channel_id, rendered)).id

        if steps.redraw is not None and ref is not None:
            rendered = self._redraw(steps.redraw, view, events)
            await self._redraw_board(answer, view.game_id, ref, rendered)
        if steps.final:
            for page in render.final(self.t, view):
                await say(Rendered(page))
        if steps.new_board:
            board = self._board(view, notify=True)
            lines = narrate(self.t, view, steps.preface)
            preface = render.pages(render.esc(line) for line in lines)
            content = board.content or ""
            if preface and len(preface[-1]) + 2 + len(content) <= render.MESSAGE_LIMIT:
                board = Rendered(f"{preface.pop()}\n\n{content}", board.view, board.ping)
            for page in preface:  # the lot of a big table does not fit beside the board
                await say(Rendered(page))
            ref = BoardRef(channel_id, await say(board))
            await self.boards.set_board(view.game_id, ref.dumps())

    async def _redraw_board(
        self, answer: Answer | None, game_id: str, ref: BoardRef, rendered: Rendered
    ) -> None:
        if answer is not None and ref == answer.pressed and await answer.update(rendered):
            return
        await self._draw(game_id, ref, rendered)

    async def _repost_board(self, answer: Answer, channel: ChannelKey) -> None:
        """Show the live board again at the bottom of the channel; the old one loses its
        buttons."""
        game: Game | None = await self.service.game(channel)
        if game is None:
            return
        old = BoardRef.loads(await self.boards.board(game.id))
        message = await self.send(answer.channel_id, self._board(make_view(game)))
        await self.boards.set_board(game.id, BoardRef(answer.channel_id, message.id).dumps())
        if old is not None:
            await self._edit_quietly(old, Rendered(None))

    async def _strip(self, answer: Answer, ref: BoardRef) -> None:
        if ref == answer.pressed and await answer.update(Rendered(None)):
            return
        await self._edit_quietly(ref, Rendered(None))

    # ------------------------------------------------------------------ Discord calls

    def _messageable(self, channel_id: int) -> discord.PartialMessageable:
        assert self.client is not None
        return self.client.get_partial_messageable(channel_id)

    async def send(self, channel_id: int, rendered: Rendered) -> discord.Message:
        return await self._messageable(channel_id).send(**rendered.send_kwargs())

    async def _draw(self, game_id: str, ref: BoardRef, rendered: Rendered) -> None:
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
            await self.boards.set_board(game_id, BoardRef(ref.channel, sent.id).dumps())

    async def _edit_quietly(self, ref: BoardRef, rendered: Rendered) -> None:
        """An edit that may find its message gone or out of reach."""
        message = self._messageable(ref.channel).get_partial_message(ref.message)
        try:
            await message.edit(**rendered.edit_kwargs())
        except (discord.NotFound, discord.Forbidden) as error:
            log.info("could not edit board %s: %s", ref, error)
