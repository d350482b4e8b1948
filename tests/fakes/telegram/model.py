"""The fake Bot API's world as tests see it: users, chats, messages (with the versions before
their edits), inline buttons, and callback queries with the bot's answers."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(eq=False)
class FakeUser:
    """A Telegram user (or the bot itself, ``is_bot``)."""

    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    is_bot: bool = False

    @property
    def full_name(self) -> str:
        return f"{self.first_name} {self.last_name}" if self.last_name else self.first_name

    def to_api(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "is_bot": self.is_bot, "first_name": self.first_name}
        if self.last_name:
            d["last_name"] = self.last_name
        if self.username:
            d["username"] = self.username
        if self.language_code:
            d["language_code"] = self.language_code
        return d


@dataclass(eq=False)
class FakeChat:
    """A chat: private (its id is its user's), group, supergroup (a forum or not), channel."""

    id: int
    type: str  # "private", "group", "supergroup", "channel"
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    is_forum: bool = False

    def to_api(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name", "last_name", "is_forum"):
            value = getattr(self, key)
            if value:
                d[key] = value
        return d


@dataclass(eq=False)
class FakeButton:
    """An inline keyboard button as the bot sent it (``raw``: the button's JSON)."""

    text: str
    callback_data: str | None = None
    url: str | None = None
    raw: dict[str, Any] = field(default_factory=dict)

    @classmethod
    def from_api(cls, raw: dict[str, Any]) -> FakeButton:
        return cls(
            text=raw.get("text", ""),
            callback_data=raw.get("callback_data"),
            url=raw.get("url"),
            raw=dict(raw),
        )

    def __repr__(self) -> str:
        extra = f" data={self.callback_data!r}" if self.callback_data is not None else ""
        if self.url:
            extra += f" url={self.url!r}"
        return f"<button {self.text!r}{extra}>"


@dataclass(eq=False)
class MessageSnapshot:
    """A message's content before one of its edits."""

    text: str | None
    plain_text: str | None
    parse_mode: str | None
    entities: list[dict[str, Any]]
    reply_markup: list[list[FakeButton]]


@dataclass(eq=False)
class FakeMessage:
    """A message in a chat, as sent by a user or the bot, in its current version."""

    message_id: int
    chat: FakeChat
    from_user: FakeUser
    date: int
    thread_id: int | None = None
    is_topic_message: bool = False
    text: str | None = None  # as the sender wrote it (with markup, for the bot's messages)
    plain_text: str | None = None  # what users see: markup removed, entities decoded, trimmed
    parse_mode: str | None = None
    entities: list[dict[str, Any]] = field(default_factory=list)
    caption: str | None = None
    plain_caption: str | None = None
    caption_entities: list[dict[str, Any]] = field(default_factory=list)
    photo: bytes | None = None  # uploaded bytes (None when sent by file_id/URL or no photo)
    photo_info: dict[str, Any] | None = None  # the PhotoSize: file_id, width, height, ...
    reply_markup: list[list[FakeButton]] = field(default_factory=list)
    raw_reply_markup: dict[str, Any] | None = None
    reply_to: FakeMessage | None = None
    history: list[MessageSnapshot] = field(default_factory=list)
    edit_date: int | None = None
    deleted: bool = False
    forum_topic_created: dict[str, Any] | None = None
    sender_chat: FakeChat | None = None  # posted on behalf of a chat (``from_user``: a stand-in)
    migrate_to_chat_id: int | None = None  # service message: the group became this supergroup
    migrate_from_chat_id: int | None = None  # service message: this supergroup was that group

    @property
    def is_service(self) -> bool:
        """A service message (a topic created, a migration): not something anyone wrote."""
        return (
            self.forum_topic_created is not None
            or self.migrate_to_chat_id is not None
            or self.migrate_from_chat_id is not None
        )

    @property
    def edits(self) -> int:
        """How many times the message was edited (``history`` holds the earlier versions)."""
        return len(self.history)

    @property
    def is_bot(self) -> bool:
        return self.from_user.is_bot

    @property
    def buttons(self) -> list[FakeButton]:
        return [b for row in self.reply_markup for b in row]

    @property
    def shown(self) -> str:
        """The readable text of the message: plain text, or the plain caption of a photo."""
        return self.plain_text or self.plain_caption or ""

    def find_button(self, text: str) -> FakeButton:
        """The button whose label equals ``text``, else the only one whose label contains it."""
        buttons = self.buttons
        exact = [b for b in buttons if b.text == text]
        if exact:
            return exact[0]
        partial = [b for b in buttons if text in b.text]
        if len(partial) == 1:
            return partial[0]
        labels = [b.text for b in buttons]
        if not partial:
            raise AssertionError(
                f"no button labelled {text!r} on message {self.message_id}; buttons: {labels}"
            )
        raise AssertionError(
            f"button label {text!r} is ambiguous on message {self.message_id}; buttons: {labels}"
        )

    def to_api(self, *, with_reply: bool = True) -> dict[str, Any]:
        d: dict[str, Any] = {
            "message_id": self.message_id,
            "from": self.from_user.to_api(),
            "chat": self.chat.to_api(),
            "date": self.date,
        }
        if self.thread_id is not None:
            d["message_thread_id"] = self.thread_id
        if self.is_topic_message:
            d["is_topic_message"] = True
        if with_reply and self.reply_to is not None:
            d["reply_to_message"] = self.reply_to.to_api(with_reply=False)
        if self.edit_date is not None:
            d["edit_date"] = self.edit_date
        if self.forum_topic_created is not None:
            d["forum_topic_created"] = dict(self.forum_topic_created)
        if self.sender_chat is not None:
            d["sender_chat"] = self.sender_chat.to_api()
        for key in ("migrate_to_chat_id", "migrate_from_chat_id"):
            if getattr(self, key) is not None:
                d[key] = getattr(self, key)
        if self.plain_text is not None:
            d["text"] = self.plain_text
            if self.entities:
                d["entities"] = [dict(e) for e in self.entities]
        if self.photo_info is not None:
            d["photo"] = [dict(self.photo_info)]
            if self.plain_caption:
                d["caption"] = self.plain_caption
                if self.caption_entities:
                    d["caption_entities"] = [dict(e) for e in self.caption_entities]
        if self.reply_markup:
            d["reply_markup"] = {
                "inline_keyboard": [[dict(b.raw) for b in row] for row in self.reply_markup]
            }
        return d

    def _snapshot(self) -> MessageSnapshot:
        return MessageSnapshot(
            text=self.text if self.photo_info is None else self.caption,
            plain_text=self.plain_text if self.photo_info is None else self.plain_caption,
            parse_mode=self.parse_mode,
            entities=list(self.entities if self.photo_info is None else self.caption_entities),
            reply_markup=[list(row) for row in self.reply_markup],
        )

    def __repr__(self) -> str:
        who = "bot" if self.is_bot else self.from_user.first_name
        flags = " deleted" if self.deleted else ""
        flags += f" edits={self.edits}" if self.history else ""
        thread = f" thread={self.thread_id}" if self.thread_id is not None else ""
        return (
            f"<FakeMessage {self.message_id} in {self.chat.id}{thread} from {who}: "
            f"{self.shown!r} buttons={self.buttons}{flags}>"
        )


@dataclass(eq=False)
class CallbackAnswer:
    """A callback query a user started by pressing a button, and the bot's answer."""

    query_id: str
    user: FakeUser
    message: FakeMessage
    data: str
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None
