"""Who a Telegram message is from and whom it names: a person, never the stand-in account of a
chat or channel someone writes on behalf of; and the player `/general kick` means, by a
mention, by the message it replies to, or by the name typed."""

from __future__ import annotations

from collections import OrderedDict

from telegram import Message, MessageEntity, User
from telegram.constants import ChatID

from adapters.chat.commands import Target

# The accounts a message on behalf of a chat comes "from": everyone writing as a channel is
# Channel_Bot, every anonymous administrator GroupAnonymousBot, every channel post forwarded
# to its discussion group Telegram's service account.
STAND_INS = frozenset({ChatID.FAKE_CHANNEL, ChatID.ANONYMOUS_ADMIN, ChatID.SERVICE_CHAT})
USERNAMES = 10_000  # the people remembered by @username: the latest seen


def on_behalf_of_a_chat(message: Message, user: User) -> bool:
    """Sent as a chat or a channel: whoever wrote it is hidden, and shares the account."""
    return message.sender_chat is not None or user.id in STAND_INS


class Usernames:
    """The people the bot saw lately, by @username (case does not matter to Telegram), so that
    `/general kick @name` finds the player it names; the latest `memory` only."""

    def __init__(self, memory: int = USERNAMES) -> None:
        self.memory = memory
        self._ids: OrderedDict[str, str] = OrderedDict()

    def saw(self, user: User | None) -> None:
        if user is None or user.username is None or user.is_bot:
            return
        key = user.username.casefold()
        self._ids[key] = str(user.id)
        self._ids.move_to_end(key)
        while len(self._ids) > self.memory:
            self._ids.popitem(last=False)

    def get(self, username: str) -> str | None:
        return self._ids.get(username.removeprefix("@").casefold())


def kicked(message: Message, typed: Target | None, usernames: Usernames) -> Target | None:
    """Whom `/general kick` names: a person mentioned (a text mention carries them; an
    @username is looked up among the people seen), else, with no name typed, the author of
    the message it replies to; else the name typed, as it was."""
    for entity, text in message.parse_entities().items():
        if entity.type == MessageEntity.TEXT_MENTION and entity.user is not None:
            return Target(str(entity.user.id), entity.user.full_name)
        if entity.type == MessageEntity.MENTION and (known := usernames.get(text)) is not None:
            return Target(known, text)
    reply = message.reply_to_message
    author = reply.from_user if reply is not None else None
    if (
        (typed is None or typed.name is None)
        and reply is not None
        and author is not None
        # In a forum topic every message "replies" to the topic's first, service, message.
        and reply.forum_topic_created is None
        and not author.is_bot
        and not on_behalf_of_a_chat(reply, author)
    ):
        return Target(str(author.id), author.full_name)
    return typed
