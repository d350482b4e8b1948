"""Telegram updates → game actions → boards: one message per turn, edited in place."""

from __future__ import annotations

import asyncio
import contextlib
import html
import json
import logging
import os
import time
from collections import OrderedDict
from contextvars import ContextVar
from dataclasses import dataclass
from functools import partial
from typing import Protocol

from telegram import BotCommand, CallbackQuery, Message, Update, User
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, Forbidden, TelegramError
from telegram.ext import AIORateLimiter, Application, CallbackQueryHandler, CommandHandler
from telegram.ext import ContextTypes as _ContextTypes

from adapters import payload
from adapters.i18n import Translator, available_locales, normalize_locale, translator
from adapters.pictures import sheet_png
from adapters.presenter import Redraw, plan
from adapters.ratelimit import RateLimiter, Verdict
from adapters.telegram import render
from adapters.telegram.http import AiohttpRequest
from adapters.telegram.render import Rendered
from adapters.text import (
    error_message,
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
from core.events import EndReason, Event
from core.game import Phase
from core.identity import ChannelKey, PlayerRef
from core.locks import ChannelLocks
from core.service import GameService, Outcome
from core.view import GameView, make_view

_LANGUAGE: ContextVar[Translator | None] = ContextVar("telegram_language", default=None)
SETTINGS_PREFIX = render.SETTINGS_PREFIX
SETTINGS_DONE = render.SETTINGS_DONE
# Opt in to python-telegram-bot's future timedelta values now, silencing its deprecation notice.
os.environ.setdefault("PTB_TIMEDELTA", "true")
log = logging.getLogger(__name__)
PLATFORM = "tg"
COMMAND = "general"
POLL_TIMEOUT = 30
Answer = tuple[str | None, bool]
REVIEWED = (EndReason.COMPLETED, EndReason.BIG_GENERAL)
RECORD_COMMANDS = ("leaderboard", "stats", "history")
MAX_ARGUMENT = 32
# HTTP connections to the Bot API at once: plenty for the edits and answers of hundreds of
# tables a second, few enough to stay cheap to keep open.
CONNECTIONS = 16
DRAWN_MEMORY = 4096
# More players than this and the text sheet takes more than two phone-wide blocks: a picture.
PICTURE_ABOVE = 8
RECENT_DAYS = 30
RECENT_WORDS = {"30", "30d", "month", "recent", "месяц"}
COMMAND_ACTIONS: dict[str, Action] = {
    "join": Join(),
    "leave": Leave(),
    "stop": Cancel(),
    "cancel": Cancel(),
}


class BoardStore(Protocol):
    async def board(self, game_id: str) -> str | None: ...

    async def set_board(self, game_id: str, ref: str) -> None: ...


@dataclass(frozen=True)
class Webhook:
    """Updates pushed by Telegram to `url` (a load balancer may share them among processes);
    this process listens on `listen`:`port` at `path`, and every request must carry `secret`."""

    url: str
    secret: str
    listen: str = "127.0.0.1"
    port: int = 8443
    path: str = ""


@dataclass(frozen=True)
class BoardRef:
    """Where a game's live board is: chat, message, and forum topic if any."""

    chat: int
    message: int
    thread: int | None = None

    def dumps(self) -> str:
        return json.dumps({"chat": self.chat, "message": self.message, "thread": self.thread})

    @classmethod
    def loads(cls, text: str | None) -> BoardRef | None:
        if not text:
            return None
        data = json.loads(text)
        return cls(int(data["chat"]), int(data["message"]), data.get("thread"))


def channel_of(message: Message) -> ChannelKey:
    """A forum topic is its own table; elsewhere the chat is."""
    thread = message.message_thread_id if message.is_topic_message else None
    return ChannelKey(PLATFORM, str(message.chat.id), str(thread) if thread else "")


def player_of(user: User) -> PlayerRef:
    return PlayerRef(str(user.id), user.full_name)


def _thread(channel: ChannelKey) -> int | None:
    return int(channel.thread) if channel.thread else None


class TelegramFrontEnd:
    def __init__(
        self,
        service: GameService,
        boards: BoardStore,
        token: str,
        *,
        base_url: str | None = None,
        locale: str = "en",
        poll_timeout: int = POLL_TIMEOUT,
        group_rate: float = 0,
        overall_rate: float = 0,
        pause: float = 1.0,
        limiter: RateLimiter | None = None,
        webhook: Webhook | None = None,
    ) -> None:
        self.service = service
        self.boards = boards
        self._default_t = translator(normalize_locale(locale))
        self.poll_timeout = poll_timeout
        self.webhook = webhook
        self.pause = pause
        builder = (
            Application.builder()
            .token(token)
            # No waiting of our own unless asked: a game is mostly edits and answers, which
            # Telegram lets through far faster than its broadcast guidance, and a 429 is
            # retried after the delay the server names.
            .rate_limiter(
                AIORateLimiter(
                    overall_max_rate=overall_rate, group_max_rate=group_rate, max_retries=3
                )
            )
            .concurrent_updates(True)
            # Many tables answer at once: PTB's default of one connection would queue them all.
            .request(AiohttpRequest(CONNECTIONS))
            .get_updates_request(AiohttpRequest(1))
        )
        if base_url:
            builder = builder.base_url(base_url).base_file_url(_file_url(base_url))
        self.app = builder.build()
        self.app.add_handler(CommandHandler(COMMAND, self._on_command))
        self.app.add_handler(CallbackQueryHandler(self._on_press))
        self.app.add_error_handler(self._on_error)
        self._locks = ChannelLocks()  # one table's answers in order: one action's edits first
        self._troubles: set[tuple[str, str]] = set()
        self._drawn: OrderedDict[tuple[int, int], int] = OrderedDict()
        self.limiter = limiter or RateLimiter()

    @property
    def t(self) -> Translator:
        """The language of the update being handled (the chat's, else the person's)."""
        return _LANGUAGE.get() or self._default_t

    async def _settings_for(self, channel: ChannelKey, user: User | None) -> ChatSettings:
        """Load the chat's settings and take up its language for the rest of this update."""
        settings = await self.service.repository.chat_settings(PLATFORM, channel.chat)
        code = settings.language or (user.language_code if user else None)
        _LANGUAGE.set(translator(normalize_locale(code)) if code else self._default_t)
        return settings

    async def start(self) -> None:
        await self.app.initialize()
        await self._register_commands()
        await self.app.start()
        assert self.app.updater is not None
        allowed = [Update.MESSAGE, Update.CALLBACK_QUERY]
        if self.webhook is None:
            await self.app.updater.start_polling(
                poll_interval=0, timeout=self.poll_timeout, allowed_updates=allowed
            )
            log.info("telegram front end polling as @%s", self.app.bot.username)
        else:
            hook = self.webhook
            await self.app.updater.start_webhook(
                listen=hook.listen,
                port=hook.port,
                url_path=hook.path,
                webhook_url=hook.url,
                secret_token=hook.secret,
                allowed_updates=allowed,
            )
            log.info("telegram front end on a webhook (listening on %s:%d)", hook.listen, hook.port)
        self.service.on_deadline(PLATFORM, self._on_deadline)
        await self.service.resume_deadlines(PLATFORM)
        for game in await self.service.repository.active_games(PLATFORM):
            await self._wake_computers(game.channel)  # a computer's turn cut short by a restart

    async def stop(self) -> None:
        if self.app.updater and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()
        await self.app.shutdown()

    async def _register_commands(self) -> None:
        for locale in available_locales():
            command = BotCommand(COMMAND, translator(locale)("chat-command-menu"))
            await self.app.bot.set_my_commands([command], language_code=locale)
        default = BotCommand(COMMAND, self._default_t("chat-command-menu"))
        await self.app.bot.set_my_commands([default])

    # ------------------------------------------------------------------ commands

    async def _on_command(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        channel = channel_of(message)
        words = list(context.args or [])
        arg = (words[0].lower() if words else "").strip()[:MAX_ARGUMENT]
        try:
            settings = await self._settings_for(channel, user)
            verdict = self.limiter.check(f"{user.id}")
            if verdict is not Verdict.ALLOW:
                if verdict is Verdict.WARN:
                    await self._reply(message, Rendered(_escape(self.t("error-slow-down"))))
                return
            async with self._locks[channel]:
                await self._command(message, channel, player_of(user), arg, settings, words[1:])
            await self._wake_computers(channel)
        except TelegramError as error:
            self._trouble(channel, error)
        except Exception:
            log.exception("command %r in %s failed", arg, channel)
            with contextlib.suppress(TelegramError):
                await self._reply(message, Rendered(self.t("error-unexpected")))

    async def _command(
        self,
        message: Message,
        channel: ChannelKey,
        player: PlayerRef,
        arg: str,
        settings: ChatSettings,
        rest: list[str],
    ) -> None:
        t = self.t
        if arg == "settings":
            if await self._may_configure(message.chat.id, int(player.id), message.chat.type):
                await self._reply(message, render.settings(t, settings))
            else:
                await self._reply(message, Rendered(_escape(t("settings-admins-only"))))
        elif arg in RECORD_COMMANDS:
            await self._reply(message, Rendered(await self._records(arg, channel, player, rest)))
        elif arg in ("", "help"):
            await self._reply(message, Rendered(render.help_text(self.t)))
        elif arg == "rules":
            await self._reply(message, Rendered(render.help_text(self.t, "rules")))
        elif arg == "sheet":
            view = await self.service.view(channel, player.id)
            if view is None:
                await self._reply(message, Rendered(self.t("chat-sheet-none")))
            else:
                text = [w.lower() for w in rest] == ["text"]
                await self._send_sheet(channel, view, text=text)
        elif arg == "kick":
            await self._kick(message, channel, player, " ".join(rest))
        elif arg == "hint":
            try:
                options = await self.service.hint(channel, player)
            except GameError as error:
                await self._reply(message, Rendered(_escape(error_message(t, error))))
                return
            view = await self.service.view(channel, player.id)
            dice = tuple(d.value for d in view.dice) if view else ()
            await self._reply(message, Rendered(_escape("\n".join(hint_lines(t, options, dice)))))
        elif arg == "review":
            await self._reply(message, Rendered(await self._review_text(channel)))
        elif arg == "start" or arg in COMMAND_ACTIONS:
            action = Open(settings.variants()) if arg == "start" else COMMAND_ACTIONS[arg]
            try:
                outcome = await self.service.act(channel, player, action)
            except GameError as error:
                await self._reply(message, Rendered(_escape(error_message(t, error))))
                if error.code is ErrorCode.GAME_EXISTS:
                    await self._repost_board(channel)
                return
            if isinstance(action, Join | Leave):
                lines = narrate(self.t, outcome.view, outcome.events)
                await self._reply(message, Rendered(_escape("\n".join(lines))))
            await self._publish(channel, outcome)
        else:
            unknown = self.t("chat-unknown", arg=arg)
            await self._reply(message, Rendered(_escape(unknown) + "\n" + render.help_text(self.t)))

    # ------------------------------------------------------------------ buttons

    async def _on_press(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        message = query.message if isinstance(query.message, Message) else None
        if message is None:
            await self._answer(query, self.t("error-bad-action"))
            return
        channel = channel_of(message)
        answer: Answer = (self.t("error-unexpected"), False)
        try:
            settings = await self._settings_for(channel, query.from_user)
            answer = (self.t("error-unexpected"), False)
            setting = _setting_pressed(query.data)
            press = payload.decode(query.data)
            verdict = self.limiter.check(f"{query.from_user.id}")
            if verdict is not Verdict.ALLOW:
                answer = (self.t("error-slow-down"), False)
            elif setting is not None:
                answer = await self._configure(query, message, channel, settings, setting)
            elif press is None:
                answer = (self.t("error-bad-action"), False)
            else:
                async with self._locks[channel]:
                    answer = await self._press(query, message, channel, press, self.t)
                await self._wake_computers(channel)
        except TelegramError as error:
            # Whatever was pressed is saved; only showing it failed, and the next press redraws.
            answer = (None, False)
            self._trouble(channel, error)
        except Exception:
            log.exception("press %r in %s failed", query.data, channel)
        finally:
            # Answered once the chat shows the result, so the spinner ends with the new board.
            await self._answer(query, *answer)

    async def _configure(
        self,
        query: CallbackQuery,
        message: Message,
        channel: ChannelKey,
        settings: ChatSettings,
        setting: str,
    ) -> Answer:
        """A press on the settings screen: administrators only; each press cycles one choice."""
        if not await self._may_configure(message.chat.id, query.from_user.id, message.chat.type):
            return self.t("settings-admins-only"), False
        ref = BoardRef(message.chat.id, message.message_id, _thread(channel))
        if setting == SETTINGS_DONE:
            await self._edit(ref, Rendered(_escape(self.t("settings-closed"))))
            return None, False
        settings = cycled(settings, setting)
        await self.service.repository.save_chat_settings(PLATFORM, channel.chat, settings)
        await self._settings_for(channel, query.from_user)  # a new language shows at once
        await self._edit(ref, render.settings(self.t, settings))
        return None, False

    async def _may_configure(self, chat_id: int, user_id: int, chat_type: str) -> bool:
        """Chat administrators (anyone in a private chat) may change the chat's settings."""
        if chat_type == ChatType.PRIVATE:
            return True
        member = await self.app.bot.get_chat_member(chat_id, user_id)
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)

    async def _press(
        self,
        query: CallbackQuery,
        message: Message,
        channel: ChannelKey,
        press: payload.Press,
        t: Translator,
    ) -> Answer:
        """Carry out a press; returns the private answer for the presser and whether it alerts."""
        player = player_of(query.from_user)
        action = press.action
        if press.computer is not None:
            action = AddComputer(press.computer, self.t(f"computer-{press.computer.value}"))
        elif press.code == payload.HINT:
            try:
                options = await self.service.hint(channel, player)
            except GameError as error:
                return error_message(t, error), False
            view = await self.service.view(channel, player.id)
            dice = tuple(d.value for d in view.dice) if view else ()
            return render.alert("\n".join(hint_lines(t, options, dice, count=3))), True
        elif action is None:  # the score-sheet button
            view = await self.service.view(channel, player.id)
            if view is not None and view.game_id == press.game_id:
                await self._send_sheet(channel, view)
            return None, False
        try:
            outcome = await self.service.act(
                channel, player, action, game_id=press.game_id, version=press.version
            )
        except GameError as error:
            if error.code in (ErrorCode.STALE, ErrorCode.GAME_OVER, ErrorCode.NO_GAME):
                await self._show_current(channel, message)
            return error_message(t, error), False
        await self._publish(channel, outcome)
        return None, False

    async def _show_current(self, channel: ChannelKey, message: Message) -> None:
        """After a stale press, the pressed message shows the game as it is now."""
        game = await self.service.game(channel)
        ref = BoardRef(message.chat.id, message.message_id, _thread(channel))
        if game is None:
            await self._edit(ref, Rendered(message.text_html or self.t("game-over")))
            return
        if self._drawn.get((ref.chat, ref.message)) == game.version:
            return  # already shows this version: one edit, however many taps
        view = make_view(game)
        await self._edit(ref, self._board(view))
        self._remember(ref, game.version)
        await self.boards.set_board(game.id, ref.dumps())

    def _remember(self, ref: BoardRef, version: int) -> None:
        """Which version of its game a board message shows now (the latest few thousand)."""
        self._drawn[(ref.chat, ref.message)] = version
        self._drawn.move_to_end((ref.chat, ref.message))
        while len(self._drawn) > DRAWN_MEMORY:
            self._drawn.popitem(last=False)

    # ------------------------------------------------------------------ drawing

    def _board(self, view: GameView, *, notify: bool = False) -> Rendered:
        if view.phase is Phase.PLAYING:
            return render.turn(self.t, view, notify=notify)
        return render.lobby(self.t, view)

    async def _publish(self, channel: ChannelKey, outcome: Outcome) -> None:
        """Bring the chat up to date with an applied action."""
        view, events = outcome.view, outcome.events
        steps = plan(view, events)
        if steps.redraw is not None:
            ref = BoardRef.loads(await self.boards.board(view.game_id))
            await self._edit(ref, self._redraw(steps.redraw, view, events), view.game_id)
            if ref is not None:
                self._remember(ref, view.version)
        if steps.final:
            review = await self._review(view) if view.round else []
            if view.round and await self._pictures(channel, view):
                ending = render.final(self.t, view, None, with_sheet=False)
                await self._send_picture(channel, view, "\n".join(ending))
                if review:
                    await self._send(channel, Rendered(_escape("\n".join(review))))
            else:
                for page in render.final(self.t, view, review):
                    await self._send(channel, Rendered(page))
        if steps.new_board:
            await self._new_board(channel, view, narrate(self.t, view, steps.preface))
        for notice in steps.notice:
            await self._send(channel, Rendered(self._notice(view, notice)))

    async def _pictures(self, channel: ChannelKey, view: GameView) -> bool:
        """Pictures where the chat chose them, or where a text sheet would not fit a phone."""
        settings = await self.service.repository.chat_settings(PLATFORM, channel.chat)
        return settings.sheet is SheetStyle.PICTURE or len(view.players) > PICTURE_ABOVE

    async def _send_sheet(self, channel: ChannelKey, view: GameView, text: bool = False) -> None:
        if not text and await self._pictures(channel, view):
            await self._send_picture(channel, view, f"<b>{_escape(self.t('sheet-title'))}</b>")
            return
        for page in render.sheet(self.t, view):
            await self._send(channel, Rendered(page))

    async def _send_picture(self, channel: ChannelKey, view: GameView, caption: str) -> None:
        picture = await asyncio.to_thread(sheet_png, self.t, view)
        await self.app.bot.send_photo(
            chat_id=int(channel.chat),
            photo=picture,
            caption=caption[: render.CAPTION_LIMIT] or None,
            parse_mode=ParseMode.HTML,
            message_thread_id=_thread(channel),
        )

    def _notice(self, view: GameView, event: Event) -> str:
        """A line that mentions its player, so that their phone tells them."""
        text = narrate(self.t, view, [event])[0]
        player = view.player(getattr(event, "player_id", ""))
        if player is None or player.is_computer:
            return _escape(text)
        return _escape(text).replace(_escape(player.name), render.mention(player), 1)

    async def _review(self, view: GameView) -> list[str]:
        """How each person played the game of `view` (lines; none for a game without decisions)."""
        if view.end_reason not in REVIEWED:
            return []
        reviews = await self.service.review(view.game_id)
        return review_lines(self.t, view, reviews, view.variants)

    async def _review_text(self, channel: ChannelKey) -> str:
        game = await self.service.repository.last_finished(channel)
        lines = await self._review(make_view(game)) if game is not None else []
        return _escape("\n".join(lines or [self.t("review-none")]))

    async def _kick(
        self, message: Message, channel: ChannelKey, host: PlayerRef, name: str
    ) -> None:
        """The host removes a player named by their name (or @username) at the table."""
        game = await self.service.game(channel)
        wanted = name.strip().lstrip("@").casefold()
        target = next(
            (s.player for s in game.seats if s.active and s.player.name.casefold() == wanted),
            None,
        ) if game and wanted else None  # fmt: skip
        if target is None:
            await self._reply(message, Rendered(_escape(self.t("error-cannot-kick"))))
            return
        try:
            outcome = await self.service.act(channel, host, Kick(target.id))
        except GameError as error:
            await self._reply(message, Rendered(_escape(error_message(self.t, error))))
            return
        await self._reply(
            message, Rendered(_escape(self.t("event-removed-kicked", name=target.name)))
        )
        await self._publish(channel, outcome)

    async def _records(
        self, arg: str, channel: ChannelKey, player: PlayerRef, rest: list[str]
    ) -> str:
        """Leaderboard, statistics or history, as a monospace block."""
        records = self.service.repository
        if arg == "history":
            lines = history_lines(self.t, await records.history(channel))
        elif arg == "stats":
            name = " ".join(rest).strip()
            player_id = await records.find_player(PLATFORM, channel, name) if name else player.id
            stats = await records.player_stats(PLATFORM, player_id, None) if player_id else None
            if stats is not None:
                lines = stats_lines(self.t, stats)
            elif player_id is None:
                lines = [self.t("stats-unknown", name=name)]
            else:
                lines = [self.t("stats-none", name=name or player.name)]
        else:
            words = {word.lower() for word in rest}
            global_ = "global" in words
            days = RECENT_DAYS if words & RECENT_WORDS else None
            since = time.time() - days * 86400 if days else None
            standings = await records.leaderboard(PLATFORM, None if global_ else channel, since)
            lines = leaderboard_lines(self.t, standings, global_, days)
        title, *body = lines
        block = f"\n<pre>{_escape(chr(10).join(body))}</pre>" if body else ""
        return f"<b>{_escape(title)}</b>{block}"

    async def _wake_computers(self, channel: ChannelKey) -> None:
        settings = await self.service.repository.chat_settings(PLATFORM, channel.chat)
        pause = self.pause if settings.computer_pause is None else settings.computer_pause
        self.service.wake_computers(channel, partial(self._publish_in_turn, channel), pause)

    async def _on_deadline(self, channel: ChannelKey, outcome: Outcome) -> None:
        """The bot acted by itself (a reminder, an expired turn, a closed table): show it."""
        try:
            await self._publish_in_turn(channel, outcome)
        except TelegramError as error:
            self._trouble(channel, error)
        await self._wake_computers(channel)

    def _trouble(self, channel: ChannelKey, error: TelegramError) -> None:
        """Telegram refused or failed: the game is saved as it is; say so in the log, once."""
        key = (channel.chat, type(error).__name__)
        if key in self._troubles:
            log.debug("telegram again in %s: %s", channel, error)
            return
        self._troubles.add(key)
        if isinstance(error, Forbidden):
            log.warning(
                "cannot write in chat %s (removed, or no right to send): %s; "
                "its game is kept for when the bot is back",
                channel.chat,
                error,
            )
        else:
            log.warning("telegram failed in %s: %s; the game is saved and goes on", channel, error)

    async def _publish_in_turn(self, channel: ChannelKey, outcome: Outcome) -> None:
        await self._settings_for(channel, None)
        async with self._locks[channel]:
            await self._publish(channel, outcome)

    def _redraw(self, how: Redraw, view: GameView, events: tuple[Event, ...]) -> Rendered:
        match how:
            case Redraw.LOBBY:
                return render.lobby(self.t, view)
            case Redraw.TURN:
                return render.turn(self.t, view)
            case Redraw.FINISHED_TURN:
                return render.finished_turn(self.t, view)
        return Rendered(_escape("\n".join(narrate(self.t, view, events))))

    async def _new_board(
        self, channel: ChannelKey, view: GameView, preface: list[str] | None = None
    ) -> None:
        board = self._board(view, notify=True)
        text = board.text
        if preface:
            text = _escape("\n".join(preface)) + "\n\n" + text
        sent = await self._send(channel, Rendered(text, board.markup))
        ref = BoardRef(sent.chat.id, sent.message_id, _thread(channel))
        self._remember(ref, view.version)
        await self.boards.set_board(view.game_id, ref.dumps())

    async def _repost_board(self, channel: ChannelKey) -> None:
        """Show the live board again at the bottom of the chat; the old one loses its buttons."""
        game = await self.service.game(channel)
        if game is None:
            return
        view = make_view(game)
        old = BoardRef.loads(await self.boards.board(game.id))
        await self._new_board(channel, view)
        if old is not None:
            await self._strip(old)

    # ------------------------------------------------------------------ Telegram calls

    async def _send(self, channel: ChannelKey, rendered: Rendered) -> Message:
        return await self.app.bot.send_message(
            chat_id=int(channel.chat),
            text=rendered.text,
            parse_mode=ParseMode.HTML,
            reply_markup=rendered.markup,
            message_thread_id=_thread(channel),
            disable_web_page_preview=True,
        )

    async def _reply(self, message: Message, rendered: Rendered) -> None:
        await message.reply_text(
            rendered.text, parse_mode=ParseMode.HTML, reply_markup=rendered.markup
        )

    async def _edit(
        self, ref: BoardRef | None, rendered: Rendered, game_id: str | None = None
    ) -> None:
        """Edit a board; an unchanged board is fine, a deleted one with buttons is sent anew."""
        if ref is None:
            return
        try:
            await self.app.bot.edit_message_text(
                rendered.text,
                chat_id=ref.chat,
                message_id=ref.message,
                parse_mode=ParseMode.HTML,
                reply_markup=rendered.markup,
                disable_web_page_preview=True,
            )
        except BadRequest as error:
            text = str(error).lower()
            if "not modified" in text:
                return
            if "not found" in text and rendered.markup is not None:
                log.info("board %s was deleted; sending it again", ref)
                channel = ChannelKey(PLATFORM, str(ref.chat), str(ref.thread or ""))
                sent = await self._send(channel, rendered)
                if game_id is not None:
                    new_ref = BoardRef(sent.chat.id, sent.message_id, ref.thread)
                    await self.boards.set_board(game_id, new_ref.dumps())
                return
            raise

    async def _strip(self, ref: BoardRef) -> None:
        # Already without buttons, or gone: either way nothing is left to press.
        with contextlib.suppress(BadRequest):
            await self.app.bot.edit_message_reply_markup(chat_id=ref.chat, message_id=ref.message)

    async def _answer(
        self, query: CallbackQuery, text: str | None = None, alert: bool = False
    ) -> None:
        try:
            await query.answer(text, show_alert=alert)
        except BadRequest as error:
            log.info("callback answer refused: %s", error)

    async def _on_error(self, update: object, context: _ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(context.error, TelegramError):
            log.warning("telegram: %s", context.error)
        else:
            log.error("unhandled error for %r", update, exc_info=context.error)


def _escape(text: str) -> str:
    return html.escape(text, quote=False)


def _setting_pressed(data: str | None) -> str | None:
    """The setting a settings-screen button names, or None when it is no such button."""
    if not data or not data.startswith(SETTINGS_PREFIX):
        return None
    name = data[len(SETTINGS_PREFIX) :]
    return name if name in CHOICES or name == SETTINGS_DONE else None


def _file_url(base_url: str) -> str:
    """Bot API servers serve files beside the methods: …/bot → …/file/bot."""
    head, _, tail = base_url.rstrip("/").rpartition("/")
    return f"{head}/file/{tail}" if head else base_url
