"""How a game's end is shown: its final message, and the score sheet (a picture where the chat
chose them or a big table needs one), for whoever asks."""

from __future__ import annotations

import logging

from adapters.chat import cards
from adapters.chat.boards import FINAL_SHOWN, BoardRef
from adapters.chat.order import Order
from adapters.chat.review import game_review
from adapters.chat.sheets import Sheets
from adapters.chat.surface import Exchange, Platform
from adapters.chat.voices import Languages, Voices
from adapters.i18n import Translator
from adapters.i18n.ratings import rating_line
from core.chat_settings import SheetStyle
from core.events import RECORDED_ENDS, TurnStarted
from core.identity import ChannelKey
from core.ports import Boards
from core.service import GameService
from core.view import GameView, make_view

# More players than this and a text sheet takes more than two phone-wide blocks: a picture.
PICTURE_ABOVE = 8


class Scores:
    """Score sheets, as text or a picture, and which the chat has seen this turn."""

    def __init__(self, languages: Languages) -> None:
        self.languages = languages
        self.sheets = Sheets()

    async def picture(self, channel: ChannelKey, view: GameView, t: Translator) -> bytes | None:
        settings = await self.languages.settings(channel)
        if settings.sheet is SheetStyle.PICTURE or len(view.players) > PICTURE_ABOVE:
            return await self.sheets.picture(t, view)
        return None

    async def sheet(
        self, channel: ChannelKey, view: GameView, t: Translator, *, text: bool
    ) -> cards.Sheet:
        return cards.Sheet(view, None if text else await self.picture(channel, view, t))

    async def show(
        self, exchange: Exchange, view: GameView, voices: Voices, *, text: bool, pressed: bool
    ) -> None:
        """The score sheet, for whoever asks (a command, or the board's button): to the presser
        alone where the platform can (or an outsider, where it whispers); else posted in the
        chat once per turn, by a player; otherwise a line saying why not. A busy group's
        minute is not spent on a sheet the chat has seen."""
        channel, seated = exchange.channel, view.player(exchange.person.id) is not None
        own = voices.own
        if not (seated or exchange.whispers):
            await exchange.private(cards.Lines((own("sheet-for-players"),)), own)
            return
        sheet = await self.sheet(channel, view, voices.table, text=text)
        if (pressed or not seated) and await exchange.direct(sheet, own):
            return
        if self.sheets.first_post(channel, view, picture=sheet.picture is not None):
            await exchange.public(sheet, voices.table)
        elif exchange.whispers:
            await exchange.private(sheet, own)
        else:
            await exchange.private(cards.Lines((own("sheet-above"),)), own)


class Endings:
    """Final messages: shown as a game ends, and sent again where one never went out."""

    def __init__(
        self,
        service: GameService,
        boards: Boards,
        platform: Platform,
        order: Order,
        scores: Scores,
        log: logging.Logger,
    ) -> None:
        self.service = service
        self.boards = boards
        self.platform = platform
        self.order = order
        self.scores = scores
        self.log = log

    async def final(self, channel: ChannelKey, view: GameView, t: Translator) -> cards.Final:
        """Who won, the sheet, everyone's new rating here, how everyone played."""
        review = tuple(await game_review(t, self.service, view)) if view.round else ()
        ratings: tuple[str, ...] = ()
        if view.end_reason in RECORDED_ENDS:
            changes = await self.service.records.game_ratings(view.game_id, channel)
            ratings = tuple(rating_line(t, view, changes))
        picture = await self.scores.picture(channel, view, t) if view.round else None
        return cards.Final(view, review, picture, ratings)

    async def owed_final(self, channel: ChannelKey, t: Translator) -> bool:
        """Send the final message of the last game here if it never went out (the process that
        ended it died first, or the platform refused it): whoever acts next learns how it
        ended. True if it was owed. It is claimed before it is sent, so that of two processes
        asked at once one sends it; should sending fail, it is owed again."""
        if self.order.showing(channel):
            return False  # an action still to be shown here sends it, if it ended the game
        game = await self.service.last_finished(channel)
        stored = await self.boards.board(game.id) if game is not None else None
        if game is None or stored is None or BoardRef.loads(stored) is None:
            return False
        if not await self.boards.claim_board(game.id, stored, FINAL_SHOWN):
            return True  # another process is sending it
        self.log.info("sending the final message of game %s again", game.id)
        try:
            log = await self.service.events(game.id)
            turns = [index for index, event in enumerate(log) if isinstance(event, TurnStarted)]
            last_turn = tuple(log[turns[-1] if turns else 0 :])  # the ending action's: its verdict
            view = make_view(game, events=last_turn)
            await self.platform.send(channel, await self.final(channel, view, t), t)
        except Exception:
            await self.boards.claim_board(game.id, FINAL_SHOWN, stored)
            raise
        return True
