"""`/general chances`: every player's chance of winning the game in play, as it stands now."""

from __future__ import annotations

from dataclasses import replace

from adapters.chat import cards
from adapters.chat.surface import Exchange
from adapters.chat.tables import Tables
from adapters.i18n.chances import chances_line
from core.chances import game_shares
from core.view import make_view


async def chances(tables: Tables, exchange: Exchange) -> None:
    """Said to the chat, whatever the table shows on its boards, with the throw in progress
    counted (the boards show the chances as the turn began)."""
    game = await tables.service.game(exchange.channel)
    if game is None or game.current_seat is None:
        await exchange.private(cards.Lines((tables.own("chances-none"),)))
        return
    view = replace(make_view(game), chances=game_shares(game))
    line = chances_line(tables.t, view, every=True)
    assert line is not None
    await exchange.public(cards.Lines((tables.t("chances-title"), line)))
