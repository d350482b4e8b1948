"""A computer in the records as on the rating board: its statistics asked for by the name the
chat shows it under (with or without its 🤖, in either language), and both leaderboards
counting the same players."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.i18n import translator
from adapters.i18n.ratings import rating_stat_lines
from tests.chat.kit import ALICE, KEY, RecordingExchange, T, World, opened
from tests.kit import LOT_ALICE_LOW


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def beaten_by_the_grandmaster(world: World) -> None:
    """Alice plays the Grandmaster, who throws a big general on its first turn."""
    await world.command(ALICE, "start")
    lobby = await world.board()
    await world.press(lobby, ALICE, "ag")
    world.roller.push(LOT_ALICE_LOW)  # Alice first
    await world.press(lobby, ALICE, "b")
    board = await world.board()
    world.roller.push((1, 2, 3, 4, 6))
    await world.press(board, ALICE, "r")
    world.roller.push((6,) * 5)
    await world.press(board, ALICE, "s0")
    for _ in range(6000):  # the computer plays by itself (its first move loads its strategy)
        if world.platform.of(cards.Final):
            break
        await asyncio.sleep(0.01)
    (final,) = world.platform.of(cards.Final)
    assert isinstance(final.card, cards.Final)
    assert [p.name for p in final.card.view.winners] == [T("computer-grandmaster")]


def records(asked: RecordingExchange) -> tuple[str, ...]:
    (card,) = asked.publicly
    assert isinstance(card, cards.Records)
    return card.lines


@pytest.mark.parametrize(
    ("words", "locale"),
    [
        (["🤖", "Grandmaster"], "en"),
        (["grandmaster"], "en"),
        (["Гроссмейстер"], "ru"),
        (["🤖", "гроссмейстер"], "ru"),
    ],
)
async def test_a_computers_statistics_go_by_its_shown_name(
    world: World, words: list[str], locale: str
) -> None:
    await beaten_by_the_grandmaster(world)
    lines = records(await world.command(ALICE, "stats", *words, locale=locale))
    t = translator(locale)
    assert lines[0] == t("stats-title", name=t("computer-grandmaster"))
    assert lines[1] == t("stats-games", games=1, wins=1, rate=100)
    rating = await world.repository.player_rating(KEY, "cpu-grandmaster", None)
    assert rating is not None and t("stats-rating-none") not in lines
    assert set(rating_stat_lines(t, rating)) <= set(lines)


async def test_a_person_of_that_name_is_found_before_the_computer(world: World) -> None:
    """Someone may call themselves Grandmaster: the chat's players come first."""
    await beaten_by_the_grandmaster(world)
    lines = records(await world.command(ALICE, "stats", "alice"))
    assert lines[0] == T("stats-title", name="Alice")
    unknown = records(await world.command(ALICE, "stats", "Grand"))
    assert unknown == (T("stats-unknown", name="Grand"),)


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_both_leaderboards_count_the_computer_that_won(world: World, locale: str) -> None:
    await beaten_by_the_grandmaster(world)
    t = translator(locale)
    by_rating = records(await world.command(ALICE, "leaderboard", locale=locale))
    by_wins = records(await world.command(ALICE, "leaderboard", "wins", locale=locale))
    computer = t("computer-grandmaster")
    rated = [line.split(" — ")[0] for line in by_rating[3:]]
    assert rated == [computer, "Alice"]
    assert by_wins[2:] == (
        t("board-line", rank=1, name=computer, wins=1, games=1, rate=100, average=0, best=0),
        t("board-line", rank=2, name="Alice", wins=0, games=1, rate=0, average=1, best=1),
    )
