"""A fake Telegram Bot API server for offline end-to-end tests.

The real python-telegram-bot code talks over real HTTP to this server, which listens on
127.0.0.1 (port 0) inside the test's event loop::

    fake = FakeTelegram(token="123456:TEST")
    await fake.start()
    app = (
        Application.builder()
        .token(fake.token)
        .base_url(fake.base_url)
        .base_file_url(fake.base_file_url)
        .build()
    )
    alice = fake.user(1001, "Alice", username="alice")
    group = fake.chat(-100500, type="supergroup", title="Dice night")
    await fake.send_message(alice, group, "/general start")
    await fake.wait_for(lambda: fake.bot_messages(group))

What it simulates faithfully (the rules real bots trip over):

* long polling: ``getUpdates`` blocks until an update exists or ``timeout`` expires; updates are
  forgotten only once confirmed through ``offset``; a newer poll terminates an older one with
  409 Conflict, like the real server;
* form decoding per parameter (strings stay raw, other values are JSON text), and JSON bodies;
* ``editMessageText`` without ``reply_markup`` removes the keyboard; identical edits are
  400 "message is not modified"; callback queries can be answered once; text limits; the 64-byte
  ``callback_data`` limit; HTML / MarkdownV2 entity parsing with Telegram's error messages;
* 401 for a wrong token, 404 for an unknown method.

Anything it does not understand (an unknown method, an unknown parameter, a value it can't
decode) is answered with an error *and* recorded in :attr:`FakeTelegram.unhandled`; tests assert
that list is empty.

One deliberate divergence: with ``strict_html=True`` (the default) a stray ``&`` (one that does
not start ``&lt;``, ``&gt;``, ``&amp;``, ``&quot;`` or a numeric reference) is rejected.  The real
server keeps such an ``&`` literally, but a bot that leaves ``&`` unescaped will also leave ``<``
unescaped, which the real server does reject - so the fake catches the bug earlier.  Pass
``strict_html=False`` for the real server's behaviour.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import itertools
import json
import re
import secrets
import struct
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

__all__ = [
    "ApiError",
    "CallbackAnswer",
    "FakeButton",
    "FakeChat",
    "FakeMessage",
    "FakeTelegram",
    "FakeUser",
    "MessageSnapshot",
    "parse_html",
    "parse_markdown",
    "parse_markdown_v2",
]

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_CALLBACK_ANSWER = 200

NOT_MODIFIED = (
    "Bad Request: message is not modified: specified new message content and reply markup are "
    "exactly the same as a current content and reply markup of the message"
)
QUERY_TOO_OLD = "Bad Request: query is too old and response timeout expired or query ID is invalid"
EMPTY_TEXT = "Bad Request: message text is empty"
TEXT_TOO_LONG = "Bad Request: message is too long"
CAPTION_TOO_LONG = "Bad Request: message caption is too long"
CONFLICT = (
    "Conflict: terminated by other getUpdates request; make sure that only one bot instance "
    "is running"
)


class ApiError(Exception):
    """An API error answered to the bot (not a fake failure): status + Telegram description."""

    def __init__(
        self, description: str, status: int = 400, parameters: dict[str, Any] | None = None
    ) -> None:
        super().__init__(description)
        self.description = description
        self.status = status
        self.parameters = parameters


class _Unhandled(Exception):
    """The fake does not understand the request: recorded in ``unhandled``."""

    def __init__(self, reason: str, status: int = 400) -> None:
        super().__init__(reason)
        self.reason = reason
        self.status = status


def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


# --------------------------------------------------------------------------------------------
# Users, chats, messages
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
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
    id: int
    type: str  # "private", "group", "supergroup", "channel"
    title: str | None = None
    username: str | None = None
    first_name: str | None = None
    last_name: str | None = None
    is_forum: bool = False

    def to_api(self) -> dict[str, Any]:
        d: dict[str, Any] = {"id": self.id, "type": self.type}
        for key in ("title", "username", "first_name", "last_name"):
            value = getattr(self, key)
            if value:
                d[key] = value
        if self.is_forum:
            d["is_forum"] = True
        return d


@dataclass(eq=False)
class FakeButton:
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
    query_id: str
    user: FakeUser
    message: FakeMessage
    data: str
    answered: bool = False
    text: str | None = None
    show_alert: bool = False
    url: str | None = None
    cache_time: int | None = None


@dataclass(eq=False)
class _Fault:
    status: int
    retry_after: int | None
    description: str | None
    mode: str  # "error", "drop", "drop_after"


# --------------------------------------------------------------------------------------------
# Entity parsers (modelled on tdlib's parse_html / parse_markdown_v2 / parse_markdown)
# --------------------------------------------------------------------------------------------

_HTML_TAGS = frozenset(
    {
        "a",
        "b",
        "strong",
        "i",
        "em",
        "s",
        "strike",
        "del",
        "u",
        "ins",
        "tg-spoiler",
        "tg-emoji",
        "span",
        "pre",
        "code",
        "blockquote",
    }
)
_HTML_SIMPLE = {
    "b": "bold",
    "strong": "bold",
    "i": "italic",
    "em": "italic",
    "u": "underline",
    "ins": "underline",
    "s": "strikethrough",
    "strike": "strikethrough",
    "del": "strikethrough",
    "tg-spoiler": "spoiler",
    "span": "spoiler",
}
_NAMED_ENTITIES = {"lt": "<", "gt": ">", "amp": "&", "quot": '"'}


class _Out:
    """Accumulates parsed text while tracking the UTF-16 offset."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.u16 = 0

    def add(self, s: str) -> None:
        self.parts.append(s)
        self.u16 += _utf16_len(s)

    def text(self) -> str:
        return "".join(self.parts)


def _decode_html_entity(text: str, i: int) -> tuple[str, int] | None:
    """Decode an HTML entity at text[i] == '&'; returns (char, next index) or None."""
    n = len(text)
    j = i + 1
    if j < n and text[j] == "#":
        j += 1
        value = 0
        digits = 0
        if j < n and text[j] == "x":
            j += 1
            while j < n and text[j] in "0123456789abcdefABCDEF":
                value = value * 16 + int(text[j], 16)
                j += 1
                digits += 1
                if value >= 0x10FFFF:
                    return None
        else:
            while j < n and text[j].isascii() and text[j].isdigit():
                value = value * 10 + int(text[j])
                j += 1
                digits += 1
                if value >= 0x10FFFF:
                    return None
        if not digits or value == 0 or 0xD800 <= value <= 0xDFFF:
            return None
        ch = chr(value)
    else:
        while j < n and text[j].isascii() and text[j].isalpha():
            j += 1
        name = text[i + 1 : j]
        if name not in _NAMED_ENTITIES:
            return None
        ch = _NAMED_ENTITIES[name]
    if j < n and text[j] == ";":
        j += 1
    return ch, j


