"""Telegram MarkdownV2 and legacy Markdown to plain text and entities, modelled on tdlib's
parse_markdown_v2 and parse_markdown, failing with the real server's error messages."""

from __future__ import annotations

from typing import Any

from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.text import _byte_offset, _Out

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
            elif c in "|!":  # "||" opens a spoiler, "![" a custom emoji; alone, they are reserved
                if nxt != ("|" if c == "|" else "["):
                    raise reserved(c)
                kind = "spoiler" if c == "|" else "custom_emoji"
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
