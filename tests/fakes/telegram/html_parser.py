"""Telegram HTML (``parse_mode="HTML"``) to plain text and entities, modelled on tdlib's
parse_html, failing with the real server's error messages."""

from __future__ import annotations

from typing import Any

from tests.fakes.telegram.errors import ApiError
from tests.fakes.telegram.text import _byte_offset, _Out

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