def parse_html(text: str, *, strict: bool = True) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram HTML. Returns (plain text, entities); raises ApiError like Telegram."""
    out = _Out()
    entities: list[dict[str, Any]] = []
    stack: list[tuple[str, int, dict[str, Any]]] = []  # (tag, utf16 start, extra)
    n = len(text)
    i = 0

    def err(msg: str) -> ApiError:
        return ApiError(f"Bad Request: can't parse entities: {msg}")

    while i < n:
        c = text[i]
        if c == "&":
            decoded = _decode_html_entity(text, i)
            if decoded is not None:
                out.add(decoded[0])
                i = decoded[1]
                continue
            if strict:
                raise err(
                    f"[fake, strict_html] stray '&' at byte offset {_byte_offset(text, i)}; "
                    "escape it as &amp; (the real server would keep it literally)"
                )
        if c != "<":
            out.add(c)
            i += 1
            continue
        begin = i
        i += 1
        if i < n and text[i] == "/":
            # end tag
            if not stack:
                raise err(f"Unexpected end tag at byte offset {_byte_offset(text, begin)}")
            i += 1
            j = i
            while j < n and not text[j].isspace() and text[j] != ">":
                j += 1
            end_name = text[i:j].lower()
            while j < n and text[j].isspace():
                j += 1
            if j >= n or text[j] != ">":
                raise err(f"Unclosed end tag at byte offset {_byte_offset(text, begin)}")
            tag, start, attrs = stack.pop()
            if end_name and end_name != tag:
                raise err(
                    f"Unmatched end tag at byte offset {_byte_offset(text, begin)}, "
                    f'expected "</{tag}>", found "</{end_name}>"'
                )
            i = j + 1
            length = out.u16 - start
            if length <= 0:
                continue
            entity = _html_entity(tag, start, length, attrs, stack)
            if entity is not None:
                entities.append(entity)
            continue
        # start tag
        j = i
        while j < n and not text[j].isspace() and text[j] != ">":
            j += 1
        if j >= n:
            raise err(f"Unclosed start tag at byte offset {_byte_offset(text, begin)}")
        tag = text[i:j].lower()
        if tag not in _HTML_TAGS:
            raise err(f'Unsupported start tag "{tag}" at byte offset {_byte_offset(text, begin)}')
        extra: dict[str, Any] = {}
        i = j
        while True:
            while i < n and text[i].isspace():
                i += 1
            if i >= n:
                raise err(f"Unclosed start tag at byte offset {_byte_offset(text, begin)}")
            if text[i] == ">":
                i += 1
                break
            a = i
            while i < n and not text[i].isspace() and text[i] not in "=>":
                i += 1
            attr = text[a:i].lower()
            if not attr:
                raise err(
                    f'Empty attribute name in the tag "{tag}" at byte offset '
                    f"{_byte_offset(text, begin)}"
                )
            while i < n and text[i].isspace():
                i += 1
            if i >= n or text[i] != "=":
                if tag == "blockquote" and attr == "expandable":
                    extra["expandable"] = True
                    continue
                if i < n and text[i] == ">":
                    continue
                raise err(
                    f'Expected equal sign in declaration of an attribute of the tag "{tag}" at '
                    f"byte offset {_byte_offset(text, begin)}"
                )
            i += 1
            while i < n and text[i].isspace():
                i += 1
            if i >= n:
                raise err(f"Unclosed start tag at byte offset {_byte_offset(text, begin)}")
            if text[i] in "'\"":
                quote = text[i]
                i += 1
                value_parts: list[str] = []
                while i < n and text[i] != quote:
                    if text[i] == "&":
                        decoded = _decode_html_entity(text, i)
                        if decoded is not None:
                            value_parts.append(decoded[0])
                            i = decoded[1]
                            continue
                    value_parts.append(text[i])
                    i += 1
                if i >= n:
                    raise err(f"Unclosed start tag at byte offset {_byte_offset(text, begin)}")
                i += 1
                value = "".join(value_parts)
            else:
                t = i
                while i < n and (text[i].isalnum() or text[i] in ".-"):
                    i += 1
                value = text[t:i].lower()
                if i < n and not text[i].isspace() and text[i] != ">":
                    raise err(
                        f"Unexpected end of name token at byte offset {_byte_offset(text, t)}"
                    )
            if tag == "a" and attr == "href":
                extra["url"] = value
            elif tag == "code" and attr == "class" and value.startswith("language-"):
                extra["language"] = value[len("language-") :]
            elif tag == "span" and attr == "class":
                extra["class"] = value
            elif tag == "tg-emoji" and attr == "emoji-id":
                extra["custom_emoji_id"] = value
        if tag == "span" and extra.get("class") != "tg-spoiler":
            raise err(
                f'Tag "span" must have class "tg-spoiler" at byte offset '
                f"{_byte_offset(text, begin)}"
            )
        stack.append((tag, out.u16, extra))
    if stack:
        raise err(f'Can\'t find end tag corresponding to start tag "{stack[-1][0]}"')
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return out.text(), entities


def _html_entity(
    tag: str, start: int, length: int, extra: dict[str, Any], stack: list[Any]
) -> dict[str, Any] | None:
    base = {"offset": start, "length": length}
    if tag in _HTML_SIMPLE:
        return {"type": _HTML_SIMPLE[tag], **base}
    if tag == "a":
        url = extra.get("url")
        if not url:
            return None
        return {"type": "text_link", **base, "url": url}
    if tag == "code":
        if stack and stack[-1][0] == "pre":
            # <pre><code class="language-x">: the language goes to the enclosing pre
            if "language" in extra:
                stack[-1][2]["language"] = extra["language"]
            return None
        return {"type": "code", **base}
    if tag == "pre":
        if "language" in extra:
            return {"type": "pre", **base, "language": extra["language"]}
        return {"type": "pre", **base}
    if tag == "blockquote":
        kind = "expandable_blockquote" if extra.get("expandable") else "blockquote"
        return {"type": kind, **base}
    if tag == "tg-emoji":
        if "custom_emoji_id" not in extra:
            return None
        return {"type": "custom_emoji", **base, "custom_emoji_id": extra["custom_emoji_id"]}
    return None


_MDV2_RESERVED = "_*[]()~`>#+-=|{}.!"
_MDV2_NAMES = {
    "bold": "Bold",
    "italic": "Italic",
    "underline": "Underline",
    "strikethrough": "Strikethrough",
    "spoiler": "Spoiler",
    "code": "Code",
    "pre": "Pre",
    "text_link": "TextUrl",
    "custom_emoji": "CustomEmoji",
}


def parse_markdown_v2(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Parse Telegram MarkdownV2 (after tdlib's parse_markdown_v2)."""
    out = _Out()
    entities: list[dict[str, Any]] = []
    # (type, utf16 start, byte offset, result char index, extra)
    stack: list[tuple[str, int, int, int, dict[str, Any]]] = []
    n = len(text)
    i = 0
    quote_start: int | None = None  # utf16 start of an open blockquote
    at_line_start = True

    def err(msg: str) -> ApiError:
        return ApiError(f"Bad Request: can't parse entities: {msg}")

    def reserved(ch: str) -> ApiError:
        return err(f"Character '{ch}' is reserved and must be escaped with the preceding '\\'")

    def close_quote() -> None:
        nonlocal quote_start
        if quote_start is not None:
            length = out.u16 - quote_start
            if out.parts and out.parts[-1] == "\n":
                length -= 1
            if length > 0:
                entities.append({"type": "blockquote", "offset": quote_start, "length": length})
            quote_start = None

    while i < n:
        c = text[i]
        if at_line_start:
            at_line_start = False
            if c == ">" and not stack:
                if quote_start is None:
                    quote_start = out.u16
                i += 1
                continue
            close_quote()
        if c == "\\" and i + 1 < n and 0 < ord(text[i + 1]) <= 126:
            out.add(text[i + 1])
            i += 2
            continue
        in_code = bool(stack) and stack[-1][0] in ("code", "pre")
        reserved_chars = "`" if in_code else _MDV2_RESERVED
        if c not in reserved_chars:
            out.add(c)
            if c == "\n":
                at_line_start = True
            i += 1
            continue
        nxt = text[i + 1] if i + 1 < n else ""
        nxt2 = text[i + 2] if i + 2 < n else ""
        is_end = False
        if stack:
            top = stack[-1][0]
            is_end = {
                "bold": c == "*",
                "italic": c == "_" and nxt != "_",
                "code": c == "`",
                "pre": c == "`" and nxt == "`" and nxt2 == "`",
                "text_link": c == "]",
                "underline": c == "_" and nxt == "_",
                "strikethrough": c == "~",
                "spoiler": c == "|" and nxt == "|",
                "custom_emoji": c == "]",
            }[top]
        if not is_end:
            byte_off = _byte_offset(text, i)
            extra: dict[str, Any] = {}
            if c == "_":
                if nxt == "_":
                    kind = "underline"
                    i += 1
                else:
                    kind = "italic"
            elif c == "*":
                kind = "bold"
            elif c == "~":
                kind = "strikethrough"
            elif c == "|":
                if nxt != "|":
                    raise reserved(c)
                kind = "spoiler"
                i += 1
            elif c == "[":
                kind = "text_link"
            elif c == "`":
                if nxt == "`" and nxt2 == "`":
                    kind = "pre"
                    i += 3
                    j = i
                    while j < n and not text[j].isspace() and text[j] != "`":
                        j += 1
                    if j != i and j < n and text[j] != "`":
                        extra["language"] = text[i:j]
                        i = j
                    if i < n and text[i] in "\r\n":
                        if i + 1 < n and text[i + 1] in "\r\n" and text[i] != text[i + 1]:
                            i += 2
                        else:
                            i += 1
                    i -= 1
                else:
                    kind = "code"
            elif c == "!":
                if nxt != "[":
                    raise reserved(c)
                kind = "custom_emoji"
                i += 1
            else:
                raise reserved(c)
            stack.append((kind, out.u16, byte_off, len(out.text()), extra))
            i += 1
            continue
        kind, start, _byte_off, char_start, extra = stack.pop()
        if kind in ("underline", "spoiler"):
            i += 1
        elif kind == "pre":
            i += 2
        elif kind in ("text_link", "custom_emoji"):
            if i + 1 < n and text[i + 1] == "(":
                i += 2
                url_begin = i
                url_parts: list[str] = []
                while i < n and text[i] != ")":
                    if text[i] == "\\" and i + 1 < n and 0 < ord(text[i + 1]) <= 126:
                        url_parts.append(text[i + 1])
                        i += 2
                        continue
                    url_parts.append(text[i])
                    i += 1
                if i >= n:
                    raise err(
                        f"Can't find end of a URL at byte offset {_byte_offset(text, url_begin)}"
                    )
                url = "".join(url_parts)
            else:
                url = out.text()[char_start:]
            if kind == "text_link":
                extra["url"] = url
            else:
                extra["custom_emoji_id"] = url.removeprefix("tg://emoji?id=")
        i += 1
        length = out.u16 - start
        if length > 0:
            entities.append({"type": kind, "offset": start, "length": length, **extra})
    if stack:
        kind, _start, byte_off, _c, _e = stack[-1]
        raise err(f"Can't find end of {_MDV2_NAMES[kind]} entity at byte offset {byte_off}")
    close_quote()
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return out.text(), entities


