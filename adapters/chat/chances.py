"""`/general chances`: every player's chance of winning the game in play, as it stands now."""

from __future__ import annotations

from adapters.chat import cards
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.i18n.chances import live_chances_line


async def chances(tables: Tables, exchange: Exchange) -> None:
    """Said to the chat, whatever the table shows on its boards."""
    game = await tables.service.game(exchange.channel)
    if game is None or game.current_seat is None:
        await exchange.private(cards.Lines((tables.own("chances-none"),)))
        return
    await exchange.public(
        cards.Lines((tables.t("chances-title"), live_chances_line(tables.t, game)))
    )
