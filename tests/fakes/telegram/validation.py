"""Checks of what the bot sends against the Bot API's rules and limits: text and caption
lengths, parse modes and entities, inline keyboards (the 64-byte callback_data), images, bot
commands and their scopes, chat actions."""

from __future__ import annotations

import json
import re
import struct
from typing import Any

from tests.fakes.telegram.errors import (
    CAPTION_TOO_LONG,
    EMPTY_TEXT,
    TEXT_TOO_LONG,
    ApiError,
    _Unhandled,
)
from tests.fakes.telegram.html_parser import parse_html
from tests.fakes.telegram.markdown_parser import parse_markdown, parse_markdown_v2
from tests.fakes.telegram.model import FakeButton
from tests.fakes.telegram.text import _trim, _utf16_len

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_CALLBACK_DATA = 64
MAX_CALLBACK_ANSWER = 200

_CHAT_ACTIONS = frozenset(
    {
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
)


def _parse_text(
    text: str | None,
    parse_mode: str | None,
    entities: Any,
    *,
    strict_html: bool,
    caption: bool = False,
) -> tuple[str, list[dict[str, Any]]]:
    """Parse a message's text (or a photo's ``caption``) as the server does; a caption may be
    empty."""
    limit, empty, too_long = (
        (MAX_CAPTION, None, CAPTION_TOO_LONG) if caption else (MAX_TEXT, EMPTY_TEXT, TEXT_TOO_LONG)
    )
    if text is None:
        text = ""
    if parse_mode and entities is not None:
        # the server ignores parse_mode when entities are given
        parse_mode = None
    mode = (parse_mode or "").lower()
    if mode == "html":
        plain, ents = parse_html(text, strict=strict_html)
    elif mode == "markdownv2":
        plain, ents = parse_markdown_v2(text)
    elif mode == "markdown":
        plain, ents = parse_markdown(text)
    elif mode:
        raise ApiError(f"Bad Request: unsupported parse_mode {parse_mode!r}")
    else:
        plain = text
        ents = _check_entities(entities, text) if entities is not None else []
    plain, ents = _trim(plain, ents)
    if not plain and empty is not None:
        raise ApiError(empty)
    if len(plain) > limit:
        raise ApiError(too_long)
    return plain, ents


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


def _parse_markup(
    markup: Any, *, inline_only: bool = False, private: bool = True
) -> list[list[FakeButton]]:
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
            if "web_app" in raw:  # a Mini App button: HTTPS, and only in a private chat
                url = raw["web_app"].get("url") if isinstance(raw["web_app"], dict) else None
                if not private or not re.match(r"https://\S+$", str(url)):
                    raise ApiError("Bad Request: BUTTON_TYPE_INVALID")
            out_row.append(FakeButton.from_api(raw))
        if out_row:
            result.append(out_row)
    return result


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


def _scope_key(scope: Any) -> str:
    if scope is None:
        scope = {"type": "default"}
    if not isinstance(scope, dict) or "type" not in scope:
        raise ApiError("Bad Request: can't parse BotCommandScope JSON object")
    return json.dumps(scope, sort_keys=True)


def _commands_key(p: dict[str, Any]) -> tuple[str, str]:
    """Where a set/get/deleteMyCommands request's commands are kept: (scope, language)."""
    return (_scope_key(p.get("scope")), p.get("language_code") or "")


def _check_commands(commands: Any) -> list[dict[str, Any]]:
    """The commands of a setMyCommands, checked as the server does."""
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
    return clean
