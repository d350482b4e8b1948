"""Text as the Bot API measures it: UTF-16 offsets and lengths, byte offsets (for error
messages), and the server's trimming of whitespace around a message."""

from __future__ import annotations

from typing import Any


def _utf16_len(s: str) -> int:
    return len(s.encode("utf-16-le")) // 2


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode("utf-8"))


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
