"""Who and where, independent of any platform: a player and a channel (one table per channel)."""

from __future__ import annotations

from dataclasses import dataclass

# Platform user ids are numbers, so a computer's id never meets a person's.
COMPUTER_PREFIX = "cpu-"


@dataclass(frozen=True)
class PlayerRef:
    """A person or a computer at a table: platform user id and the name they go by."""

    id: str
    name: str

    @property
    def is_computer(self) -> bool:
        return self.id.startswith(COMPUTER_PREFIX)


@dataclass(frozen=True)
class ChannelKey:
    """Platform + chat id + thread/topic id ("" where there is none): where one table lives."""

    platform: str
    chat: str
    thread: str = ""

    def __post_init__(self) -> None:
        if ":" in self.platform or ":" in self.chat:
            raise ValueError("platform and chat must not contain ':' (the key's separator)")

    def __str__(self) -> str:
        return f"{self.platform}:{self.chat}:{self.thread}"

    @classmethod
    def parse(cls, text: str) -> ChannelKey:
        """The key `str()` gave; ValueError for anything else."""
        platform, chat, thread = text.split(":", 2)
        if not platform or not chat:
            raise ValueError(f"not a channel key: {text[:60]!r}")
        return cls(platform, chat, thread)
