"""Each player's chance of winning, in words: the board's line and `/general chances`."""

from __future__ import annotations

from dataclasses import replace

from adapters.i18n import Translator
from adapters.i18n.names import shown_name
from adapters.i18n.standings import EVERYONE, LEADERS, leaders_and_mover
from core.table import Game
from core.view import GameView, make_view

NAME_WIDTH = 16


def percent(t: Translator, share: float) -> str:
    """A share as a whole percentage; never 0% or 100% for what is merely unlikely or likely."""
    if share >= 1 - 1e-12:
        return t("chances-percent", value="100")
    if share <= 1e-12:
        return t("chances-percent", value="0")
    if share < 0.005:
        return t("chances-below-one")
    if share > 0.995:
        return t("chances-above-ninety-nine")
    return t("chances-percent", value=str(round(share * 100)))


def chances_line(t: Translator, view: GameView, *, every: bool = False) -> str | None:
    """ "🎯 Ann 61% · Bob 39%", the likeliest first: everyone at a table of up to six (as the
    standings line), at a bigger one (unless `every`) only the three likeliest and the player to
    move. None where the table shows no chances."""
    if not view.chances:
        return None
    ranked = sorted(
        (pair for pair in zip(view.players, view.chances, strict=True) if pair[0].active),
        key=lambda pair: -pair[1],
    )
    count = len(ranked) if every or len(ranked) <= EVERYONE else LEADERS
    shown = leaders_and_mover(ranked, lambda pair: pair[0], view, count)
    entries = [
        t("chances-entry", name=shown_name(player.name, NAME_WIDTH), value=percent(t, share))
        for player, share in shown
    ]
    if len(shown) < len(ranked):
        entries.append("…")
    return t("chances-line", players=" · ".join(entries))


def live_chances_line(t: Translator, game: Game) -> str:
    """Every player's chances now, the throw in progress counted (`/general chances`), where a
    board shows them as the turn began."""
    from core.chances import game_shares  # numpy: imported by the first that asks

    line = chances_line(t, replace(make_view(game), chances=game_shares(game)), every=True)
    assert line is not None, "a game in play has chances"
    return line
