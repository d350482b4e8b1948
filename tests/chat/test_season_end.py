"""A season's end without a platform, on a test clock: the table that played in it is told
once (the podium, who rose the most, the luckiest dice and the best decisions, with the picture)
at the first look after midnight of the new season in the chat's time zone, and not before; a
chat whose seasons are off, or a season without games, hears nothing."""

from __future__ import annotations

import io
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from adapters.chat import cards
from adapters.i18n import translator
from core.seasons import ZONES, SeasonLength, following, previous, season_at
from tests.chat.kit import ALICE, KEY, PlatformDown, T, World, opened
from tests.chat.test_luck_board import short_game

RU = translator("ru")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


def season_ends(world: World) -> list[cards.Review]:
    return [
        m.card
        for m in world.platform.messages
        if isinstance(m.card, cards.Review) and m.card.lines[0].startswith("🏁")
    ]


async def test_the_table_is_told_once_after_midnight_in_its_time_zone(world: World) -> None:
    settings = replace(await world.settings(), time_zone="Europe/Moscow", language="ru")
    await world.repository.save_chat_settings(KEY, world.channel.chat, settings)
    for _ in range(3):
        await short_game(world)  # Alice wins each with five sixes
    season = season_at(time.time(), SeasonLength.MONTHLY, "Europe/Moscow")
    assert season is not None
    midnight = following(season).start  # the next season's first moment, in Moscow
    herald = world.tables.herald
    assert await herald.tick(midnight - 1) == 0  # a second before: still this season
    assert season_ends(world) == []
    assert await herald.tick(midnight + 1) == 1
    (end,) = season_ends(world)
    assert end.lines[0] == RU("season-over", value=season.label)
    assert end.lines[1].startswith("🥇 Alice — ") and end.lines[2].startswith("🥈 Bob — ")
    assert any(line.startswith("📈 Больше всех вырос: Alice") for line in end.lines)
    assert any(line.startswith("🍀 Самые удачливые кости: Alice, +") for line in end.lines)
    assert any(line.startswith("🎯 Лучшие решения: ") for line in end.lines)
    assert end.lines[-1] == RU("season-next")
    assert end.picture is not None and Image.open(io.BytesIO(end.picture)).width > 0
    assert await herald.tick(midnight + 120) == 0  # told once
    assert len(season_ends(world)) == 1

    board = await world.command(ALICE, "leaderboard", locale="ru")  # on the real clock
    (card,) = board.publicly
    assert isinstance(card, cards.Records)
    assert card.lines[1].startswith(f"Этот сезон ({season.label}), по рейтингу")
    assert end.lines[1] == "🥇 " + card.lines[3].removeprefix("1. ").split(" · ")[0]
    (last,) = (await world.command(ALICE, "leaderboard", "прошлый", locale="ru")).publicly
    assert isinstance(last, cards.Records) and last.lines[1] == RU("rating-board-empty")


async def test_seasons_off_or_a_season_without_games_says_nothing(world: World) -> None:
    await short_game(world)
    season = season_at(time.time(), SeasonLength.MONTHLY, "UTC")
    assert season is not None
    later = following(following(season)).start + 1  # the season just over had no games
    assert await world.tables.herald.tick(later) == 0
    off = replace(await world.settings(), season=SeasonLength.OFF)
    await world.repository.save_chat_settings(KEY, world.channel.chat, off)
    assert await world.tables.herald.tick(following(season).start + 1) == 0
    assert season_ends(world) == []


def test_every_season_a_chat_may_choose_ends_on_the_hour() -> None:
    """The herald looks once an hour: that sees every end only if each begins on the hour."""
    for zone in ZONES:
        for length in (SeasonLength.MONTHLY, SeasonLength.QUARTERLY):
            season = season_at(1_767_225_600, length, zone)  # 2026-01-01 UTC
            for _ in range(30):
                assert season is not None and season.start % 3600 == 0, (zone, season)
                season = following(season)


async def test_a_past_season_is_asked_for_by_its_name(world: World) -> None:
    await short_game(world)
    now = season_at(time.time(), SeasonLength.MONTHLY, "UTC")
    assert now is not None
    ago = previous(previous(now))
    (old,) = (await world.command(ALICE, "leaderboard", "wins", ago.label)).publicly
    assert isinstance(old, cards.Records)
    assert old.lines[1:] == (T("board-empty"),)  # nobody played then
    (this,) = (await world.command(ALICE, "leaderboard", "wins", now.label)).publicly
    assert isinstance(this, cards.Records)
    assert this.lines[1] == T("board-header", period=T("board-period-season", value=now.label))
    assert this.lines[2].startswith("1. Alice — 1 · 1")
    (wrong,) = (await world.command(ALICE, "leaderboard", "2026-Q1", locale="ru")).publicly
    assert isinstance(wrong, cards.Records)
    assert wrong.lines[1] == RU("board-season-unknown", value="2026-Q1", short=now.label)
    off = replace(await world.settings(), season=SeasonLength.OFF)
    await world.repository.save_chat_settings(KEY, world.channel.chat, off)
    (none,) = (await world.command(ALICE, "leaderboard", now.label)).publicly
    assert isinstance(none, cards.Records) and none.lines[1] == T("board-seasons-off")


async def test_a_season_end_the_platform_failed_to_take_is_told_at_the_next_look(
    world: World,
) -> None:
    await short_game(world)
    season = season_at(time.time(), SeasonLength.MONTHLY, "UTC")
    assert season is not None
    midnight = following(season).start
    world.platform.failing_sends.append(PlatformDown("down"))
    await world.tables.herald.tick(midnight + 1)
    assert season_ends(world) == []  # lost on the way, not told
    assert await world.tables.herald.tick(midnight + 3600) == 1
    assert len(season_ends(world)) == 1
