"""One Telegram command or press, answered: a command by replies in the chat (Telegram has no
private messages in a group), a press by its callback answer, once, as soon as the press is
carried out (with a toast of what it did), while the board's edit may wait for the chat's pace."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable
from functools import partial
from html import escape

from telegram import CallbackQuery, Message, User
from telegram.constants import ChatMemberStatus, ChatType, ParseMode
from telegram.error import BadRequest, Forbidden

from adapters.chat import cards, payload
from adapters.chat.boards import BoardRef
from adapters.chat.surface import Place
from adapters.i18n import Translator
from adapters.telegram import render
from adapters.telegram.calls import PLATFORM, TelegramCalls, cost, thread_of
from adapters.telegram.draw import alert, draw
from adapters.telegram.render import Rendered, hint_offer
from core.identity import ChannelKey, PlayerRef

log = logging.getLogger(__name__)


def channel_of(message: Message) -> ChannelKey:
    """A forum topic is its own table; elsewhere the chat is."""
    thread = message.message_thread_id if message.is_topic_message else None
    return ChannelKey(PLATFORM, str(message.chat.id), str(thread) if thread else "")


def player_of(user: User) -> PlayerRef:
    return PlayerRef(str(user.id), user.full_name)


def _payloads(message: Message) -> list[str]:
    """The callback data of the message's buttons."""
    markup = message.reply_markup
    rows = markup.inline_keyboard if markup else ()
    return [b.callback_data for row in rows for b in row if isinstance(b.callback_data, str)]


class _Exchange:
    """What commands and presses answer alike."""

    whispers = False
    asked = False  # a command: its answers show the bot typing while they wait

    def __init__(self, calls: TelegramCalls, message: Message, user: User) -> None:
        self.calls = calls
        self.message = message
        self.user = user
        self.channel = channel_of(message)
        self.person = player_of(user)
        self.locale = user.language_code

    def carries(self, data: str) -> bool:
        return data in _payloads(self.message)

    async def public(self, card: cards.Card, t: Translator) -> str:
        return await self.calls.send(self.channel, card, t, asked=self.asked)

    async def direct(self, card: cards.Card, t: Translator) -> bool:
        """The card in the person's private chat with the bot, in their language `t`: it spends
        nothing of the group's minute. False where the bot may not write there."""
        return await self._alone(draw(t, card))

    async def _alone(self, messages: Iterable[Rendered]) -> bool:
        """Post in the person's private chat with the bot; False where it may not (they never
        opened that chat, or blocked the bot)."""
        alone = ChannelKey(PLATFORM, str(self.user.id))
        try:
            for rendered in messages:
                await self.calls.send_rendered(alone, rendered)
        except (Forbidden, BadRequest) as error:
            log.info("cannot write to %s privately: %s", self.user.id, error)
            return False
        return True

    async def update(self, card: cards.Card, t: Translator) -> bool:
        return False  # an edit of the message is the only way

    async def ack(self) -> None:
        """Nothing to do: a command needs no acknowledgement, a press is answered at the end."""

    async def launch(self) -> bool:
        return False  # a board's own button opens the Mini App: no press comes for it

    async def place(self) -> Place:
        return await self.calls.place(self.channel)

    async def may_configure(self) -> bool:
        """Chat administrators (anyone in a private chat) may change the chat's settings."""
        chat = self.message.chat
        if chat.type == ChatType.PRIVATE:
            return True
        member = await self.calls.bot.get_chat_member(chat.id, self.user.id)
        return member.status in (ChatMemberStatus.OWNER, ChatMemberStatus.ADMINISTRATOR)


