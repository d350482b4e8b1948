"""Boards that could not be posted (the platform failed, or a restart came between) are posted
again at the next command, press or move at their table."""

from __future__ import annotations

import logging

from adapters.chat import cards
from adapters.chat.boards import BoardRef
from adapters.chat.drawer import Drawer
from adapters.chat.surface import Platform
from adapters.i18n import Translator
from core.identity import ChannelKey
from core.ports import Boards
from core.service import GameService
from core.table import Game
from core.view import make_view


class Repair:
    """The tables whose live board is lost, and posting it again."""

    def __init__(
        self,
        service: GameService,
        boards: Boards,
        platform: Platform,
        drawer: Drawer,
        log: logging.Logger,
    ) -> None:
        self.service = service
        self.boards = boards
        self.platform = platform
        self.drawer = drawer
        self.log = log
        self._lost: dict[str, str] = {}  # channel → game whose live board could not be posted

    def lost(self, channel: ChannelKey, game_id: str) -> None:
        """The live board of the channel's game could not be posted: post it at the next chance."""
        self._lost[str(channel)] = game_id

    def found_live(self, channel: ChannelKey) -> None:
        """The live board of the channel is known again (or none is owed)."""
        self._lost.pop(str(channel), None)

    async def repost_board(self, channel: ChannelKey, t: Translator) -> None:
        """Show the live board again at the bottom of the chat; the old one loses its buttons."""
        game: Game | None = await self.service.game(channel)
        if game is None:
            self.found_live(channel)
            return
        old = BoardRef.loads(await self.boards.board(game.id))
        message = await self.platform.send(channel, cards.Board(make_view(game)), t)
        ref = BoardRef(channel.chat, message)
        self.drawer.drawn.remember(ref, game.version)
        await self.boards.set_board(game.id, ref.dumps())
        self.found_live(channel)
        if old is not None:
            await self.drawer.strip(channel, game.id, old, t)

    async def heal(self, channel: ChannelKey, t: Translator) -> None:
        """A table whose live board could not be posted gets it now."""
        if str(channel) in self._lost:
            self.log.info("posting the board of %s again", channel)
            await self.repost_board(channel, t)
