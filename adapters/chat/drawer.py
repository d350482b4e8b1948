"""Board messages redrawn: as a press's own answer where the platform can, else by an edit at
the chat's pace that holds no table up (a newer state replaces one still waiting: pacing.py)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from adapters.chat import cards
from adapters.chat.boards import BoardRef, Drawn
from adapters.chat.faults import Troubles
from adapters.chat.pacing import Redraws
from adapters.chat.surface import Exchange, Platform
from adapters.i18n import Translator
from core.identity import ChannelKey
from core.ports import Boards

STRIPPED = 2**62  # the version an old board is stripped at: no later state redraws it


@dataclass(frozen=True)
class Inked:
    """A card as it is to be drawn: in the table's language of the moment it was asked for."""

    card: cards.Card
    t: Translator


class Drawer:
    """Which version each board shows, and the edits still to make to them."""

    def __init__(
        self, platform: Platform, boards: Boards, troubles: Troubles, log: logging.Logger
    ) -> None:
        self.platform = platform
        self.boards = boards
        self.troubles = troubles
        self.log = log
        self.drawn = Drawn()
        self.redraws: Redraws[Inked] = Redraws(
            self._draw_board, lambda ref: platform.pace.ready(ref.chat)
        )

    async def redraw_board(
        self,
        channel: ChannelKey,
        exchange: Exchange | None,
        game_id: str,
        ref: BoardRef,
        card: cards.Redrawn | cards.Board | cards.Stripped,
        version: int,
        t: Translator,
    ) -> None:
        """Redraw a board in the table's language `t`: as the press's answer where it was
        pressed and the platform can, else by an edit that waits for the platform's pace."""
        if self.drawn.shows(ref, version):
            return  # it shows this version already
        if exchange is not None and ref == exchange.pressed and await exchange.update(card, t):
            self.drawn.remember(ref, version)
            return
        self.redraws.request(channel, game_id, ref, Inked(card, t), version)

    async def strip(
        self,
        channel: ChannelKey,
        game_id: str,
        ref: BoardRef,
        t: Translator,
        exchange: Exchange | None = None,
    ) -> None:
        """An old board loses its buttons (it may be gone or out of reach already): as the
        press's answer where the platform can, else by an edit at the chat's pace that no
        press waits for."""
        if (
            exchange is not None
            and ref == exchange.pressed
            and await exchange.update(cards.Stripped(), t)
        ):
            return
        self.redraws.request(channel, game_id, ref, Inked(cards.Stripped(), t), STRIPPED)

    async def _draw_board(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, inked: Inked, version: int
    ) -> None:
        """The edit itself; one deleted while it still had buttons is sent anew. The platform
        failing is logged once: the next press redraws."""
        try:
            await self._edit_board(channel, game_id, ref, inked, version)
        except self.platform.errors as error:
            self.troubles(channel, error)

    async def _edit_board(
        self, channel: ChannelKey, game_id: str, ref: BoardRef, inked: Inked, version: int
    ) -> None:
        if self.drawn.shows(ref, version):
            return
        if not await self.platform.edit(ref, inked.card, inked.t):
            if not cards.live(inked.card):
                self.log.info("board %s of game %s is gone", ref, game_id)
                return
            self.log.info("board %s of game %s was deleted; sending it again", ref, game_id)
            ref = BoardRef(ref.chat, await self.platform.send(channel, inked.card, inked.t))
            await self.boards.set_board(game_id, ref.dumps())
        self.drawn.remember(ref, version)