class CommandExchange(_Exchange):
    """`/general …`: every answer is a reply in the chat."""

    quiet = False
    asked = True
    pressed: BoardRef | None = None
    shown: payload.Press | None = None

    async def private(self, card: cards.Card, t: Translator) -> None:
        in_group = self.message.chat.type != ChatType.PRIVATE
        if isinstance(card, cards.Hint | cards.Aside) and in_group:
            await self._whisper(card, t)
            return
        for rendered in draw(t, card):
            await self._reply(rendered)

    async def _reply(self, rendered: Rendered) -> None:
        chat = str(self.message.chat.id)
        sign = partial(self.calls.typing, self.channel)  # heard, if the answer must wait
        quoted = self.message.chat.type != ChatType.PRIVATE  # as PTB's reply_text quotes
        async with self.calls.pace.turn(chat, cost=cost(rendered.text), sign=sign):
            await self.calls.call(  # a 429 retried at the chat's pace (TelegramCalls._limited)
                "sendMessage",
                chat_id=self.message.chat.id,
                text=rendered.text,
                parse_mode=ParseMode.HTML,
                reply_markup=rendered.markup,
                message_thread_id=thread_of(self.channel),
                reply_parameters={"message_id": self.message.message_id} if quoted else None,
            )

    async def _whisper(self, card: cards.Hint | cards.Aside, t: Translator) -> None:
        """A hint asked for in a group goes to the asker's private chat with the bot, never to
        the group; where the bot may not write to them (they never opened that chat), the group
        gets a button that shows the hint to whoever presses it, and only to them. A hint's
        refusal goes there too; where it cannot, it is the short reply it would have been."""
        key = "hint-from" if isinstance(card, cards.Hint) else "hint-refused-from"
        title = t(key, chat=self.message.chat.title or "")
        text = "\n".join(rendered.text for rendered in draw(t, card))
        if not await self._alone([Rendered(f"{escape(title)}\n{text}")]):
            if isinstance(card, cards.Hint):
                await self._reply(hint_offer(t, card.game_id, card.version))
            else:
                for rendered in draw(t, card):
                    await self._reply(rendered)

    async def redraw(self, card: cards.Card, t: Translator) -> None:
        await self.private(card, t)

    async def note(self, text: str | None) -> None:
        """A command's answer is a message: what it did shows on the board."""

    async def troubled(self, error: Exception, t: Translator) -> None:
        """Nothing can be said where Telegram refused to write."""

    async def fail(self, t: Translator) -> None:
        try:
            await self.private(cards.Lines((t("error-unexpected"),)), t)
        except self.calls.errors as error:
            log.info("could not tell of a failure in %s: %s", self.channel, error)


class PressExchange(_Exchange):
    """A button: private words go in the callback answer (`finish`)."""

    quiet = True  # a callback answer is seen by the presser alone

    def __init__(self, calls: TelegramCalls, query: CallbackQuery, message: Message) -> None:
        super().__init__(calls, message, query.from_user)
        self.query = query
        self.pressed: BoardRef | None = BoardRef(str(message.chat.id), str(message.message_id))
        self.shown: payload.Press | None = payload.shown(_payloads(message))
        self._answer: tuple[str | None, bool] = (None, False)
        self._answered = False
        self._answering: asyncio.Task[None] | None = None  # the answer on its way (note)

    async def private(self, card: cards.Card, t: Translator) -> None:
        text, is_alert = alert(t, card)
        if text is None:
            await self.public(card, t)  # too long for an answer: the chat sees it
        elif self._answered:
            log.info("press %s already answered; not said: %s", self.query.id, text[:80])
        else:
            self._answer = (text, is_alert)

    async def note(self, text: str | None) -> None:
        """The press was carried out: answered now (with its toast), before the board's edit
        and the next player's board, which may wait for the chat's pace. The answer is sent
        beside the edit rather than before it: the board comes one round trip sooner."""
        if self._answer[0] is None and not self._answered:
            self._answered = True
            answer = (render.alert(text) if text else None, False)
            self._answering = asyncio.create_task(self._send(*answer))

    async def redraw(self, card: cards.Card, t: Translator) -> None:
        assert self.pressed is not None
        await self.calls.edit(self.pressed, card, t)

    async def troubled(self, error: Exception, t: Translator) -> None:
        self._answer = (None, False)

    async def fail(self, t: Translator) -> None:
        self._answer = (t("error-unexpected"), False)

    async def finish(self) -> None:
        """Answer the callback, once (or see the answer `note` sent through)."""
        if self._answering is not None:
            answering, self._answering = self._answering, None
            await answering
        if self._answered:
            return
        self._answered = True
        await self._send(*self._answer)

    async def _send(self, text: str | None, is_alert: bool) -> None:
        try:
            await self.calls.call(
                "answerCallbackQuery",
                callback_query_id=self.query.id,
                text=text,
                show_alert=is_alert or None,
            )
        except BadRequest as error:
            log.info("callback answer refused: %s", error)
