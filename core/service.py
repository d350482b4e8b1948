"""The one async part of the core: actions serialised per channel, load → apply → save → view."""

from __future__ import annotations

import asyncio
import base64
import secrets
import weakref
from collections.abc import Callable
from dataclasses import dataclass

from core.actions import Action, Open
from core.dice import Roller, SecureRoller
from core.errors import ErrorCode, GameError
from core.events import Event
from core.game import Game, apply, open_lobby
from core.identity import ChannelKey, PlayerRef
from core.ports import GameRepository
from core.view import GameView, make_view


def new_game_id() -> str:
    """Eight lowercase base32 characters: short enough for any button payload, 40 random bits."""
    return base64.b32encode(secrets.token_bytes(5)).decode().lower()


@dataclass(frozen=True)
class Outcome:
    """The result of an applied action: the new game, what happened, and the actor's view."""

    game: Game
    events: tuple[Event, ...]
    view: GameView


class GameService:
    """Front ends call this; one action at a time per channel, each saved before it is answered."""

    def __init__(
        self,
        repository: GameRepository,
        roller: Roller | None = None,
        id_factory: Callable[[], str] = new_game_id,
    ) -> None:
        self.repository = repository
        self._roller = roller or SecureRoller()
        self._new_id = id_factory
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()

    def _lock(self, channel: ChannelKey) -> asyncio.Lock:
        key = str(channel)
        lock = self._locks.get(key)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[key] = lock
        return lock

    async def act(
        self,
        channel: ChannelKey,
        player: PlayerRef,
        action: Action,
        *,
        game_id: str | None = None,
        version: int | None = None,
    ) -> Outcome:
        """Apply `action`; `game_id`/`version` (from a button) refuse a press on an old board."""
        async with self._lock(channel):
            game = await self.repository.active_game(channel)
            if isinstance(action, Open):
                if game is not None:
                    raise GameError(ErrorCode.GAME_EXISTS)
                new, events = open_lobby(self._new_id(), channel, player, action)
                previous = None
            else:
                if game is None or (game_id is not None and game_id != game.id):
                    raise GameError(ErrorCode.GAME_OVER if game_id else ErrorCode.NO_GAME)
                if version is not None and version != game.version:
                    raise GameError(ErrorCode.STALE)
                new, events = apply(game, player, action, self._roller)
                previous = game.version
            await self.repository.save(new, events, previous)
            return Outcome(new, events, make_view(new, player.id, events))

    async def game(self, channel: ChannelKey) -> Game | None:
        return await self.repository.active_game(channel)

    async def view(self, channel: ChannelKey, viewer_id: str | None = None) -> GameView | None:
        game = await self.repository.active_game(channel)
        return None if game is None else make_view(game, viewer_id)