def parse_markdown(text: str) -> tuple[str, list[dict[str, Any]]]:
    """Parse legacy Telegram Markdown: *bold* _italic_ `code` ```pre``` [text](url)."""
    out = _Out()
    entities: list[dict[str, Any]] = []
    n = len(text)
    i = 0
    ends = {"*": "*", "_": "_", "`": "`", "[": "]"}
    kinds = {"*": "bold", "_": "italic", "`": "code", "[": "text_link"}
    while i < n:
        c = text[i]
        if c == "\\" and i + 1 < n and text[i + 1] in "_*`[":
            out.add(text[i + 1])
            i += 2
            continue
        if c not in ends:
            out.add(c)
            i += 1
            continue
        begin_byte = _byte_offset(text, i)
        start = out.u16
        if c == "`" and text.startswith("```", i):
            j = text.find("```", i + 3)
            if j < 0:
                raise ApiError(
                    "Bad Request: can't parse entities: Can't find end of the entity starting "
                    f"at byte offset {begin_byte}"
                )
            body = text[i + 3 : j]
            language = None
            first, sep, rest = body.partition("\n")
            if sep and first and " " not in first:
                language, body = first, rest
            out.add(body)
            entity: dict[str, Any] = {"type": "pre", "offset": start, "length": out.u16 - start}
            if language:
                entity["language"] = language
            if entity["length"]:
                entities.append(entity)
            i = j + 3
            continue
        j = text.find(ends[c], i + 1)
        if j < 0:
            raise ApiError(
                "Bad Request: can't parse entities: Can't find end of the entity starting at "
                f"byte offset {begin_byte}"
            )
        out.add(text[i + 1 : j])
        entity = {"type": kinds[c], "offset": start, "length": out.u16 - start}
        i = j + 1
        if c == "[":
            if i < n and text[i] == "(":
                k = text.find(")", i)
                if k < 0:
                    raise ApiError(
                        "Bad Request: can't parse entities: Can't find end of a URL at byte "
                        f"offset {_byte_offset(text, i)}"
                    )
                entity["url"] = text[i + 1 : k]
                i = k + 1
            else:
                entity = {}
        if entity and entity["length"]:
            entities.append(entity)
    return out.text(), entities


def _trim(text: str, entities: list[dict[str, Any]]) -> tuple[str, list[dict[str, Any]]]:
    """Strip leading/trailing whitespace like the server does, shifting/clipping entities."""
    stripped = text.strip()
    if stripped == text:
        return text, entities
    lead = _utf16_len(text[: len(text) - len(text.lstrip())])
    total = _utf16_len(stripped)
    result = []
    for e in entities:
        start = max(e["offset"] - lead, 0)
        end = min(e["offset"] + e["length"] - lead, total)
        if end > start:
            result.append({**e, "offset": start, "length": end - start})
    return stripped, result


# --------------------------------------------------------------------------------------------
# Parameter decoding
# --------------------------------------------------------------------------------------------

STR, INT, BOOL, JSON, CHAT, FILE = "str", "int", "bool", "json", "chat", "file"

_COMMON_SEND = {
    "chat_id": CHAT,
    "message_thread_id": INT,
    "reply_markup": JSON,
    "reply_parameters": JSON,
    "reply_to_message_id": INT,
    "allow_sending_without_reply": BOOL,
    # accepted; their effect is not simulated (nothing observable in a fake)
    "disable_notification": BOOL,
    "protect_content": BOOL,
    "allow_paid_broadcast": BOOL,
    "message_effect_id": STR,
}

_SPECS: dict[str, dict[str, str]] = {
    "getMe": {},
    "logOut": {},
    "close": {},
    "getWebhookInfo": {},
    "deleteWebhook": {"drop_pending_updates": BOOL},
    "setWebhook": {
        "url": STR,
        "secret_token": STR,
        "allowed_updates": JSON,
        "drop_pending_updates": BOOL,
        "max_connections": INT,
        "ip_address": STR,
    },
    "getUpdates": {"offset": INT, "limit": INT, "timeout": INT, "allowed_updates": JSON},
    "sendMessage": {
        **_COMMON_SEND,
        "text": STR,
        "parse_mode": STR,
        "entities": JSON,
        "link_preview_options": JSON,
        "disable_web_page_preview": BOOL,
    },
    "sendPhoto": {
        **_COMMON_SEND,
        "photo": FILE,
        "caption": STR,
        "parse_mode": STR,
        "caption_entities": JSON,
        "has_spoiler": BOOL,
        "show_caption_above_media": BOOL,
    },
    "editMessageText": {
        "chat_id": CHAT,
        "message_id": INT,
        "inline_message_id": STR,
        "text": STR,
        "parse_mode": STR,
        "entities": JSON,
        "reply_markup": JSON,
        "link_preview_options": JSON,
        "disable_web_page_preview": BOOL,
    },
    "editMessageCaption": {
        "chat_id": CHAT,
        "message_id": INT,
        "inline_message_id": STR,
        "caption": STR,
        "parse_mode": STR,
        "caption_entities": JSON,
        "reply_markup": JSON,
        "show_caption_above_media": BOOL,
    },
    "editMessageReplyMarkup": {
        "chat_id": CHAT,
        "message_id": INT,
        "inline_message_id": STR,
        "reply_markup": JSON,
    },
    "deleteMessage": {"chat_id": CHAT, "message_id": INT},
    "answerCallbackQuery": {
        "callback_query_id": STR,
        "text": STR,
        "show_alert": BOOL,
        "url": STR,
        "cache_time": INT,
    },
    "setMyCommands": {"commands": JSON, "scope": JSON, "language_code": STR},
    "getMyCommands": {"scope": JSON, "language_code": STR},
    "deleteMyCommands": {"scope": JSON, "language_code": STR},
    "getChat": {"chat_id": CHAT},
    "getChatMember": {"chat_id": CHAT, "user_id": INT},
    "getChatAdministrators": {"chat_id": CHAT},
    "sendChatAction": {"chat_id": CHAT, "action": STR, "message_thread_id": INT},
    "getFile": {"file_id": STR},
}

