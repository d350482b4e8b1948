"""Past games in words: the leaderboard, a player's statistics, the history."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, datetime

from adapters.i18n import Translator
from adapters.i18n.dice import box_name
from adapters.i18n.luck import figure
from adapters.i18n.names import shown_name
from core.luck import Unit
from core.records import PastGame, PlayerStats, Standing


def leaderboard_lines(
    t: Translator, standings: list[Standing], global_: bool, period: str
) -> list[str]:
    """The leaderboard by wins over `period` (its words)."""
    title = t("board-title-global" if global_ else "board-title")
    if not standings:
        return [title, t("board-empty")]
    lines = [title, t("board-header", period=period)]
    for rank, s in enumerate(standings, start=1):
        lines.append(
            t(
                "board-line",
                rank=rank,
                name=s.name,
                wins=s.wins,
                games=s.games,
                rate=round(100 * s.win_rate),
                average=s.average,
                best=s.best,
            )
        )
    return lines


def stats_lines(t: Translator, stats: PlayerStats, rating: Iterable[str] = ()) -> list[str]:
    """A player's statistics, their rating's lines (see ratings.py) after the games."""
    lines = [
        t("stats-title", name=stats.name),
        t("stats-games", games=stats.games, wins=stats.wins, rate=round(100 * stats.win_rate)),
        *rating,
        t("stats-totals", average=stats.average, best=stats.best),
        t("stats-generals", small=stats.small_generals, big=stats.big_generals),
    ]
    if stats.accuracy is not None:
        lines.append(t("stats-accuracy", accuracy=stats.accuracy))
    if stats.dice is not None and stats.decisions is not None:
        dice, decisions = (
            figure(t, stats.dice, Unit.POINTS),
            figure(t, stats.decisions, Unit.POINTS),
        )
        lines.append(t("stats-luck", dice=dice, decisions=decisions))
    lines.append(t("stats-boxes"))
    for box, average in stats.box_averages.items():
        lines.append("  " + t("stats-box", box=box_name(t, box), average=average))
    return lines


def history_lines(t: Translator, games: list[PastGame]) -> list[str]:
    if not games:
        return [t("history-empty")]
    lines = [t("history-title")]
    for game in games:
        players = ", ".join(
            f"{'🏆 ' if winner else ''}{shown_name(name)} {total}"
            for name, total, winner in game.players
        )
        date = datetime.fromtimestamp(game.finished_at, UTC)
        lines.append(t("history-line", date=date, players=players))
    return lines
