"""The Bot API calls the chat layer makes through Telegram: send, edit, and where settings live."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Awaitable, Callable, Coroutine
from datetime import timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

from telegram import InlineKeyboardMarkup
from telegram.constants import ParseMode
from telegram.error import BadRequest, Forbidden, RetryAfter, TelegramError
from telegram.ext import BaseRateLimiter, ExtBot

from adapters.chat.boards import BoardRef
from adapters.chat.cards import Card
from adapters.chat.pacing import Pace
from adapters.chat.surface import Place
from adapters.i18n import Translator
from adapters.telegram.draw import TELEGRAM, Telegram, draw
from adapters.telegram.http import JsonBody
from adapters.telegram.render import Keyboard, Opening, Rendered
from core.identity import ChannelKey

if TYPE_CHECKING:  # the live table's links come with its settings only
    from adapters.chat.weblinks import WebLinks

PLATFORM = "tg"
log = logging.getLogger(__name__)


def thread_of(channel: ChannelKey) -> int | None:
    return int(channel.thread) if channel.thread else None


TOPIC_NAME = 128  # characters a forum topic's name may have


def cut(title: str, limit: int) -> str:
    """A thread's name within the platform's limit; ValueError for a blank one, which no
    platform takes (a caller's mistake, not the platform's refusal)."""
    name = title.strip()[:limit].rstrip()
    if not name:
        raise ValueError("a thread needs a name")
    return name


NO_PREVIEW = {"is_disabled": True}  # LinkPreviewOptions, as JSON
LONG = 1000  # characters beyond which Telegram counts a message twice against its limits
RETRIES = 3  # tries again of a write Telegram refused with a 429, each at a new slot
# Calls Telegram does not limit: they never wait behind a chat's pace or another call's 429.
FREE = frozenset({"answerCallbackQuery", "sendChatAction", "getChat"})


def retry_seconds(refused: RetryAfter) -> float:
    """The delay a 429 names (PTB warns that its type changes to timedelta: both are read)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        value = refused.retry_after
    return value.total_seconds() if isinstance(value, timedelta) else float(value)


# What a Bot API call answers, as PTB's request reads it.
Answer = bool | dict[str, Any] | list[dict[str, Any]]


class _Refused(TelegramError):
    """A 429, carried past PTB's limiter so that it does not retry it itself (see `_limited`)."""

    def __init__(self, refused: RetryAfter) -> None:
        super().__init__(refused.message)
        self.refused = refused


def _unretried(
    post: Callable[..., Awaitable[Answer]],
) -> Callable[..., Coroutine[Any, Any, Answer]]:
    async def once(*args: Any, **kwargs: Any) -> Answer:
        try:
            return await post(*args, **kwargs)
        except RetryAfter as refused:
            raise _Refused(refused) from refused

    return once


def cost(text: str) -> int:
    """What a message weighs against a chat's pace: a long one hits the limits sooner."""
    return 2 if len(text) > LONG else 1


def markup_object(markup: Keyboard | None) -> InlineKeyboardMarkup | None:
    """A keyboard as python-telegram-bot's object, for the few calls made through its own
    methods (a photo, a reply to a command)."""
    return InlineKeyboardMarkup.de_json(markup) if markup is not None else None


