"""Each player's chance of winning, in words: the board's line and `/general chances`."""

from __future__ import annotations

from adapters.i18n import Translator
from adapters.i18n.text import percent, shown_name
from core.view import GameView, PlayerView

SHOWN = 3  # a big table's line names the leaders and the player to move
NAME_WIDTH = 16


def chances_line(t: Translator, view: GameView, *, every: bool = False) -> str | None:
    """ "🎯 Ann 61% · Bob 39%", the likeliest first; at a big table (unless `every`) only the
    leaders and the player to move. None where the table shows no chances."""
    if not view.chances:
        return None
    ranked = sorted(
        (pair for pair in zip(view.players, view.chances, strict=True) if pair[0].active),
        key=lambda pair: -pair[1],
    )
    shown: list[tuple[PlayerView, float]] = ranked if every else ranked[:SHOWN]
    current = view.current
    if current is not None and all(player.id != current.id for player, _ in shown):
        shown = [*shown, *(pair for pair in ranked if pair[0].id == current.id)]
    entries = [
        t("chances-entry", name=shown_name(player.name, NAME_WIDTH), value=percent(t, share))
        for player, share in shown
    ]
    if len(shown) < len(ranked):
        entries.append("…")
    return t("chances-line", players=" · ".join(entries))
