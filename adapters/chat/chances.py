"""`/general chances`: every player's chance of winning the game in play, as it stands now."""

from __future__ import annotations

from adapters.chat import cards
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.chat.voices import Voices
from adapters.i18n.chances import live_chances_line


async def chances(tables: Tables, exchange: Exchange, voices: Voices) -> None:
    """Said to the chat, whatever the table shows on its boards."""
    game = await tables.service.game(exchange.channel)
    if game is None or game.current_seat is None:
        await exchange.private(cards.Lines((voices.own("chances-none"),)), voices.own)
        return
    t = voices.table
    await exchange.public(cards.Lines((t("chances-title"), live_chances_line(t, game))), t)
