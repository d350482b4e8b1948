"""The Bot API methods that post and change messages: sendMessage, sendPhoto, the edits,
deleteMessage, answerCallbackQuery, createForumTopic; replies and forum topics resolved as the
server does."""

from __future__ import annotations

import re
import secrets
import time
from typing import Any

from tests.fakes.base import FakeServer
from tests.fakes.telegram.errors import (
    EMPTY_TEXT,
    NO_TOPIC_RIGHTS,
    NOT_A_FORUM,
    NOT_MODIFIED,
    QUERY_TOO_OLD,
    THREAD_NOT_FOUND,
    TOPIC_NAME_EMPTY,
    ApiError,
    _Unhandled,
)
from tests.fakes.telegram.model import FakeButton, FakeChat, FakeMessage
from tests.fakes.telegram.validation import (
    MAX_CALLBACK_ANSWER,
    _image_size,
    _parse_markup,
    _parse_text,
)

TOPIC_NAME = 128  # characters a forum topic's name may have
# The colours a topic's icon may have (the Bot API's list); the first is the server's default.
TOPIC_COLORS = (0x6FB9F0, 0xFFD67E, 0xCB86DB, 0x8EEE98, 0xFF93B2, 0xFB6F5F)


class MessageMethods(FakeServer):
    """Message methods, mixed into :class:`~tests.fakes.telegram.FakeTelegram`."""

    def _get_message(self, chat: FakeChat, message_id: Any, missing: str) -> FakeMessage:
        if message_id is None:
            raise ApiError("Bad Request: message identifier is not specified")
        msg = self._by_id.get((chat.id, message_id))
        if msg is None or msg.deleted:
            raise ApiError(missing)
        return msg

    def _resolve_thread_and_reply(
        self, chat: FakeChat, params: dict[str, Any]
    ) -> tuple[int | None, bool, FakeMessage | None]:
        reply_to: FakeMessage | None = None
        rp = params.get("reply_parameters")
        if rp is None and "reply_to_message_id" in params:
            rp = {
                "message_id": params["reply_to_message_id"],
                "allow_sending_without_reply": params.get("allow_sending_without_reply", False),
            }
        if rp is not None:
            if not isinstance(rp, dict) or "message_id" not in rp:
                raise ApiError("Bad Request: can't parse reply parameters JSON object")
            unknown = set(rp) - {
                "message_id",
                "chat_id",
                "allow_sending_without_reply",
                "quote",
                "quote_parse_mode",
                "quote_entities",
                "quote_position",
            }
            if unknown:
                raise _Unhandled(f"reply_parameters fields {sorted(unknown)}")
            target_chat = chat
            if rp.get("chat_id") is not None:
                target_chat = self._get_chat(rp["chat_id"])
                if target_chat is not chat:
                    raise _Unhandled("replies to another chat are not simulated")
            found = self._by_id.get((target_chat.id, rp["message_id"]))
            if found is None or found.deleted:
                if not rp.get("allow_sending_without_reply"):
                    raise ApiError("Bad Request: message to be replied not found")
            else:
                reply_to = found
        thread_id = params.get("message_thread_id")
        is_topic = False
        if thread_id is None and reply_to is not None and reply_to.is_topic_message:
            thread_id = reply_to.thread_id
        if thread_id is not None:
            if chat.is_forum:
                if (chat.id, thread_id) not in self._topics:
                    raise ApiError(THREAD_NOT_FOUND)
                is_topic = True
                if reply_to is None:
                    reply_to = self._topics[(chat.id, thread_id)]
            elif chat.type == "supergroup":
                if (chat.id, thread_id) not in self._by_id:
                    raise ApiError(THREAD_NOT_FOUND)
            else:
                # the server ignores message_thread_id in private chats and basic groups
                thread_id = None
        return thread_id, is_topic, reply_to

    async def _api_sendMessage(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        self._check_can_send(chat)
        plain, entities = self._parse_message_text(p)
        return self._post(chat, p, text=p["text"], plain_text=plain, entities=entities)

    def _post(self, chat: FakeChat, p: dict[str, Any], **content: Any) -> Any:
        """Store the bot's new message in ``chat``: ``content`` with the keyboard, thread and
        reply that ``p`` asks for."""
        markup = _parse_markup(p.get("reply_markup"), private=chat.type == "private")
        thread_id, is_topic, reply_to = self._resolve_thread_and_reply(chat, p)
        msg = FakeMessage(
            message_id=self._alloc_message_id(chat.id),
            chat=chat,
            from_user=self.bot_user,
            date=int(time.time()),
            thread_id=thread_id,
            is_topic_message=is_topic,
            parse_mode=p.get("parse_mode"),
            reply_markup=markup,
            raw_reply_markup=p.get("reply_markup"),
            reply_to=reply_to,
            **content,
        )
        self._store(msg)
        return msg.to_api()

    async def _api_createForumTopic(self, p: dict[str, Any]) -> Any:
        """A topic in a forum supergroup, made by the bot as the server makes it: only where
        the bot is the creator or an administrator who may manage topics (the Bot API's rule;
        members whose chat lets them make topics are not simulated), with the "topic created"
        service message as its first message, whose id is the topic's message_thread_id.
        Refused in the server's words: a chat without topics, a bot without the right, a blank
        name. One divergence, as with ``strict_html``: a name over 128 characters, which the
        server cuts, is refused, so that a bot counting on the cut is caught."""
        chat = self._get_chat(p.get("chat_id"))
        self._check_can_send(chat)
        if chat.type != "supergroup" or not chat.is_forum:
            raise ApiError(NOT_A_FORUM)
        rights = self._member_info(chat, self.bot_user)
        allowed = rights["status"] == "creator" or (
            rights["status"] == "administrator" and rights.get("can_manage_topics", True)
        )
        if not allowed:
            raise ApiError(NO_TOPIC_RIGHTS)
        name = str(p.get("name") or "").strip()
        if not name:
            raise ApiError(TOPIC_NAME_EMPTY)
        if len(name) > TOPIC_NAME:
            raise ApiError(f"Bad Request: [fake] topic name over {TOPIC_NAME} characters")
        color = p.get("icon_color", TOPIC_COLORS[0])
        if not 0 <= color <= 0xFFFFFF:
            raise ApiError("Bad Request: invalid icon color specified")
        if color not in TOPIC_COLORS:
            raise _Unhandled(f"icon_color {color:#x} is none of the Bot API's six")
        thread_id = self.create_topic(chat, name, by=self.bot_user, icon_color=color)
        return {"message_thread_id": thread_id, "name": name, "icon_color": color}

    def _parse_message_text(self, p: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        """The ``text`` of a sendMessage or editMessageText, as users will see it."""
        if "text" not in p:
            raise ApiError(EMPTY_TEXT)
        return _parse_text(
            p["text"], p.get("parse_mode"), p.get("entities"), strict_html=self.strict_html
        )

    def _parse_caption(self, p: dict[str, Any]) -> tuple[str, list[dict[str, Any]]]:
        """The ``caption`` of a sendPhoto or editMessageCaption, as users will see it."""
        return _parse_text(
            p.get("caption"),
            p.get("parse_mode"),
            p.get("caption_entities"),
            strict_html=self.strict_html,
            caption=True,
        )

    async def _api_sendPhoto(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        self._check_can_send(chat)
        photo = p.get("photo")
        if photo is None:
            raise ApiError("Bad Request: there is no photo in the request")
        data: bytes | None
        if isinstance(photo, dict):
            data = photo["data"]
            size = _image_size(data)
            if size is None:
                raise ApiError("Bad Request: IMAGE_PROCESS_FAILED")
            file_id = "AgACAgIAAxkDAAI" + secrets.token_hex(12)
            info = {
                "file_id": file_id,
                "file_unique_id": "AQAD" + secrets.token_hex(6),
                "width": size[0],
                "height": size[1],
                "file_size": len(data),
            }
            self._files[file_id] = (
                data,
                {**info, "file_path": f"photos/file_{len(self._files)}.jpg"},
            )
        elif isinstance(photo, str) and photo in self._files:
            data, stored = self._files[photo]
            info = {k: v for k, v in stored.items() if k != "file_path"}
        elif isinstance(photo, str) and re.match(r"https?://", photo):
            data = None
            info = {
                "file_id": "AgACAgIAAxkDAAI" + secrets.token_hex(12),
                "file_unique_id": "AQAD" + secrets.token_hex(6),
                "width": 1,
                "height": 1,
                "url": photo,
            }
        else:
            raise ApiError("Bad Request: wrong file identifier/HTTP URL specified")
        caption, caption_entities = self._parse_caption(p)
        return self._post(
            chat,
            p,
            caption=p.get("caption"),
            plain_caption=caption or None,
            caption_entities=caption_entities,
            photo=data,
            photo_info={k: v for k, v in info.items() if k != "url"},
        )

    def _editable(self, p: dict[str, Any]) -> FakeMessage:
        if p.get("inline_message_id") is not None:
            raise _Unhandled("inline messages are not simulated")
        chat = self._get_chat(p.get("chat_id"))
        msg = self._get_message(chat, p.get("message_id"), "Bad Request: message to edit not found")
        if not msg.is_bot:
            raise ApiError("Bad Request: message can't be edited")
        return msg

    def _edit(self, msg: FakeMessage, p: dict[str, Any], **content: Any) -> Any:
        """Edit ``msg`` to ``content`` with the inline keyboard ``p`` gives (none if absent)."""
        private = msg.chat.type == "private"
        markup = _parse_markup(p.get("reply_markup"), inline_only=True, private=private)
        return self._apply_edit(msg, markup=markup, raw_markup=p.get("reply_markup"), **content)

    def _apply_edit(
        self,
        msg: FakeMessage,
        *,
        text: str | None,
        plain: str | None,
        entities: list[dict[str, Any]],
        parse_mode: str | None,
        markup: list[list[FakeButton]],
        raw_markup: Any,
        caption: bool = False,
    ) -> Any:
        def norm(rows: list[list[FakeButton]]) -> list[list[dict[str, Any]]]:
            return [[b.raw for b in row] for row in rows]

        current_plain = msg.plain_caption if caption else msg.plain_text
        current_entities = msg.caption_entities if caption else msg.entities
        if (
            (current_plain or None) == (plain or None)
            and current_entities == entities
            and norm(msg.reply_markup) == norm(markup)
        ):
            raise ApiError(NOT_MODIFIED)
        msg.history.append(msg._snapshot())
        if caption:
            msg.caption, msg.plain_caption, msg.caption_entities = text, plain or None, entities
        else:
            msg.text, msg.plain_text, msg.entities = text, plain, entities
        msg.parse_mode = parse_mode
        msg.reply_markup = markup
        msg.raw_reply_markup = raw_markup
        msg.edit_date = int(time.time())
        self._notify()
        return msg.to_api()

    async def _api_editMessageText(self, p: dict[str, Any]) -> Any:
        msg = self._editable(p)
        if msg.plain_text is None:
            raise ApiError("Bad Request: there is no text in the message to edit")
        plain, entities = self._parse_message_text(p)
        return self._edit(
            msg, p, text=p["text"], plain=plain, entities=entities, parse_mode=p.get("parse_mode")
        )

    async def _api_editMessageCaption(self, p: dict[str, Any]) -> Any:
        msg = self._editable(p)
        if msg.photo_info is None:
            raise ApiError("Bad Request: there is no caption in the message to edit")
        plain, entities = self._parse_caption(p)
        return self._edit(
            msg,
            p,
            text=p.get("caption"),
            plain=plain,
            entities=entities,
            parse_mode=p.get("parse_mode"),
            caption=True,
        )

    async def _api_editMessageReplyMarkup(self, p: dict[str, Any]) -> Any:
        msg = self._editable(p)
        caption = msg.photo_info is not None
        return self._edit(
            msg,
            p,
            text=msg.caption if caption else msg.text,
            plain=msg.plain_caption if caption else msg.plain_text,
            entities=msg.caption_entities if caption else msg.entities,
            parse_mode=msg.parse_mode,
            caption=caption,
        )

    async def _api_deleteMessage(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        msg = self._get_message(
            chat, p.get("message_id"), "Bad Request: message to delete not found"
        )
        if not msg.is_bot and chat.type != "private":
            info = self._member_info(chat, self.bot_user)
            can = info["status"] == "creator" or (
                info["status"] == "administrator" and info.get("can_delete_messages", True)
            )
            if not can:
                raise ApiError("Bad Request: message can't be deleted")
        msg.deleted = True
        self._notify()
        return True

    async def _api_answerCallbackQuery(self, p: dict[str, Any]) -> Any:
        record = self.callback_queries.get(p.get("callback_query_id", ""))
        if record is None or record.answered:
            raise ApiError(QUERY_TOO_OLD)
        text = p.get("text")
        if text is not None and len(text) > MAX_CALLBACK_ANSWER:
            raise ApiError("Bad Request: MESSAGE_TOO_LONG")
        if p.get("url") is not None:
            raise ApiError("Bad Request: URL_INVALID")
        record.answered = True
        record.text = text
        record.show_alert = bool(p.get("show_alert", False))
        record.cache_time = p.get("cache_time")
        self._notify()
        return True