# things that change behaviour and that the fake does not simulate: refuse loudly
_UNSUPPORTED_PARAMS = {"inline_message_id", "business_connection_id"}


def _decode_value(name: str, kind: str, value: Any, from_form: bool) -> Any:
    if kind == FILE:
        return value
    if kind == STR:
        if isinstance(value, str):
            return value
        if not from_form and isinstance(value, int | float) and not isinstance(value, bool):
            return str(value)
        raise _Unhandled(f"parameter {name!r} should be a string, got {value!r}")
    if kind == JSON:
        if from_form:
            if not isinstance(value, str):
                raise _Unhandled(f"parameter {name!r}: unexpected upload")
            try:
                return json.loads(value)
            except ValueError as exc:
                raise ApiError(f"Bad Request: can't parse {name} JSON object") from exc
        if isinstance(value, str):
            try:
                return json.loads(value)
            except ValueError:
                return value
        return value
    if kind == INT:
        if isinstance(value, bool):
            raise _Unhandled(f"parameter {name!r} should be an integer, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                pass
        raise _Unhandled(f"parameter {name!r} should be an integer, got {value!r}")
    if kind == BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "1", "false", "0"):
            return value.lower() in ("true", "1")
        if isinstance(value, int):
            return bool(value)
        raise _Unhandled(f"parameter {name!r} should be a boolean, got {value!r}")
    if kind == CHAT:
        if isinstance(value, bool):
            raise _Unhandled(f"chat_id should be an integer or @username, got {value!r}")
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return int(value)
            except ValueError:
                return value
        raise _Unhandled(f"chat_id should be an integer or @username, got {value!r}")
    raise AssertionError(kind)


# --------------------------------------------------------------------------------------------
# Image helpers
# --------------------------------------------------------------------------------------------


def _image_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        w, h = struct.unpack("<HH", data[6:10])
        return w, h
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return 1, 1
    if data.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD):
                h, w = struct.unpack(">HH", data[i + 5 : i + 9])
                return w, h
            (seg,) = struct.unpack(">H", data[i + 2 : i + 4])
            i += 2 + seg
        return 1, 1
    return None


# --------------------------------------------------------------------------------------------
# The fake server
# --------------------------------------------------------------------------------------------