class TelegramCalls:
    """The chat layer's `Platform` on Telegram."""

    name = "telegram"
    chat_word = "chat"
    key = PLATFORM
    errors: tuple[type[Exception], ...] = (TelegramError,)
    forbidden: type[Exception] = Forbidden

    def __init__(self, bot: ExtBot[Any], pace: Pace | None = None) -> None:
        self.bot = bot
        self.pace = pace or Pace(None)  # what the bot writes in a chat waits for its turn
        self._groups = self._private = TELEGRAM  # how each kind of chat is drawn

    def open_tables(self, links: WebLinks | None) -> None:
        """The boards offer the live table at `links` (None: they do not)."""
        if links is None:
            self._groups = self._private = TELEGRAM
        else:
            self._groups = Telegram(Opening(links, private=False))
            self._private = Telegram(Opening(links, private=True))

    def serialiser(self, chat: str) -> Telegram:
        """How a chat's messages are drawn: a group's ids are negative, a person's positive."""
        return self._groups if chat.startswith("-") else self._private

    async def send(
        self, channel: ChannelKey, card: Card, t: Translator, *, asked: bool = False
    ) -> str:
        """Post the card in language `t`; `asked`: it answers a command, and the chat is shown
        the bot typing while the chat's pace holds it back."""
        message_id = 0
        for rendered in draw(t, card, self.serialiser(channel.chat)):
            message_id = await self.send_rendered(channel, rendered, asked=asked)
        return str(message_id)

    async def send_rendered(
        self, channel: ChannelKey, rendered: Rendered, *, asked: bool = False
    ) -> int:
        sign = partial(self.typing, channel) if asked else None
        async with self.pace.turn(channel.chat, cost=cost(rendered.text), sign=sign):
            if rendered.picture is not None:
                photo = await self.bot.send_photo(
                    chat_id=int(channel.chat),
                    photo=rendered.picture,
                    caption=rendered.text or None,
                    parse_mode=ParseMode.HTML,
                    reply_markup=markup_object(rendered.markup),
                    message_thread_id=thread_of(channel),
                )
                return photo.message_id
            sent = await self.call(
                "sendMessage",
                chat_id=int(channel.chat),
                text=rendered.text,
                parse_mode=ParseMode.HTML,
                reply_markup=rendered.markup,
                message_thread_id=thread_of(channel),
                link_preview_options=NO_PREVIEW,
            )
        return int(sent["message_id"])

    async def call(self, endpoint: str, **fields: object) -> dict[str, Any]:
        """A Bot API call whose answer is read as JSON, if at all: python-telegram-bot's own
        method would build a Message of it, a quarter of a millisecond a board. The call goes
        through PTB's rate limiter (its 429 retries and throttles) and its request's checks
        of the answer (its errors), not through the Bot's layers of parameter objects, which
        cost a board's call as much as the HTTP request itself (BENCHMARKS.md). A call Telegram
        does not limit (a press's answer) skips PTB's limiter: after a 429 it holds every call
        for the retry's delay, and a press not answered within seconds is lost."""
        given = {key: value for key, value in fields.items() if value is not None}
        request, url = self.bot.request, f"{self.bot.base_url}/{endpoint}"
        body = JsonBody(given).data()
        limiter = self.bot.rate_limiter
        if limiter is None or endpoint in FREE:
            answer = await request.post(url, body)
        else:
            answer = await self._limited(limiter, endpoint, given, url, body)
        return answer if isinstance(answer, dict) else {}

    async def _limited(
        self,
        limiter: BaseRateLimiter[Any],
        endpoint: str,
        given: dict[str, Any],
        url: str,
        body: Any,
    ) -> Any:
        """Through PTB's limiter (its throttles, where set), but a 429 is retried here: the
        pace holds the chat for the delay and the call waits for a new slot of its own. PTB
        would hold every call of the bot for the delay and then let them all go at once, a
        burst the limits refuse in turn until calls are lost."""
        chat, post, attempt = given.get("chat_id"), _unretried(self.bot.request.post), 0
        while True:
            try:
                return await limiter.process_request(
                    callback=post,
                    args=(url, body),
                    kwargs={},
                    endpoint=endpoint,
                    data=given,
                    rate_limit_args=None,
                )
            except _Refused as refused:
                if chat is None or attempt == RETRIES:
                    raise refused.refused from None
                attempt += 1
                seconds = retry_seconds(refused.refused)
                log.info("%s in %s refused for %.1f s; trying again", endpoint, chat, seconds)
                self.pace.hold(str(chat), seconds)
                await self.pace.again(str(chat), cost=cost(str(given.get("text") or "")))

    async def typing(self, channel: ChannelKey) -> None:
        """Tell the chat the bot is writing: free, while a message waits for the chat's pace."""
        try:
            await self.call(
                "sendChatAction",
                chat_id=int(channel.chat),
                action="typing",
                message_thread_id=thread_of(channel),
            )
        except TelegramError as error:
            log.info("could not show typing in %s: %s", channel, error)

    async def _edit(self, endpoint: str, ref: BoardRef, **fields: object) -> None:
        await self.call(endpoint, chat_id=int(ref.chat), message_id=int(ref.message), **fields)

    async def edit(self, ref: BoardRef, card: Card, t: Translator) -> bool:
        """Edit a message to show `card`, in language `t` (the person's own, for a screen of
        theirs such as the settings)."""
        (rendered, *_) = draw(t, card, self.serialiser(ref.chat))
        try:
            async with self.pace.turn(ref.chat, cost=cost(rendered.text)):
                if rendered.strip:
                    await self._edit("editMessageReplyMarkup", ref)
                else:
                    await self._edit(
                        "editMessageText",
                        ref,
                        text=rendered.text,
                        parse_mode=ParseMode.HTML,
                        reply_markup=rendered.markup,
                        link_preview_options=NO_PREVIEW,
                    )
        except BadRequest as error:
            text = str(error).lower()
            if "not modified" in text:
                return True  # it shows this already
            if "not found" in text:
                return False
            raise
        return True

    async def place(self, channel: ChannelKey) -> Place:
        """A Telegram chat keeps its own settings (its topics share them)."""
        return Place(channel.chat)

    async def write_to(self, person_id: str, card: Card, t: Translator) -> bool:
        """In the person's private chat with the bot: False where they never opened it or
        blocked the bot."""
        alone = ChannelKey(PLATFORM, person_id)
        try:
            for rendered in draw(t, card, self._private):
                await self.send_rendered(alone, rendered)
        except (Forbidden, BadRequest) as error:
            log.info("cannot write to %s privately: %s", person_id, error)
            return False
        return True

    async def title(self, channel: ChannelKey) -> str | None:
        try:
            chat = await self.call("getChat", chat_id=int(channel.chat))
        except TelegramError as error:
            log.info("no title for %s: %s", channel, error)
            return None
        return str(chat.get("title") or "") or None

    async def link(self, channel: ChannelKey, message: str) -> str | None:
        """A supergroup's messages have links (t.me/c/…, its id without -100), in a topic
        through the topic; a basic group's have none."""
        if not channel.chat.startswith("-100"):
            return None
        topic = f"{channel.thread}/" if channel.thread else ""
        return f"https://t.me/c/{channel.chat[4:]}/{topic}{message}"

    def private_link(self) -> str | None:
        return f"https://t.me/{self.bot.username}?start=notify"

    async def open_thread(self, channel: ChannelKey, title: str) -> ChannelKey | None:
        """A forum topic of the chat named `title` (cut to Telegram's 128 characters).

        Whether the chat has topics is asked of getChat first rather than learned from
        createForumTopic's refusal: getChat is free (no pace, no flood limit), while a refused
        createForumTopic would spend a slot of the group's pace, shared with its boards, on
        nothing. Only supergroups (ids -100…) can be forums, so other chats are not asked at
        all. Nothing is remembered: a group may turn its topics on or off at any time.
        None where the chat has no topics or the bot may not make one (Telegram wants an
        administrator with the right to manage topics); every other refusal (the bot removed
        from the chat, a 429 past its retries, the network) is raised as Telegram's error."""
        name = cut(title, TOPIC_NAME)
        if not channel.chat.startswith("-100"):
            return None
        chat = await self.call("getChat", chat_id=int(channel.chat))
        if not chat.get("is_forum"):
            return None
        try:
            async with self.pace.turn(channel.chat):  # it posts "topic created" in the chat
                topic = await self.call("createForumTopic", chat_id=int(channel.chat), name=name)
        except BadRequest as error:
            text = str(error).lower()
            if "not a forum" in text or "not enough rights" in text:
                log.info("no topic in %s: %s", channel.chat, error)
                return None
            raise
        return ChannelKey(PLATFORM, channel.chat, str(topic["message_thread_id"]))
