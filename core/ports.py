"""The storage port the core owns; SQLite (and later a server database) implement it."""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
from typing import Protocol

from core.chat_settings import ChatSettings
from core.events import Event
from core.game import Game
from core.identity import ChannelKey


class GameRepository(Protocol):
    """Keeps each game's latest snapshot and its append-only event log. `shared` says whether
    other processes use the same storage.

    `save` writes the snapshot and the events in one transaction and refuses (GameError STALE)
    when the stored version is not `previous_version` (None: the game is new).
    """

    shared: bool

    async def active_game(self, channel: ChannelKey) -> Game | None: ...

    async def get_game(self, game_id: str) -> Game | None: ...

    async def save(
        self, game: Game, events: Sequence[Event], previous_version: int | None
    ) -> None: ...

    async def last_finished(self, channel: ChannelKey) -> Game | None: ...

    async def events(self, game_id: str) -> list[Event]: ...

    async def active_games(self, platform: str) -> list[Game]: ...

    async def set_accuracy(self, game_id: str, accuracy: dict[str, float]) -> None:
        """Record each person's accuracy from the post-game review beside their result."""
        ...

    async def chat_settings(self, platform: str, chat: str) -> ChatSettings: ...

    async def save_chat_settings(
        self, platform: str, chat: str, settings: ChatSettings
    ) -> None: ...

    def channel_lock(self, channel: ChannelKey) -> AbstractAsyncContextManager[None]:
        """Serialises actions on one channel across processes (a no-op where one process owns
        the storage); the repository's calls inside the block share its transaction."""
        ...

    async def claim_deadline(self, game_id: str, owner: str, lease_seconds: float) -> bool:
        """Whether this process (`owner`) may act on the game's deadline now: one process does,
        and another may once the holder's lease has run out (it died)."""
        ...

    async def release_deadline(self, game_id: str, owner: str) -> None: ...

    async def close(self) -> None: ...