class FakeTelegram:
    """A fake Telegram Bot API server plus a test-side API that reads like a user."""

    def __init__(
        self,
        token: str = "123456:TEST",
        *,
        username: str = "general_test_bot",
        first_name: str = "General Test Bot",
        strict_html: bool = True,
        privacy_mode: bool = False,
        host: str = "127.0.0.1",
    ) -> None:
        if not re.fullmatch(r"\d+:[A-Za-z0-9_-]+", token):
            raise ValueError(f"malformed bot token {token!r}")
        self.token = token
        self.strict_html = strict_html
        self.privacy_mode = privacy_mode
        self.host = host
        self.bot_user = FakeUser(
            int(token.split(":")[0]), first_name, username=username, is_bot=True
        )
        self.users: dict[int, FakeUser] = {self.bot_user.id: self.bot_user}
        self.chats: dict[int, FakeChat] = {}
        self.requests: list[tuple[str, dict[str, Any]]] = []
        self.unhandled: list[str] = []
        self.commands: dict[tuple[str, str], list[dict[str, str]]] = {}
        self.callback_queries: dict[str, CallbackAnswer] = {}
        self.chat_actions: list[tuple[int, str, int | None]] = []
        self.webhook_deleted = 0
        self.webhook: dict[str, Any] | None = None
        self.webhook_deliveries: list[tuple[int, int]] = []  # (update_id, status; 0: none)
        self._deliveries: set[asyncio.Task[None]] = set()
        self._webhook_session: Any = None
        self.conflicts = 0
        self._messages: dict[int, list[FakeMessage]] = {}
        self._by_id: dict[tuple[int, int], FakeMessage] = {}
        self._next_message_id: dict[int, int] = {}
        self._topics: dict[tuple[int, int], FakeMessage] = {}
        self._members: dict[tuple[int, int], dict[str, Any]] = {}
        self._seen_in_chat: set[tuple[int, int]] = set()
        self._blocked: set[int] = set()
        self._files: dict[str, tuple[bytes | None, dict[str, Any]]] = {}
        self._faults: dict[str, list[_Fault]] = {}
        self._updates: list[dict[str, Any]] = []
        self._update_ids = itertools.count(700_000_001)
        self._query_ids = itertools.count(4_300_000_000_000_000_001)
        self._allowed_updates: list[str] | None = None
        self._update_arrived = asyncio.Event()
        self._poll_generation = 0
        self._changed = asyncio.Event()
        self._inflight = 0
        self._last_activity = time.monotonic()
        self._stopping = False
        self._runner: web.AppRunner | None = None
        self._port: int | None = None

    # ---------------------------------------------------------------- lifecycle

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_route("*", "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(
            app, access_log=None, handler_cancellation=True, shutdown_timeout=1.0
        )
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self._port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        self._stopping = True
        self._update_arrived.set()
        for task in list(self._deliveries):
            task.cancel()
        await asyncio.gather(*self._deliveries, return_exceptions=True)
        if self._webhook_session is not None:
            await self._webhook_session.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeTelegram:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def port(self) -> int:
        if self._port is None:
            raise RuntimeError("FakeTelegram is not started")
        return self._port

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}/bot"

    @property
    def base_file_url(self) -> str:
        return f"http://{self.host}:{self.port}/file/bot"

    # ---------------------------------------------------------------- world building

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

    def create_topic(
        self,
        chat: FakeChat,
        name: str = "Topic",
        *,
        by: FakeUser | None = None,
        thread_id: int | None = None,
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
            forum_topic_created={"name": name, "icon_color": 7322096},
        )
        self._store(msg)
        self._topics[(chat.id, mid)] = msg
        return mid

    def _some_member(self, chat: FakeChat) -> FakeUser:
        for (cid, uid), info in self._members.items():
            if cid == chat.id and info["status"] == "creator":
                return self.users[uid]
        return self.bot_user

    # ---------------------------------------------------------------- user actions

    async def send_message(
        self,
        user: FakeUser,
        chat: FakeChat,
        text: str,
        *,
        thread_id: int | None = None,
        reply_to: FakeMessage | None = None,
    ) -> FakeMessage:
        """``user`` writes ``text`` in ``chat`` (in forum topic ``thread_id``); the bot gets an
        update. A leading /command gets a bot_command entity, as do commands later in the text."""
        if user.is_bot:
            raise ValueError("bots don't receive messages from bots")
        if chat.id not in self.chats:
            raise ValueError(f"unknown chat {chat.id}")
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
            entities=self._command_entities(text),
            reply_to=reply_to if reply_to is not None else topic_created,
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
    def _command_entities(text: str) -> list[dict[str, Any]]:
        entities = []
        for m in re.finditer(
            r"(?<![\w/])/[A-Za-z0-9_]{1,64}(?:@[A-Za-z0-9_]{3,32})?(?![\w@/])", text
        ):
            entities.append(
                {
                    "type": "bot_command",
                    "offset": _utf16_len(text[: m.start()]),
                    "length": _utf16_len(m.group()),
                }
            )
        return entities

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

    # ---------------------------------------------------------------- what the bot did

    def messages(self, chat: FakeChat, thread_id: int | None = None) -> list[FakeMessage]:
        """All messages in ``chat`` in order (service messages excluded). ``thread_id``: only
        that forum topic / thread; 0 means messages outside any thread; None means all."""
        result = [m for m in self._messages.get(chat.id, []) if m.forum_topic_created is None]
        if thread_id is None:
            return result
        if thread_id == 0:
            return [m for m in result if m.thread_id is None]
        return [m for m in result if m.thread_id == thread_id]

    def bot_messages(self, chat: FakeChat, thread_id: int | None = None) -> list[FakeMessage]:
        """Messages the bot sent in ``chat``, in order, deleted ones included (``.deleted``)."""
        return [m for m in self.messages(chat, thread_id) if m.is_bot]

    def last_bot_message(self, chat: FakeChat, thread_id: int | None = None) -> FakeMessage:
        sent = self.bot_messages(chat, thread_id)
        if not sent:
            where = f" thread {thread_id}" if thread_id is not None else ""
            raise AssertionError(
                f"the bot sent no message in chat {chat.id}{where}; "
                f"recent requests: {self._recent_requests()}"
            )
        return sent[-1]

    @property
    def pending_updates(self) -> list[dict[str, Any]]:
        """Updates not yet confirmed by the bot through getUpdates' offset."""
        return list(self._updates)

    def message(self, chat: FakeChat, message_id: int) -> FakeMessage:
        return self._by_id[(chat.id, message_id)]

    def calls(self, method: str) -> list[dict[str, Any]]:
        """Parameters of every request for ``method``, in order."""
        return [params for m, params in self.requests if m == method]

    def commands_for(
        self, scope: dict[str, Any] | None = None, language_code: str = ""
    ) -> list[dict[str, str]]:
        return self.commands.get((self._scope_key(scope), language_code), [])

    # ---------------------------------------------------------------- waiting

    async def wait_for(
        self,
        predicate: Callable[[], Any],
        timeout: float = 5.0,
        message: str | None = None,
    ) -> Any:
        """Wait until ``predicate()`` is truthy and return its value."""
        deadline = time.monotonic() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError(
                    f"wait_for timed out after {timeout}s: {message or self._describe(predicate)}"
                    f"\n  unhandled: {self.unhandled}\n  recent requests: "
                    f"{self._recent_requests()}"
                )
            with contextlib.suppress(TimeoutError):
                # Every change sets the event; the cap only covers state that changes silently.
                await asyncio.wait_for(self._changed.wait(), min(remaining, 0.1))

    async def settle(self, quiet: float = 0.05, timeout: float = 5.0) -> None:
        """Wait until no request is in flight, every update was confirmed by getUpdates, and
        nothing happened for ``quiet`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            now = time.monotonic()
            busy = self._inflight > 0 or bool(self._updates)
            if not busy and now - self._last_activity >= quiet:
                return
            if now >= deadline:
                raise AssertionError(
                    f"settle timed out after {timeout}s: {self._inflight} requests in flight, "
                    f"{len(self._updates)} updates not confirmed through getUpdates "
                    f"(is the bot polling?)\n  recent requests: {self._recent_requests()}"
                )
            await asyncio.sleep(min(quiet / 4, 0.01))

    @staticmethod
    def _describe(predicate: Callable[[], Any]) -> str:
        try:
            return inspect.getsource(predicate).strip()
        except (OSError, TypeError):
            return repr(predicate)

    def _recent_requests(self, n: int = 8) -> list[str]:
        recent = [(m, p) for m, p in self.requests if m != "getUpdates"][-n:]
        return [f"{m}({p})" for m, p in recent]

    def _notify(self) -> None:
        self._last_activity = time.monotonic()
        self._changed.set()
        self._changed = asyncio.Event()

    # ---------------------------------------------------------------- faults

    def fail_next(
        self,
        method: str,
        status: int = 429,
        *,
        retry_after: int | None = 1,
        times: int = 1,
        description: str | None = None,
        mode: str = "error",
    ) -> None:
        """Make the next ``times`` calls of ``method`` fail.

        mode="error": answer ``status`` (429 carries parameters.retry_after);
        mode="drop": close the connection before doing anything;
        mode="drop_after": perform the call, then close the connection without answering.
        """
        if mode not in ("error", "drop", "drop_after"):
            raise ValueError(f"unknown fault mode {mode!r}")
        if method not in _SPECS:
            raise ValueError(f"the fake does not implement {method!r}; no fault can fire there")
        if status == 429 and mode == "error" and not retry_after:
            raise ValueError("a 429 needs retry_after >= 1 (PTB ignores retry_after=0)")
        self._faults.setdefault(method, []).extend(
            _Fault(status, retry_after if status == 429 else None, description, mode)
            for _ in range(times)
        )

    # ---------------------------------------------------------------- storage helpers

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

    def _push_update(self, payload: dict[str, Any]) -> None:
        update = {"update_id": next(self._update_ids), **payload}
        self._updates.append(update)
        self._update_arrived.set()
        self._notify()
        if self.webhook is not None:
            self._deliver(update)

    # ---------------------------------------------------------------- webhook

    def _deliver(self, update: dict[str, Any]) -> None:
        task = asyncio.create_task(self._post_update(update))
        self._deliveries.add(task)
        task.add_done_callback(self._deliveries.discard)

    async def _post_update(self, update: dict[str, Any]) -> None:
        """POST one update to the webhook, again after a pause until it is taken (as Telegram)."""
        while self.webhook is not None and not self._stopping:
            url, secret = self.webhook["url"], self.webhook.get("secret_token")
            headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret else {}
            if self._webhook_session is None:
                self._webhook_session = aiohttp.ClientSession()
            self._inflight += 1
            try:
                async with self._webhook_session.post(url, json=update, headers=headers) as resp:
                    delivered = resp.status == 200
                    self.webhook_deliveries.append((update["update_id"], resp.status))
            except aiohttp.ClientError:
                delivered = False
                self.webhook_deliveries.append((update["update_id"], 0))
            finally:
                self._inflight -= 1
            if delivered:
                self._updates = [u for u in self._updates if u is not update]
                self._notify()
                return
            await asyncio.sleep(0.2)

    # ---------------------------------------------------------------- HTTP

    def _json(self, status: int, payload: dict[str, Any]) -> web.Response:
        return web.Response(
            status=status,
            body=json.dumps(payload, ensure_ascii=False).encode(),
            content_type="application/json",
        )

    def _error(
        self, status: int, description: str, parameters: dict[str, Any] | None = None
    ) -> web.Response:
        payload: dict[str, Any] = {"ok": False, "error_code": status, "description": description}
        if parameters:
            payload["parameters"] = parameters
        return self._json(status, payload)

    async def _handle(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        m = re.fullmatch(r"/file/bot([^/]+)/(.+)", path)
        if m:
            return self._serve_file(m.group(1), m.group(2))
        m = re.fullmatch(r"/bot([^/]*)/([A-Za-z0-9_]*)", path)
        if not m:
            self.unhandled.append(f"{request.method} {path}: not a Bot API URL")
            return self._error(404, "Not Found")
        token, method = m.group(1), m.group(2)
        if token != self.token:
            if re.fullmatch(r"\d+:[A-Za-z0-9_-]+", token):
                return self._error(401, "Unauthorized")
            return self._error(404, "Not Found")
        canonical = {k.lower(): k for k in _SPECS}.get(method.lower())
        self._inflight += 1
        self._notify()
        try:
            return await self._dispatch(request, canonical or method, known=canonical is not None)
        finally:
            self._inflight -= 1
            self._notify()

    async def _dispatch(self, request: web.Request, method: str, known: bool) -> web.StreamResponse:
        try:
            raw, from_form = await self._read_params(request)
        except _Unhandled as exc:
            self.requests.append((method, {}))
            self.unhandled.append(f"{method}: {exc.reason}")
            return self._error(exc.status, f"Bad Request: {exc.reason}")
        if not known:
            self.requests.append((method, dict(raw)))
            self.unhandled.append(f"{method}: unknown method (params {sorted(raw)})")
            return self._error(404, "Not Found")
        try:
            params = self._decode(method, raw, from_form)
        except _Unhandled as exc:
            self.requests.append((method, {k: v for k, v in raw.items() if isinstance(v, str)}))
            self.unhandled.append(f"{method}: {exc.reason}")
            return self._error(exc.status, f"Bad Request: [fake] {exc.reason}")
        except ApiError as exc:
            self.requests.append((method, dict(raw)))
            return self._error(exc.status, exc.description, exc.parameters)
        self.requests.append((method, params))

        fault = None
        if self._faults.get(method):
            fault = self._faults[method].pop(0)
        if fault is not None and fault.mode == "drop":
            return self._drop(request)
        if fault is not None and fault.mode == "error":
            return self._fault_response(fault)

        handler = getattr(self, "_api_" + method)
        try:
            result = await handler(params)
        except _Unhandled as exc:
            self.unhandled.append(f"{method}: {exc.reason}")
            return self._error(exc.status, f"Bad Request: [fake] {exc.reason}")
        except ApiError as exc:
            return self._error(exc.status, exc.description, exc.parameters)
        if fault is not None:  # drop_after
            return self._drop(request)
        return self._json(200, {"ok": True, "result": result})

    def _fault_response(self, fault: _Fault) -> web.Response:
        status = fault.status
        if status == 429:
            desc = fault.description or f"Too Many Requests: retry after {fault.retry_after}"
            return self._error(429, desc, {"retry_after": fault.retry_after})
        defaults = {
            400: "Bad Request",
            403: "Forbidden: bot was blocked by the user",
            500: "Internal Server Error",
            502: "Bad Gateway",
            503: "Service Unavailable",
            504: "Gateway Timeout",
        }
        return self._error(status, fault.description or defaults.get(status, "Error"))

    @staticmethod
    def _drop(request: web.Request) -> web.StreamResponse:
        transport = request.transport
        if transport is not None:
            transport.abort()
        # aiohttp notices the dead connection and discards whatever follows
        return web.Response(status=204)

    async def _read_params(self, request: web.Request) -> tuple[dict[str, Any], bool]:
        params: dict[str, Any] = dict(request.query)
        if request.method not in ("POST", "GET"):
            raise _Unhandled(f"HTTP method {request.method}", status=405)
        if request.method == "GET" or not request.can_read_body:
            return params, True
        ctype = request.content_type
        if ctype == "application/json":
            try:
                body = await request.json()
            except ValueError as exc:
                raise _Unhandled("malformed JSON body") from exc
            if not isinstance(body, dict):
                raise _Unhandled("JSON body is not an object")
            params.update(body)
            return params, False
        if ctype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            form = await request.post()
            for key in form:
                values = form.getall(key)
                if len(values) > 1:
                    raise _Unhandled(f"parameter {key!r} given {len(values)} times")
                value = values[0]
                if isinstance(value, web.FileField):
                    params[key] = {
                        "filename": value.filename,
                        "content_type": value.content_type,
                        "data": value.file.read(),
                    }
                else:
                    params[key] = value
            return params, True
        raise _Unhandled(f"unsupported content type {ctype!r}")

    def _decode(self, method: str, raw: dict[str, Any], from_form: bool) -> dict[str, Any]:
        spec = _SPECS[method]
        params: dict[str, Any] = {}
        for name, value in raw.items():
            kind = spec.get(name)
            if kind is None:
                raise _Unhandled(f"unknown parameter {name!r}={value!r}")
            if name in _UNSUPPORTED_PARAMS:
                raise _Unhandled(f"parameter {name!r} is not simulated")
            if isinstance(value, dict) and "data" in value and kind != FILE and from_form:
                raise _Unhandled(f"parameter {name!r} was uploaded as a file")
            params[name] = _decode_value(name, kind, value, from_form)
        return params

    def _serve_file(self, token: str, file_path: str) -> web.Response:
        if token != self.token:
            return self._error(401, "Unauthorized")
        for data, info in self._files.values():
            if info.get("file_path") == file_path and data is not None:
                return web.Response(body=data, content_type="application/octet-stream")
        return self._error(404, "Not Found")

    # ---------------------------------------------------------------- lookups

    def _get_chat(self, chat_id: Any) -> FakeChat:
        if isinstance(chat_id, str):
            name = chat_id.removeprefix("@").lower()
            for c in self.chats.values():
                if c.username and c.username.lower() == name and c.type != "private":
                    return c
            raise ApiError("Bad Request: chat not found")
        if chat_id is None:
            raise ApiError("Bad Request: chat_id is empty")
        chat = self.chats.get(chat_id)
        if chat is None:
            if chat_id in self.users and chat_id > 0:
                raise ApiError("Forbidden: bot can't initiate conversation with a user", 403)
            raise ApiError("Bad Request: chat not found")
        return chat

    def _check_can_send(self, chat: FakeChat) -> None:
        if chat.type == "private" and chat.id in self._blocked:
            raise ApiError("Forbidden: bot was blocked by the user", 403)
        status = self._member_info(chat, self.bot_user)["status"]
        if chat.type != "private" and status in ("left", "kicked"):
            raise ApiError(f"Forbidden: bot is not a member of the {chat.type} chat", 403)

    def _member_info(self, chat: FakeChat, user: FakeUser) -> dict[str, Any]:
        info = self._members.get((chat.id, user.id))
        if info is not None:
            return info
        if chat.type == "private":
            return {"status": "member"}
        if user.is_bot or (chat.id, user.id) in self._seen_in_chat:
            return {"status": "member"}
        return {"status": "left"}

    def _get_message(self, chat: FakeChat, message_id: Any, missing: str) -> FakeMessage:
        if message_id is None:
            raise ApiError("Bad Request: message identifier is not specified")
        msg = self._by_id.get((chat.id, message_id))
        if msg is None or msg.deleted:
            raise ApiError(missing)
        return msg

    # ---------------------------------------------------------------- content validation

    def _parse_text(
        self,
        text: str | None,
        parse_mode: str | None,
        entities: Any,
        *,
        limit: int,
        empty: str | None,
        too_long: str,
    ) -> tuple[str, list[dict[str, Any]]]:
        """Parse ``text`` as the server does; ``empty=None`` allows an empty result."""
        if text is None:
            text = ""
        if parse_mode and entities is not None:
            # the server ignores parse_mode when entities are given
            parse_mode = None
        mode = (parse_mode or "").lower()
        if mode == "html":
            plain, ents = parse_html(text, strict=self.strict_html)
        elif mode == "markdownv2":
            plain, ents = parse_markdown_v2(text)
        elif mode == "markdown":
            plain, ents = parse_markdown(text)
        elif mode:
            raise ApiError(f"Bad Request: unsupported parse_mode {parse_mode!r}")
        else:
            plain = text
            ents = self._check_entities(entities, text) if entities is not None else []
        plain, ents = _trim(plain, ents)
        if not plain and empty is not None:
            raise ApiError(empty)
        if len(plain) > limit:
            raise ApiError(too_long)
        return plain, ents

    @staticmethod
    def _check_entities(entities: Any, text: str) -> list[dict[str, Any]]:
        if not isinstance(entities, list):
            raise ApiError("Bad Request: can't parse entities JSON object")
        total = _utf16_len(text)
        result = []
        for e in entities:
            if not isinstance(e, dict) or "type" not in e or "offset" not in e or "length" not in e:
                raise ApiError("Bad Request: can't parse entities: entity is malformed")
            if e["offset"] < 0 or e["length"] <= 0 or e["offset"] + e["length"] > total:
                continue
            result.append(dict(e))
        return result

    def _parse_markup(self, markup: Any, *, inline_only: bool = False) -> list[list[FakeButton]]:
        if markup is None:
            return []
        if not isinstance(markup, dict):
            raise ApiError("Bad Request: can't parse reply keyboard markup JSON object")
        if "inline_keyboard" not in markup:
            if inline_only:
                raise ApiError("Bad Request: inline keyboard expected")
            if any(k in markup for k in ("keyboard", "remove_keyboard", "force_reply")):
                return []
            raise _Unhandled(f"reply_markup {markup!r} is not understood")
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise ApiError(
                "Bad Request: can't parse inline keyboard button: field "
                '"inline_keyboard" must be an Array of Arrays'
            )
        known = {
            "text",
            "url",
            "callback_data",
            "web_app",
            "login_url",
            "switch_inline_query",
            "switch_inline_query_current_chat",
            "switch_inline_query_chosen_chat",
            "copy_text",
            "callback_game",
            "pay",
        }
        result = []
        for row in rows:
            out_row = []
            for raw in row:
                if not isinstance(raw, dict) or not isinstance(raw.get("text"), str):
                    raise ApiError(
                        'Bad Request: can\'t parse inline keyboard button: Field "text" must be '
                        "of type String"
                    )
                unknown = set(raw) - known
                if unknown:
                    raise _Unhandled(f"inline keyboard button fields {sorted(unknown)}")
                kinds = set(raw) - {"text"}
                if not kinds:
                    raise ApiError(
                        "Bad Request: can't parse inline keyboard button: Text buttons are "
                        "unallowed in the inline keyboard"
                    )
                if "callback_data" in raw:
                    data = raw["callback_data"]
                    if not isinstance(data, str):
                        raise ApiError(
                            "Bad Request: can't parse inline keyboard button: Field "
                            '"callback_data" must be of type String'
                        )
                    if not data or len(data.encode("utf-8")) > MAX_CALLBACK_DATA:
                        raise ApiError("Bad Request: BUTTON_DATA_INVALID")
                if "url" in raw and not re.match(r"(https?|tg)://\S+$", str(raw["url"])):
                    raise ApiError("Bad Request: BUTTON_URL_INVALID")
                out_row.append(FakeButton.from_api(raw))
            if out_row:
                result.append(out_row)
        return result

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
                    raise ApiError("Bad Request: message thread not found")
                is_topic = True
                if reply_to is None:
                    reply_to = self._topics[(chat.id, thread_id)]
            elif chat.type == "supergroup":
                if (chat.id, thread_id) not in self._by_id:
                    raise ApiError("Bad Request: message thread not found")
            else:
                # the server ignores message_thread_id in private chats and basic groups
                thread_id = None
        return thread_id, is_topic, reply_to

    # ---------------------------------------------------------------- API methods

    async def _api_getMe(self, p: dict[str, Any]) -> Any:
        return {
            **self.bot_user.to_api(),
            "can_join_groups": True,
            "can_read_all_group_messages": not self.privacy_mode,
            "supports_inline_queries": False,
            "can_connect_to_business": False,
            "has_main_web_app": False,
        }

    async def _api_logOut(self, p: dict[str, Any]) -> Any:
        return True

    async def _api_close(self, p: dict[str, Any]) -> Any:
        return True

    async def _api_setWebhook(self, p: dict[str, Any]) -> Any:
        url = p.get("url") or ""
        if not url:
            return await self._api_deleteWebhook(p)
        if not url.startswith(("http://", "https://")):
            raise ApiError("Bad Request: bad webhook: An HTTPS URL must be provided for webhook")
        if p.get("drop_pending_updates"):
            self._updates.clear()
        self.webhook = {"url": url, "secret_token": p.get("secret_token")}
        for update in list(self._updates):
            self._deliver(update)
        return True

    async def _api_getWebhookInfo(self, p: dict[str, Any]) -> Any:
        return {
            "url": self.webhook["url"] if self.webhook else "",
            "has_custom_certificate": False,
            "pending_update_count": len(self._updates),
        }

    async def _api_deleteWebhook(self, p: dict[str, Any]) -> Any:
        self.webhook_deleted += 1
        self.webhook = None
        if p.get("drop_pending_updates"):
            self._updates.clear()
        return True

    async def _api_getUpdates(self, p: dict[str, Any]) -> Any:
        if self.webhook is not None:
            raise ApiError(
                "Conflict: can't use getUpdates method while webhook is active; "
                "use deleteWebhook to delete the webhook first",
                409,
            )
        offset = p.get("offset")
        limit = p.get("limit") or 100
        limit = min(max(limit, 1), 100)
        timeout = max(p.get("timeout") or 0, 0)
        if "allowed_updates" in p and p["allowed_updates"] is not None:
            allowed = p["allowed_updates"]
            if not isinstance(allowed, list):
                raise ApiError("Bad Request: can't parse allowed_updates JSON array")
            self._allowed_updates = list(allowed) or None
        self._poll_generation += 1
        generation = self._poll_generation
        self._update_arrived.set()  # wakes an older poll, which then answers 409
        self._update_arrived = asyncio.Event()
        self._confirm(offset)
        if not self._deliverable() and timeout > 0 and not self._stopping:
            deadline = time.monotonic() + timeout
            self._inflight -= 1  # an idle long poll is not "in flight" for settle()
            try:
                while True:
                    remaining = deadline - time.monotonic()
                    if remaining <= 0 or self._stopping:
                        break
                    event = self._update_arrived
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(event.wait(), remaining)
                    if generation != self._poll_generation:
                        self.conflicts += 1
                        raise ApiError(CONFLICT, 409)
                    if self._deliverable():
                        break
                    self._update_arrived = asyncio.Event()
            finally:
                self._inflight += 1
        return [dict(u) for u in self._deliverable()[:limit]]

    def _confirm(self, offset: int | None) -> None:
        if not offset:
            return
        if offset > 0:
            self._updates = [u for u in self._updates if u["update_id"] >= offset]
        else:
            self._updates = self._updates[offset:]
        self._notify()

    def _deliverable(self) -> list[dict[str, Any]]:
        if self._allowed_updates:
            self._updates = [u for u in self._updates if any(k in u for k in self._allowed_updates)]
        return self._updates

    async def _api_sendMessage(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        self._check_can_send(chat)
        if "text" not in p:
            raise ApiError(EMPTY_TEXT)
        plain, entities = self._parse_text(
            p["text"],
            p.get("parse_mode"),
            p.get("entities"),
            limit=MAX_TEXT,
            empty=EMPTY_TEXT,
            too_long=TEXT_TOO_LONG,
        )
        markup = self._parse_markup(p.get("reply_markup"))
        thread_id, is_topic, reply_to = self._resolve_thread_and_reply(chat, p)
        msg = FakeMessage(
            message_id=self._alloc_message_id(chat.id),
            chat=chat,
            from_user=self.bot_user,
            date=int(time.time()),
            thread_id=thread_id,
            is_topic_message=is_topic,
            text=p["text"],
            plain_text=plain,
            parse_mode=p.get("parse_mode"),
            entities=entities,
            reply_markup=markup,
            raw_reply_markup=p.get("reply_markup"),
            reply_to=reply_to,
        )
        self._store(msg)
        return msg.to_api()

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
        caption, caption_entities = self._parse_text(
            p.get("caption"),
            p.get("parse_mode"),
            p.get("caption_entities"),
            limit=MAX_CAPTION,
            empty=None,
            too_long=CAPTION_TOO_LONG,
        )
        markup = self._parse_markup(p.get("reply_markup"))
        thread_id, is_topic, reply_to = self._resolve_thread_and_reply(chat, p)
        msg = FakeMessage(
            message_id=self._alloc_message_id(chat.id),
            chat=chat,
            from_user=self.bot_user,
            date=int(time.time()),
            thread_id=thread_id,
            is_topic_message=is_topic,
            caption=p.get("caption"),
            plain_caption=caption or None,
            caption_entities=caption_entities,
            parse_mode=p.get("parse_mode"),
            photo=data,
            photo_info={k: v for k, v in info.items() if k != "url"},
            reply_markup=markup,
            raw_reply_markup=p.get("reply_markup"),
            reply_to=reply_to,
        )
        self._store(msg)
        return msg.to_api()

    def _editable(self, p: dict[str, Any]) -> FakeMessage:
        if p.get("inline_message_id") is not None:
            raise _Unhandled("inline messages are not simulated")
        chat = self._get_chat(p.get("chat_id"))
        msg = self._get_message(chat, p.get("message_id"), "Bad Request: message to edit not found")
        if not msg.is_bot:
            raise ApiError("Bad Request: message can't be edited")
        return msg

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
        if "text" not in p:
            raise ApiError(EMPTY_TEXT)
        plain, entities = self._parse_text(
            p["text"],
            p.get("parse_mode"),
            p.get("entities"),
            limit=MAX_TEXT,
            empty=EMPTY_TEXT,
            too_long=TEXT_TOO_LONG,
        )
        markup = self._parse_markup(p.get("reply_markup"), inline_only=True)
        return self._apply_edit(
            msg,
            text=p["text"],
            plain=plain,
            entities=entities,
            parse_mode=p.get("parse_mode"),
            markup=markup,
            raw_markup=p.get("reply_markup"),
        )

    async def _api_editMessageCaption(self, p: dict[str, Any]) -> Any:
        msg = self._editable(p)
        if msg.photo_info is None:
            raise ApiError("Bad Request: there is no caption in the message to edit")
        plain, entities = self._parse_text(
            p.get("caption"),
            p.get("parse_mode"),
            p.get("caption_entities"),
            limit=MAX_CAPTION,
            empty=None,
            too_long=CAPTION_TOO_LONG,
        )
        markup = self._parse_markup(p.get("reply_markup"), inline_only=True)
        return self._apply_edit(
            msg,
            text=p.get("caption"),
            plain=plain,
            entities=entities,
            parse_mode=p.get("parse_mode"),
            markup=markup,
            raw_markup=p.get("reply_markup"),
            caption=True,
        )

    async def _api_editMessageReplyMarkup(self, p: dict[str, Any]) -> Any:
        msg = self._editable(p)
        markup = self._parse_markup(p.get("reply_markup"), inline_only=True)
        caption = msg.photo_info is not None
        return self._apply_edit(
            msg,
            text=msg.caption if caption else msg.text,
            plain=msg.plain_caption if caption else msg.plain_text,
            entities=msg.caption_entities if caption else msg.entities,
            parse_mode=msg.parse_mode,
            markup=markup,
            raw_markup=p.get("reply_markup"),
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

    @staticmethod
    def _scope_key(scope: Any) -> str:
        if scope is None:
            scope = {"type": "default"}
        if not isinstance(scope, dict) or "type" not in scope:
            raise ApiError("Bad Request: can't parse BotCommandScope JSON object")
        return json.dumps(scope, sort_keys=True)

    async def _api_setMyCommands(self, p: dict[str, Any]) -> Any:
        commands = p.get("commands")
        if not isinstance(commands, list):
            raise ApiError("Bad Request: can't parse commands JSON object")
        if len(commands) > 100:
            raise ApiError("Bad Request: too many commands")
        clean = []
        for c in commands:
            if not isinstance(c, dict) or set(c) != {"command", "description"}:
                raise ApiError("Bad Request: can't parse BotCommand JSON object")
            if not re.fullmatch(r"[a-z0-9_]{1,32}", str(c["command"])):
                raise ApiError("Bad Request: BOT_COMMAND_INVALID")
            if not 1 <= len(str(c["description"]).strip()) <= 256:
                raise ApiError("Bad Request: BOT_COMMAND_DESCRIPTION_INVALID")
            clean.append({"command": c["command"], "description": c["description"]})
        key = (self._scope_key(p.get("scope")), p.get("language_code") or "")
        if clean:
            self.commands[key] = clean
        else:
            self.commands.pop(key, None)
        return True

    async def _api_getMyCommands(self, p: dict[str, Any]) -> Any:
        key = (self._scope_key(p.get("scope")), p.get("language_code") or "")
        return [dict(c) for c in self.commands.get(key, [])]

    async def _api_deleteMyCommands(self, p: dict[str, Any]) -> Any:
        key = (self._scope_key(p.get("scope")), p.get("language_code") or "")
        self.commands.pop(key, None)
        return True

    async def _api_getChat(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        d = chat.to_api()
        d.update(
            {
                "accent_color_id": abs(chat.id) % 7,
                "max_reaction_count": 11,
                "accepted_gift_types": {
                    "unlimited_gifts": False,
                    "limited_gifts": False,
                    "unique_gifts": False,
                    "premium_subscription": False,
                    "gifts_from_channels": False,
                },
            }
        )
        return d

    def _chat_member(self, chat: FakeChat, user: FakeUser) -> dict[str, Any]:
        info = dict(self._member_info(chat, user))
        status = info.pop("status")
        d: dict[str, Any] = {"status": status, "user": user.to_api()}
        if status == "creator":
            d["is_anonymous"] = info.pop("is_anonymous", False)
        elif status == "administrator":
            rights = {
                "can_be_edited": False,
                "is_anonymous": False,
                "can_manage_chat": True,
                "can_delete_messages": True,
                "can_manage_video_chats": True,
                "can_restrict_members": True,
                "can_promote_members": False,
                "can_change_info": True,
                "can_invite_users": True,
                "can_post_stories": True,
                "can_edit_stories": True,
                "can_delete_stories": True,
                "can_pin_messages": True,
                "can_manage_topics": chat.is_forum,
            }
            rights.update(info)
            d.update(rights)
        elif status == "restricted":
            perms: dict[str, Any] = {
                k: False
                for k in (
                    "can_change_info",
                    "can_invite_users",
                    "can_pin_messages",
                    "can_send_messages",
                    "can_send_polls",
                    "can_send_other_messages",
                    "can_add_web_page_previews",
                    "can_manage_topics",
                    "can_send_audios",
                    "can_send_documents",
                    "can_send_photos",
                    "can_send_videos",
                    "can_send_video_notes",
                    "can_send_voice_notes",
                )
            }
            perms.update({"is_member": True, "until_date": 0})
            perms.update(info)
            d.update(perms)
        elif status == "kicked":
            d["until_date"] = info.pop("until_date", 0)
        return d

    async def _api_getChatMember(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        user = self.users.get(p.get("user_id", 0))
        if user is None:
            raise ApiError("Bad Request: user not found")
        if chat.type == "private" and user.id not in (chat.id, self.bot_user.id):
            raise ApiError("Bad Request: user not found")
        return self._chat_member(chat, user)

    async def _api_getChatAdministrators(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        if chat.type == "private":
            raise ApiError("Bad Request: there are no administrators in the private chat")
        admins = [
            self._chat_member(chat, self.users[uid])
            for (cid, uid), info in self._members.items()
            if cid == chat.id and info["status"] in ("creator", "administrator")
        ]
        admins.sort(key=lambda m: m["status"] != "creator")
        return admins

    async def _api_sendChatAction(self, p: dict[str, Any]) -> Any:
        chat = self._get_chat(p.get("chat_id"))
        self._check_can_send(chat)
        actions = {
            "typing",
            "upload_photo",
            "record_video",
            "upload_video",
            "record_voice",
            "upload_voice",
            "upload_document",
            "choose_sticker",
            "find_location",
            "record_video_note",
            "upload_video_note",
        }
        if p.get("action") not in actions:
            raise ApiError("Bad Request: wrong parameter action in request")
        self.chat_actions.append((chat.id, p["action"], p.get("message_thread_id")))
        return True

    async def _api_getFile(self, p: dict[str, Any]) -> Any:
        stored = self._files.get(p.get("file_id", ""))
        if stored is None or stored[0] is None:
            raise ApiError("Bad Request: invalid file_id")
        info = stored[1]
        return {
            "file_id": info["file_id"],
            "file_unique_id": info["file_unique_id"],
            "file_size": info["file_size"],
            "file_path": info["file_path"],
        }
