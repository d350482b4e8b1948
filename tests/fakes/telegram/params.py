"""How the fake reads a request's parameters: which parameters each method takes and of what
kind, form fields decoded per parameter (strings stay raw, other values are JSON text, as
python-telegram-bot sends them), JSON bodies taken as they are."""

from __future__ import annotations

import json
from typing import Any

from aiohttp import web

from tests.fakes.telegram.errors import ApiError, _Unhandled

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
    "createForumTopic": {
        "chat_id": CHAT,
        "name": STR,
        "icon_color": INT,
        "icon_custom_emoji_id": STR,
    },
    "getChat": {"chat_id": CHAT},
    "getChatMember": {"chat_id": CHAT, "user_id": INT},
    "getChatAdministrators": {"chat_id": CHAT},
    "sendChatAction": {"chat_id": CHAT, "action": STR, "message_thread_id": INT},
    "getFile": {"file_id": STR},
    "setMyDescription": {"description": STR, "language_code": STR},
    "getMyDescription": {"language_code": STR},
    "setMyShortDescription": {"short_description": STR, "language_code": STR},
    "getMyShortDescription": {"language_code": STR},
}

# things that change behaviour and that the fake does not simulate: refuse loudly
_UNSUPPORTED_PARAMS = {"inline_message_id", "business_connection_id", "icon_custom_emoji_id"}


def _as_int(value: Any) -> int | None:
    """``value`` as an integer: an int (a bool is not one) or the text of one; else None."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return int(value)
        except ValueError:
            return None
    return None


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
        number = _as_int(value)
        if number is None:
            raise _Unhandled(f"parameter {name!r} should be an integer, got {value!r}")
        return number
    if kind == BOOL:
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "1", "false", "0"):
            return value.lower() in ("true", "1")
        if isinstance(value, int):
            return bool(value)
        raise _Unhandled(f"parameter {name!r} should be a boolean, got {value!r}")
    if kind == CHAT:
        number = _as_int(value)
        if number is not None:
            return number
        if isinstance(value, str):
            return value  # @username
        raise _Unhandled(f"chat_id should be an integer or @username, got {value!r}")
    raise AssertionError(kind)


async def _read_params(request: web.Request) -> tuple[dict[str, Any], bool]:
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


def _decode(method: str, raw: dict[str, Any], from_form: bool) -> dict[str, Any]:
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
