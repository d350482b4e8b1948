"""The test side of the fake Bot API that reads like a user: building the world (users, chats,
members, forum topics) and what users do (write, press buttons), each turned into an update."""

from __future__ import annotations

import re
import time
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.telegram.model import CallbackAnswer, FakeChat, FakeMessage, FakeUser
from tests.fakes.telegram.text import _utf16_len

# Who a message on behalf of a chat is "from": the bot API's stand-ins, with sender_chat set.
ANONYMOUS_ADMIN = FakeUser(1087968824, "Group", username="GroupAnonymousBot", is_bot=True)
CHANNEL_BOT = FakeUser(136817688, "Channel", username="Channel_Bot", is_bot=True)


class World(FakeServer):
    """World building and user actions, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    def user(
        self,
        user_id: int,
        first_name: str,
        *,
        last_name: str | None = None,
        username: str | None = None,
        language_code: str | None = None,
        is_bot: bool = False,
    ) -> FakeUser:
        u = FakeUser(user_id, first_name, last_name, username, language_code, is_bot)
        self.users[user_id] = u
        return u

    def chat(
        self,
        chat_id: int,
        *,
        type: str = "supergroup",
        title: str | None = None,
        username: str | None = None,
        is_forum: bool = False,
        creator: FakeUser | None = None,
    ) -> FakeChat:
        if type not in ("group", "supergroup", "channel", "private"):
            raise ValueError(f"unknown chat type {type!r}")
        if type == "private":
            user = self.users.get(chat_id)
            if user is None:
                raise ValueError("a private chat's id is its user's id: create the user first")
            return self.private_chat(user)
        if chat_id >= 0:
            raise ValueError("group chat ids are negative")
        if is_forum and type != "supergroup":
            raise ValueError("only supergroups can be forums")
        c = FakeChat(
            chat_id, type, title=title or f"Chat {chat_id}", username=username, is_forum=is_forum
        )
        self.chats[chat_id] = c
        self._messages.setdefault(chat_id, [])
        if creator is not None:
            self.set_member(c, creator, "creator")
        return c

    def private_chat(self, user: FakeUser) -> FakeChat:
        """The private chat between ``user`` and the bot (the user has started the bot)."""
        existing = self.chats.get(user.id)
        if existing is not None:
            return existing
        c = FakeChat(
            user.id,
            "private",
            username=user.username,
            first_name=user.first_name,
            last_name=user.last_name,
        )
        self.chats[user.id] = c
        self._messages.setdefault(user.id, [])
        return c

    def set_member(
        self, chat: FakeChat, user: FakeUser, status: str = "member", **rights: Any
    ) -> None:
        """Set ``user``'s status in ``chat``: creator, administrator, member, restricted, left,
        kicked. For administrators, ``rights`` override the can_* flags (all True by default)."""
        if status not in ("creator", "administrator", "member", "restricted", "left", "kicked"):
            raise ValueError(f"unknown chat member status {status!r}")
        self._members[(chat.id, user.id)] = {"status": status, **rights}

    def block_bot(self, user: FakeUser) -> None:
        """The user blocks the bot: sending to their private chat is 403."""
        self._blocked.add(user.id)

    def forum(
        self,
        chat_id: int,
        *,
        title: str | None = None,
        creator: FakeUser | None = None,
        bot_rights: bool = True,
    ) -> FakeChat:
        """The forum supergroup ``chat_id`` (made if missing), where the bot is an administrator
        who may manage topics (``bot_rights``), as Telegram wants of a bot that makes topics;
        ``bot_rights=False``: a plain member, whose createForumTopic is refused."""
        chat = self.chats.get(chat_id)
        if chat is None:
            chat = self.chat(chat_id, title=title, is_forum=True, creator=creator)
        elif not chat.is_forum:
            raise ValueError(f"chat {chat_id} exists and is not a forum")
        if bot_rights:
            self.set_member(chat, self.bot_user, "administrator", can_manage_topics=True)
        else:
            self.set_member(chat, self.bot_user, "member")
        return chat

    def topics(self, chat: FakeChat) -> dict[int, str]:
        """The forum's topics, oldest first: each one's name by its message_thread_id."""
        return {
            thread: str((created.forum_topic_created or {}).get("name", ""))
            for (chat_id, thread), created in self._topics.items()
            if chat_id == chat.id
        }

    def create_topic(
        self,
        chat: FakeChat,
        name: str = "Topic",
        *,
        by: FakeUser | None = None,
        thread_id: int | None = None,
        icon_color: int = 0x6FB9F0,
    ) -> int:
        """Create a forum topic; returns its message_thread_id."""
        if not chat.is_forum:
            raise ValueError(f"chat {chat.id} is not a forum")
        creator = by or self._some_member(chat)
        mid = self._alloc_message_id(chat.id, thread_id)
        msg = FakeMessage(
            message_id=mid,
            chat=chat,
            from_user=creator,
            date=int(time.time()),
            thread_id=mid,
            is_topic_message=True,
            forum_topic_created={"name": name, "icon_color": icon_color},
        )
        self._store(msg)
        self._topics[(chat.id, mid)] = msg
        return mid

    async def migrate(self, chat: FakeChat, new_id: int, *, by: FakeUser | None = None) -> FakeChat:
        """Upgrade the group ``chat`` to a supergroup ``new_id`` (its members come along), as
        Telegram does: a service message in each (``migrate_to_chat_id`` in the old,
        ``migrate_from_chat_id`` in the new), and the old id answers 400 with the new one."""
        if chat.type != "group" or chat.id in self._migrated:
            raise ValueError("only a group, once, becomes a supergroup")
        if not str(new_id).startswith("-100") or new_id in self.chats:
            raise ValueError("a supergroup's id is a new -100… one")
        new = self.chat(new_id, title=chat.title)
        for (cid, uid), info in list(self._members.items()):
            if cid == chat.id:
                self._members[(new_id, uid)] = dict(info)
        self._seen_in_chat |= {(new_id, uid) for cid, uid in self._seen_in_chat if cid == chat.id}
        self._migrated[chat.id] = new_id
        creator = by or self._some_member(chat)
        for where, field in ((chat, "migrate_to_chat_id"), (new, "migrate_from_chat_id")):
            msg = FakeMessage(
                message_id=self._alloc_message_id(where.id),
                chat=where,
                from_user=creator,
                date=int(time.time()),
                **{field: new_id if where is chat else chat.id},
            )
            self._store(msg)
            self._push_update({"message": msg.to_api()})  # service messages reach every bot
        return new

    def _some_member(self, chat: FakeChat) -> FakeUser:
        for (cid, uid), info in self._members.items():
            if cid == chat.id and info["status"] == "creator":
                return self.users[uid]
        return self.bot_user

    def _alloc_message_id(self, chat_id: int, wanted: int | None = None) -> int:
        nxt = self._next_message_id.get(chat_id, 1)
        if wanted is not None:
            if (chat_id, wanted) in self._by_id:
                raise ValueError(f"message id {wanted} already used in chat {chat_id}")
            self._next_message_id[chat_id] = max(nxt, wanted + 1)
            return wanted
        self._next_message_id[chat_id] = nxt + 1
        return nxt

    def _store(self, msg: FakeMessage) -> None:
        self._messages.setdefault(msg.chat.id, []).append(msg)
        self._by_id[(msg.chat.id, msg.message_id)] = msg
        self._notify()

    async def send_message(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: FakeMessage | None = None,
        sender_chat: FakeChat | None = None,
        text_mentions: dict[str, FakeUser] | None = None,
    ) -> FakeMessage:
        """``user`` writes ``text`` in ``chat`` (in forum topic ``thread_id``); the bot gets an
        update. A leading /command gets a bot_command entity, as do commands later in the text,
        and an @username a mention; ``text_mentions`` names the users that parts of the text
        mention (as a client does for people without a username). With ``sender_chat``, the
        user writes on behalf of it: the chat itself (an anonymous administrator) or a
        channel; Telegram then says the message is from a stand-in, never from the user."""
        if user.is_bot:
            raise ValueError("bots don't receive messages from bots")
        if chat.id not in self.chats or chat.id in self._migrated:
            raise ValueError(f"unknown chat {chat.id}")
        if sender_chat is not None:
            if sender_chat is not chat and sender_chat.type != "channel":
                raise ValueError("one writes on behalf of the chat itself or of a channel")
            user = ANONYMOUS_ADMIN if sender_chat is chat else CHANNEL_BOT
        if not text:
            raise ValueError("empty message")
        if chat.type == "private" and chat.id != user.id:
            raise ValueError("only the chat's user can write in a private chat")
        topic_created = None
        is_topic = False
        if reply_to is not None and thread_id is None:
            thread_id = reply_to.thread_id if reply_to.is_topic_message else None
        if thread_id is not None:
            if chat.is_forum:
                if (chat.id, thread_id) not in self._topics:
                    self.create_topic(chat, f"Topic {thread_id}", by=user, thread_id=thread_id)
                topic_created = self._topics[(chat.id, thread_id)]
                is_topic = True
            elif (chat.id, thread_id) not in self._by_id:
                raise ValueError(f"no message {thread_id} to start a thread in chat {chat.id}")
        msg = FakeMessage(
            message_id=self._alloc_message_id(chat.id),
            chat=chat,
            from_user=user,
            date=int(time.time()),
            thread_id=thread_id,
            is_topic_message=is_topic,
            text=text,
            plain_text=text,
            entities=self._entities(text, text_mentions or {}),
            reply_to=reply_to if reply_to is not None else topic_created,
            sender_chat=sender_chat,
        )
        self._store(msg)
        self._seen_in_chat.add((chat.id, user.id))
        if self._delivers(msg):
            self._push_update({"message": msg.to_api()})
        return msg

    def _delivers(self, msg: FakeMessage) -> bool:
        if not self.privacy_mode or msg.chat.type == "private":
            return True
        if msg.text and msg.text.startswith("/"):
            return True
        return msg.reply_to is not None and msg.reply_to.is_bot and not msg.is_topic_message

    @staticmethod
    def _entities(text: str, text_mentions: dict[str, FakeUser]) -> list[dict[str, Any]]:
        found: list[tuple[int, str, dict[str, Any]]] = []
        for kind, pattern in (
            ("bot_command", r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w@/])"),
            ("mention", r"(?<![\w/@])@[A-Za-z0-9_]{5,32}(?![\w@])"),
        ):
            found += [(m.start(), m.group(), {"type": kind}) for m in re.finditer(pattern, text)]
        for part, who in text_mentions.items():
            at = text.find(part)
            if at < 0:
                raise ValueError(f"{part!r} is not in the text")
            found.append((at, part, {"type": "text_mention", "user": who.to_api()}))
        return [
            {**extra, "offset": _utf16_len(text[:at]), "length": _utf16_len(part)}
            for at, part, extra in sorted(found, key=lambda f: f[0])
        ]

    async def press(
        self,
        user: FakeUser,
        message: FakeMessage,
        text: str | None = None,
        *,
        data: str | None = None,
    ) -> str:
        """``user`` presses the inline button labelled ``text`` (exact, else unique substring) on
        ``message``; or, with ``data``, sends a forged callback query. Returns the query id."""
        if (text is None) == (data is None):
            raise ValueError("pass exactly one of text= or data=")
        if message.deleted:
            raise AssertionError(f"message {message.message_id} was deleted; nothing to press")
        if data is None:
            assert text is not None
            button = message.find_button(text)
            if button.callback_data is None:
                raise AssertionError(f"button {button.text!r} is not a callback button")
            data = button.callback_data
        qid = str(next(self._query_ids))
        self.callback_queries[qid] = CallbackAnswer(qid, user, message, data)
        self._push_update(
            {
                "callback_query": {
                    "id": qid,
                    "from": user.to_api(),
                    "chat_instance": str((abs(message.chat.id) * 1_000_003) % (2**62)),
                    "message": message.to_api(),
                    "data": data,
                }
            }
        )
        return qid

    async def wait_answer(self, query_id: str, timeout: float = 5.0) -> tuple[str | None, bool]:
        """Wait until the bot answered the callback query; returns (text, show_alert)."""
        record = self.callback_queries[query_id]
        await self.wait_for(
            lambda: record.answered,
            timeout=timeout,
            message=f"the bot did not answer callback query {query_id} (data {record.data!r})",
        )
        return record.text, record.show_alert
