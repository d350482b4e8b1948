"""The board's standings line: every player's place and total, so nobody needs the sheet to
know the score."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from adapters.i18n import Translator
from adapters.i18n.names import shown_name
from core.view import GameView, PlayerView

Entry = TypeVar("Entry")

EVERYONE = 6  # up to this many players the line names them all
LEADERS = 3  # at a bigger table: the leaders, and the player to move with their place
NAME_WIDTH = 16


def places(players: list[PlayerView]) -> list[tuple[int, PlayerView]]:
    """Highest total first; equal totals share a place (1, 1, 3), seating order between them."""
    ranked = sorted(players, key=lambda player: -player.total)
    placed: list[tuple[int, PlayerView]] = []
    for index, player in enumerate(ranked):
        same = placed and placed[-1][1].total == player.total
        placed.append((placed[-1][0] if same else index + 1, player))
    return placed


def leaders_and_mover(
    ranked: list[Entry], player: Callable[[Entry], PlayerView], view: GameView, count: int
) -> list[Entry]:
    """The first `count` of a ranking, and the player to move where they are not among them
    (a big table's line)."""
    shown = ranked[:count]
    current = view.current
    if current is not None and all(player(entry).id != current.id for entry in shown):
        shown += [entry for entry in ranked if player(entry).id == current.id]
    return shown


def standings_line(t: Translator, view: GameView) -> str | None:
    """ "🏅 1. Ann 120 · 2. Bob 95"; None where one player plays alone."""
    placed = places([player for player in view.players if player.active])
    if len(placed) < 2:
        return None
    count = len(placed) if len(placed) <= EVERYONE else LEADERS
    shown = leaders_and_mover(placed, lambda pair: pair[1], view, count)
    entries = [
        t(
            "standings-entry",
            rank=place,
            name=shown_name(player.name, NAME_WIDTH),
            total=player.total,
        )
        for place, player in shown
    ]
    if len(shown) < len(placed):
        entries.append("…")
    return t("standings-line", players=" · ".join(entries))
