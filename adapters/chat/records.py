"""Leaderboard, statistics and history in words: each platform only parses its own arguments
into a `Query` (Telegram's words, Discord's options)."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from enum import Enum

from adapters.i18n import Translator
from adapters.i18n.luck import luck_board_lines
from adapters.i18n.ratings import (
    computer_named,
    rated_name,
    rating_board_lines,
    rating_stat_lines,
)
from adapters.i18n.records import history_lines, leaderboard_lines, stats_lines
from core.chat_settings import ChatSettings
from core.identity import ChannelKey, PlayerRef
from core.ratings import rated_id
from core.records import LuckOrder, Rated
from core.seasons import named, previous, season_at, season_ratings
from core.service import GameService

RECENT_DAYS = 30
MAX_LABEL = 16  # of a season's name as typed, said back
KINDS = ("leaderboard", "stats", "history")


class Order(Enum):
    """How a leaderboard is ordered (the catalogue's ORDER choices)."""

    RATING = "rating"
    WINS = "wins"
    LUCK = "luck"  # the luckiest dice (core.luck)
    SKILL = "skill"  # the best decisions

    @classmethod
    def named(cls, value: str) -> Order:
        """The order a platform's option names; anything else (a forged value) by rating."""
        return next((order for order in cls if order.value == value), cls.RATING)


class Period(Enum):
    """What span a leaderboard covers (the catalogue's PERIOD choices); where the chat's
    seasons are off, a season is all time."""

    SEASON = "season"  # the one in progress
    PREVIOUS = "previous"  # the one before it
    ALL = "all"
    RECENT = "recent"  # the last 30 days

    @classmethod
    def named(cls, value: str) -> Period:
        """The period a platform's option names; anything else (a forged value) this season."""
        return next((period for period in cls if period.value == value), cls.SEASON)


@dataclass(frozen=True)
class Query:
    """What was asked: `everywhere` (every chat, not this one), the `period` and the `order`
    for a leaderboard; for statistics a person by id (`who_id`) or by the name they play under
    (`who_name`), else the asker."""

    kind: str
    everywhere: bool = False
    period: Period = Period.SEASON
    order: Order = Order.RATING
    season: str | None = None  # a season by its name ("2026-10"), instead of the period
    who_id: str | None = None
    who_name: str | None = None


async def record_lines(
    t: Translator,
    service: GameService,
    channel: ChannelKey,
    asker: PlayerRef,
    query: Query,
    settings: ChatSettings,
) -> list[str]:
    """The title, then the lines of the body."""
    records = service.records
    platform = channel.platform
    if query.kind == "history":
        return history_lines(t, await records.history(channel))
    if query.kind == "stats":
        who = query.who_id
        if who is None and query.who_name:
            found = await records.find_player(platform, channel, query.who_name)
            # A computer is counted by its level, as its rating is: every seat it played.
            who = rated_id(found) if found else computer_named(query.who_name)
            if who is None:
                return [t("stats-unknown", name=query.who_name)]
        stats = await records.player_stats(platform, who or asker.id, None)
        if stats is None:
            return [t("stats-none", name=query.who_name or asker.name)]
        rating = await records.player_rating(platform, stats.player_id, None)
        named = replace(stats, name=rated_name(t, stats.player_id, stats.name))
        return stats_lines(t, named, rating_stat_lines(t, rating))
    return await board_lines(t, service, channel, query, settings, time.time())


async def board_lines(
    t: Translator,
    service: GameService,
    channel: ChannelKey,
    query: Query,
    settings: ChatSettings,
    now: float,
) -> list[str]:
    """A leaderboard over the span asked for: a season (the chat's, in its time zone), all
    time, or the last 30 days; a season's ratings are its games' alone."""
    records, platform = service.records, channel.platform
    scope = None if query.everywhere else channel
    since: float | None
    until: float | None
    if query.season is not None:
        span = _named(t, query.season, settings, now)
        if isinstance(span, str):
            return [t("board-title-global" if query.everywhere else "board-title"), span]
        since, until, period = span
    else:
        since, until, period = _span(t, query.period, settings, now)
    if query.order is Order.RATING and until is not None and since is not None:
        games = await service.seasons.season_games(platform, scope, since, until)
        rated = [Rated(r.player_id, r.name, r.rating) for r in season_ratings(games)]
        return rating_board_lines(t, rated, query.everywhere, period)
    if query.order is Order.RATING:
        rated = await records.rating_board(platform, scope, since)
        return rating_board_lines(t, rated, query.everywhere, period)
    if query.order is not Order.WINS:
        by = LuckOrder.DICE if query.order is Order.LUCK else LuckOrder.DECISIONS
        fortunes = [
            replace(f, name=rated_name(t, f.player_id, f.name))
            for f in await records.luck_board(platform, scope, since, by, until=until)
        ]
        return luck_board_lines(t, fortunes, by, query.everywhere, period)
    standings = [
        replace(s, name=rated_name(t, s.player_id, s.name))
        for s in await records.leaderboard(platform, scope, since, until=until)
    ]
    return leaderboard_lines(t, standings, query.everywhere, period)


def _named(
    t: Translator, label: str, settings: ChatSettings, now: float
) -> tuple[float, float, str] | str:
    """A season by its name, or why there is none (seasons off, a name not theirs)."""
    current = season_at(now, settings.season, settings.time_zone)
    if current is None:
        return t("board-seasons-off")
    season = named(label, settings.season, settings.time_zone)
    if season is None:
        return t("board-season-unknown", value=label[:MAX_LABEL], short=current.label)
    key = "board-period-season" if season == current else "board-period-past-season"
    return season.start, season.end, t(key, value=season.label)


def _span(
    t: Translator, period: Period, settings: ChatSettings, now: float
) -> tuple[float | None, float | None, str]:
    """From when and until when (None: open), and the span in words."""
    if period is Period.RECENT:
        return now - RECENT_DAYS * 86400, None, t("board-period-recent", days=RECENT_DAYS)
    season = season_at(now, settings.season, settings.time_zone)
    if period is Period.ALL or season is None:
        return None, None, t("board-period-all")
    if period is Period.PREVIOUS:
        season = previous(season)
        return season.start, season.end, t("board-period-past-season", value=season.label)
    return season.start, season.end, t("board-period-season", value=season.label)
