"""Ratings in words: the final message's changes, the rating leaderboard, a player's rating in
their statistics. A computer is named by its level; a provisional rating is marked with "?"."""

from __future__ import annotations

from collections.abc import Sequence

from adapters.i18n import Translator, available_locales, translator
from adapters.i18n.names import shown_name
from adapters.i18n.standings import EVERYONE
from core.identity import COMPUTER_PREFIX
from core.levels import Level
from core.ratings import PROVISIONAL_GAMES, Change, Rating, rated_id
from core.records import Rated
from core.view import GameView

ROBOT = "🤖"  # what a computer's name begins with; typed or not, it is the same computer
MINUS = "\u2212"  # a true minus sign: "−9" reads as a number, "-9" as a dash
SPARKS = "▁▂▃▄▅▆▇█"


def signed(delta: int) -> str:
    return f"+{delta}" if delta >= 0 else f"{MINUS}{-delta}"


def shown_rating(t: Translator, shown: int, provisional: bool) -> str:
    return t("rating-provisional-value" if provisional else "rating-value", value=str(shown))


def rated_name(t: Translator, player_id: str, name: str) -> str:
    """A person by the name they play under, a computer by its level in the reader's words."""
    if player_id.startswith(COMPUTER_PREFIX):
        return t(f"computer-{player_id[len(COMPUTER_PREFIX) :]}")
    return shown_name(name)


def computer_named(name: str) -> str | None:
    """The level a typed name means (its rated id, `cpu-grandmaster`): a computer's shown name
    in any of the bot's languages, with or without its 🤖, in any case; None for another."""
    wanted = _bare(name)
    for level in Level:
        for locale in available_locales():
            if _bare(translator(locale)(f"computer-{level.value}")) == wanted:
                return f"{COMPUTER_PREFIX}{level.value}"
    return None


def _bare(name: str) -> str:
    return name.replace(ROBOT, "").strip().casefold()


def rating_line(t: Translator, view: GameView, changes: Sequence[Change]) -> list[str]:
    """Everyone's new rating in the chat and its change, in the order they finished (the
    winners first: a big general's thrower may have fewer points)."""
    by_id = {change.player_id: change for change in changes}
    winners = {player.id for player in view.winners}
    entries: list[str] = []
    for player in sorted(view.players, key=lambda p: (p.id not in winners, -p.total)):
        change = by_id.pop(rated_id(player.id), None)
        if change is not None:
            entries.append(
                t(
                    "rating-entry",
                    name=rated_name(t, change.player_id, player.name),
                    value=shown_rating(t, change.after.shown, change.provisional),
                    change=signed(change.delta),
                )
            )
    if len(entries) > EVERYONE:  # a big table: a line each, so a message may break between
        return [t("rating-line", players="").rstrip(), *entries]
    return [t("rating-line", players=" · ".join(entries))] if entries else []


def rating_board_lines(
    t: Translator, rated: Sequence[Rated], global_: bool, period: str
) -> list[str]:
    """The rating leaderboard over `period` (its words): the established by rating, then the
    provisional apart."""
    title = t("board-title-global" if global_ else "board-title")
    if not rated:
        return [title, t("rating-board-empty")]
    lines = [title, t("rating-board-header", period=period)]
    established = [r for r in rated if not r.rating.provisional]
    provisional = [r for r in rated if r.rating.provisional]
    lines += [_board_line(t, rank, r) for rank, r in enumerate(established, start=1)]
    if provisional:
        lines.append(t("rating-board-provisional", games=PROVISIONAL_GAMES))
        lines += [_board_line(t, None, r) for r in provisional]
    return lines


def _board_line(t: Translator, rank: int | None, rated: Rated) -> str:
    name = rated_name(t, rated.player_id, rated.name)
    rating = rated.rating
    value = shown_rating(t, rating.shown, rating.provisional)
    if rank is None:
        return t("rating-board-newcomer", name=name, value=value, games=rating.games)
    return t("rating-board-line", rank=rank, name=name, value=value, games=rating.games,
             best=rating.best)  # fmt: skip


def rating_stat_lines(t: Translator, rating: Rating | None) -> list[str]:
    """A player's rating with the uncertainty behind it, its best and its trend."""
    if rating is None:
        return [t("stats-rating-none")]
    skill = rating.skill
    lines = [
        t(
            "stats-rating",
            value=shown_rating(t, rating.shown, rating.provisional),
            best=rating.best,
        ),
        t("stats-skill", mu=skill.mu, sigma=skill.sigma),
    ]
    if rating.provisional:
        lines.append(t("stats-rating-provisional", games=rating.games, n=PROVISIONAL_GAMES))
    if len(rating.trend) > 1:
        change = signed(rating.trend[-1] - rating.trend[0])
        lines.append(
            t("stats-trend", games=len(rating.trend) - 1, value=sparkline(rating.trend),
              change=change)
        )  # fmt: skip
    return lines


def sparkline(values: Sequence[int]) -> str:
    """The trend as a row of bars, lowest to highest of its own range."""
    low, high = min(values), max(values)
    span = high - low
    if span == 0:
        return SPARKS[3] * len(values)
    return "".join(SPARKS[round((v - low) * (len(SPARKS) - 1) / span)] for v in values)
