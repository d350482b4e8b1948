"""Who and where, independent of any platform: a player and a channel (one table per channel)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PlayerRef:
    """A person (or, later, a computer) at a table: platform user id and the name they go by."""

    id: str
    name: str


@dataclass(frozen=True)
class ChannelKey:
    """Platform + chat id + thread/topic id ("" where there is none): where one table lives."""

    platform: str
    chat: str
    thread: str = ""

    def __str__(self) -> str:
        return f"{self.platform}:{self.chat}:{self.thread}"

    @classmethod
    def parse(cls, text: str) -> ChannelKey:
        platform, chat, thread = text.split(":", 2)
        return cls(platform, chat, thread)
