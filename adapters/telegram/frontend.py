"""The Telegram front end: python-telegram-bot receives the updates (long polling or a webhook),
each becomes a call of the chat layer, and the answers are drawn as Telegram messages."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from telegram import (
    BotCommand,
    BotCommandScopeAllGroupChats,
    BotCommandScopeAllPrivateChats,
    Message,
    Update,
)
from telegram.constants import ChatType
from telegram.error import TelegramError
from telegram.ext import (
    AIORateLimiter,
    Application,
    CallbackQueryHandler,
    CommandHandler,
    MessageHandler,
    TypeHandler,
    filters,
)
from telegram.ext import ContextTypes as _ContextTypes

from adapters.chat import cards, metrics
from adapters.chat.catalogue import COMMAND
from adapters.chat.commands import command, welcome
from adapters.chat.envelope import envelope
from adapters.chat.pacing import Limits, Pace
from adapters.chat.presses import press
from adapters.chat.tables import Tables
from adapters.chat.voices import Voices
from adapters.i18n import Translator, available_locales, translator
from adapters.ratelimit import RateLimiter
from adapters.telegram.calls import PLATFORM, TelegramCalls
from adapters.telegram.exchange import CommandExchange, PressExchange
from adapters.telegram.http import AiohttpRequest
from adapters.telegram.memory import ForgetfulApplication
from adapters.telegram.people import Usernames, kicked, on_behalf_of_a_chat
from adapters.telegram.words import asked as typed
from core.chat_settings import ChatSettings
from core.identity import ChannelKey
from core.service import GameService

if TYPE_CHECKING:  # aiohttp's server (aiohttp.web) is imported only in webhook mode
    from aiohttp import web

    from adapters.chat.weblinks import WebLinks
    from adapters.telegram.webhook import WebhookListener

# Opt in to python-telegram-bot's future timedelta values now, silencing its deprecation notice.
os.environ.setdefault("PTB_TIMEDELTA", "true")
log = logging.getLogger(__name__)
POLL_TIMEOUT = 30
# HTTP connections to the Bot API at once: plenty for the edits and answers of hundreds of
# tables a second, few enough to stay cheap to keep open.
CONNECTIONS = 16
UPDATES = 4096  # updates handled at once
FIRST_CONTACT = ("start", "help")  # what a person new to the bot types (or Telegram sends)


@dataclass(frozen=True)
class Webhook:
    """Updates pushed by Telegram to `url` (a load balancer may share them among processes);
    this process listens on `listen`:`port` at `path`, and every request must carry `secret`;
    `routes` are served there too (/healthz and /metrics sharing the port)."""

    url: str
    secret: str
    listen: str = "127.0.0.1"
    port: int = 8443
    path: str = ""
    routes: Sequence[web.AbstractRouteDef] = ()


class TelegramFrontEnd:
    def __init__(
        self,
        service: GameService,
        token: str,
        *,
        base_url: str | None = None,
        locale: str = "en",
        poll_timeout: int = POLL_TIMEOUT,
        pace: Limits | None = None,
        group_rate: float = 0,
        overall_rate: float = 0,
        pause: float = 1.0,
        limiter: RateLimiter | None = None,
        webhook: Webhook | None = None,
        links: WebLinks | None = None,
        mini_app: str | None = None,
    ) -> None:
        self.service = service
        self.links = links  # the live table's; the Mini App's link once the bot's name is known
        self.mini_app = mini_app
        self.poll_timeout = poll_timeout
        self.webhook = webhook
        self.listener: WebhookListener | None = None
        self.usernames = Usernames()
        self.link = metrics.Link("telegram", "polling" if webhook is None else "webhook")
        self._migrating = asyncio.Lock()  # Telegram tells both chats of one upgrade
        builder = (
            Application.builder()
            .token(token)
            # The pace (adapters.chat.pacing) keeps the bot inside Telegram's limits; PTB's own
            # throttles stay off unless asked, and a 429 (a storm) is retried after the delay
            # the server names.
            .rate_limiter(
                AIORateLimiter(
                    overall_max_rate=overall_rate, group_max_rate=group_rate, max_retries=3
                )
            )
            # A press's update is open until its chat's boards are drawn, which the pace may
            # hold for seconds when many tables are busy: PTB's default of 256 would then
            # keep the next presses waiting for their answer.
            .concurrent_updates(UPDATES)
            # Many tables answer at once: PTB's default of one connection would queue them all.
            .request(AiohttpRequest(CONNECTIONS, observe=self._answered))
            .get_updates_request(AiohttpRequest(1, observe=self._polled, sent=self.link.up))
            .application_class(ForgetfulApplication)  # no persistence: see its module
        )
        if base_url:
            builder = builder.base_url(base_url).base_file_url(_file_url(base_url))
        self.app = builder.build()
        self.app.add_handler(TypeHandler(Update, self._on_update), group=-1)  # before the rest
        self.app.add_handler(CommandHandler(COMMAND, self._on_command))
        self.app.add_handler(CommandHandler(FIRST_CONTACT, self._on_welcome))
        self.app.add_handler(CallbackQueryHandler(self._on_press))
        self.app.add_handler(MessageHandler(filters.StatusUpdate.MIGRATE, self._on_migrate))
        self.app.add_error_handler(self._on_error)
        self.calls = TelegramCalls(self.app.bot, Pace(pace))
        self.tables = Tables(
            service, self.calls, log, locale=locale, pause=pause, limiter=limiter, links=links
        )
        self.calls.open_tables(links)

    async def start(self) -> None:
        await self.app.initialize()
        self._name_the_mini_app()
        await self._register_commands()
        await self.app.start()
        assert self.app.updater is not None
        allowed = [Update.MESSAGE, Update.CALLBACK_QUERY]
        if self.webhook is None:
            await self.app.updater.start_polling(
                poll_interval=0,
                timeout=self.poll_timeout,
                allowed_updates=allowed,
                error_callback=self._poll_failed,
            )
            log.info("telegram front end polling as @%s", self.app.bot.username)
        else:  # our listener, not PTB's: it compares the secret in constant time
            from adapters.telegram.webhook import WebhookListener

            hook = self.webhook
            bot = self.app.bot
            queue = self.app.update_queue
            self.listener = WebhookListener(bot, queue, hook.secret, hook.path, hook.routes)
            await self.listener.start(hook.listen, hook.port)
            await bot.set_webhook(hook.url, allowed_updates=allowed, secret_token=hook.secret)
            self.link.up()  # Telegram pushes; nothing tells the bot it stopped but silence
            log.info("telegram front end on a webhook (listening on %s:%d)", hook.listen, hook.port)
        await self.tables.resume()

    def _name_the_mini_app(self) -> None:
        """The Mini App's direct link names the bot (`https://t.me/<bot>/<app>`): known from
        getMe, at start-up; the boards link to it from then on."""
        if self.links is None or self.mini_app is None:
            return
        prefix = f"https://t.me/{self.app.bot.username}/{self.mini_app}"
        self.tables.links = links = replace(self.links, mini_app=prefix)
        self.calls.open_tables(links)

    async def stop(self) -> None:
        """A clean stop: no update is taken any more (the rest wait at Telegram for the next
        start), every update taken is handled and answered, the boards still owed an edit get
        it, and then the connections close."""
        self.link.close()
        if self.listener is not None:
            await self.listener.stop()
        if self.app.updater and self.app.updater.running:
            await self.app.updater.stop()
        if self.app.running:
            await self.app.stop()  # waits for the updates taken and their handlers
        await self.tables.flush()
        await self.app.shutdown()
        # PTB's shutdown() does nothing unless initialize() succeeded, yet a rejected getMe
        # leaves the bot's HTTP sessions open; closing them twice is harmless.
        await self.app.bot.shutdown()

    async def _register_commands(self) -> None:
        """The command menus, for private chats and for groups, in every language of the
        catalogues (the bot's own for clients in any other); the bot's descriptions likewise."""
        bot = self.app.bot
        for code, t in [(None, self.tables.languages.default), *_languages()]:
            for scope, about in (
                (BotCommandScopeAllPrivateChats(), "menu-general-private"),
                (BotCommandScopeAllGroupChats(), "menu-general-group"),
            ):
                menu = [BotCommand(COMMAND, t(about)), BotCommand("help", t("menu-help"))]
                await bot.set_my_commands(menu, scope=scope, language_code=code)
            await bot.set_my_description(t("bot-description"), language_code=code)
            await bot.set_my_short_description(t("bot-short-description"), language_code=code)

    def _answered(self, status: int | None) -> None:
        metrics.answered("telegram", status)

    def _polled(self, status: int | None) -> None:
        """getUpdates answered. Polling is connected from a poll reaching Telegram (it waits
        there for updates) until one gets another answer than 200, or none; the loop tries
        again, and its next poll that reaches Telegram connects again."""
        metrics.answered("telegram", status)
        if status == 200:
            self.link.up()
        else:
            said = "got no answer" if status is None else f"answered {status}"
            self.link.lost(f"getUpdates {said}")

    def _poll_failed(self, error: TelegramError) -> None:
        """Getting updates failed (PTB tries again, waiting longer each time, up to 30 s)."""
        log.warning("telegram: getting updates failed: %s; trying again", error)

    async def _on_update(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        self.link.received()

    async def _on_welcome(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        """/start and /help: a first contact (/start notify: the private chat opened from
        /general notify's button)."""
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        exchange = CommandExchange(self.calls, message, user)
        private = message.chat.type == ChatType.PRIVATE
        invite = f"https://t.me/{self.app.bot.username}?startgroup=general" if private else None
        notices = private and list(context.args or ()) == ["notify"]
        await welcome(self.tables, exchange, brief=not private, invite=invite, notices=notices)

    async def _on_command(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        message, user = update.effective_message, update.effective_user
        if message is None or user is None:
            return
        exchange = CommandExchange(self.calls, message, user)
        if on_behalf_of_a_chat(message, user):
            await self._as_yourself(exchange)
            return
        self.usernames.saw(user)
        asked = typed(list(context.args or []))
        if asked.name == "kick":
            asked = replace(asked, target=kicked(message, asked.target, self.usernames))
        await command(self.tables, exchange, asked)

    async def _as_yourself(self, exchange: CommandExchange) -> None:
        """A command sent as a chat or a channel does nothing: all who write so share one
        account, so acting on it would take one of them for another. It says how to play."""

        async def work(voices: Voices, settings: ChatSettings) -> None:
            own = voices.own
            await exchange.private(cards.Lines((own("identity-as-yourself"),)), own)

        doing = "a command as a chat"
        await envelope(self.tables, exchange.channel, work, doing=doing, exchange=exchange)

    async def _on_migrate(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        """A group became a supergroup, with a new id: its game, settings, boards and records
        move there, and the table plays on with its board posted anew (the group's messages
        are out of reach). Telegram says so in both chats; the first to arrive moves it."""
        message = update.effective_message
        if message is None:
            return
        if message.migrate_to_chat_id is not None:
            old, new = message.chat.id, message.migrate_to_chat_id
        elif message.migrate_from_chat_id is not None:
            old, new = message.migrate_from_chat_id, message.chat.id
        else:
            return
        was, now = ChannelKey(PLATFORM, str(old)), ChannelKey(PLATFORM, str(new))
        async with self._migrating:
            playing = await self.service.game(was) is not None
            await self.service.move_chat(PLATFORM, str(old), str(new))  # the clock follows
            self.tables.repair.found_live(was)
            log.info("telegram chat %s became %s; its tables moved", old, new)
            if playing:
                _, voices = await self.tables.languages.of(now)
                await self.tables.repair.repost_board(now, voices.table)
                await self.tables.clock.wake_computers(now)

    async def _on_press(self, update: Update, context: _ContextTypes.DEFAULT_TYPE) -> None:
        query = update.callback_query
        if query is None:
            return
        message = query.message if isinstance(query.message, Message) else None
        if message is None:  # too old for Telegram to say where it was
            await query.answer(self.tables.languages.default("error-bad-action"))
            return
        self.usernames.saw(query.from_user)
        exchange = PressExchange(self.calls, query, message)
        try:
            await press(self.tables, exchange, query.data)
        finally:
            await exchange.finish()  # answered at once; the board's edit may wait its turn
        await self.tables.redraws.settled(str(message.chat.id))

    async def _on_error(self, update: object, context: _ContextTypes.DEFAULT_TYPE) -> None:
        if isinstance(context.error, self.calls.errors):
            log.warning("telegram: %s", context.error)
        else:
            log.error("unhandled error for %r", update, exc_info=context.error)


def _languages() -> list[tuple[str, Translator]]:
    """Each language of the catalogues, by the code Telegram's clients report."""
    return [(code, translator(code)) for code in available_locales()]


def _file_url(base_url: str) -> str:
    """Bot API servers serve files beside the methods: …/bot → …/file/bot."""
    head, _, tail = base_url.rstrip("/").rpartition("/")
    return f"{head}/file/{tail}" if head else base_url
