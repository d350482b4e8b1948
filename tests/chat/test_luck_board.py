"""Luck against skill over a chat's games: the leaderboard by the luckiest dice or the best
decisions (people with a few reviewed games), and a person's averages in their statistics, in
English and in Russian, read from what the reviews stored."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.i18n import translator
from adapters.i18n.luck import figure
from core.luck import Unit
from core.records import LUCK_GAMES
from core.seasons import SeasonLength, season_at
from tests.chat.kit import ALICE, BOB, KEY, RecordingExchange, World, opened
from tests.kit import LOT_ALICE_LOW

SEASON = season_at(time.time(), SeasonLength.MONTHLY, "UTC").label  # type: ignore[union-attr]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def short_game(world: World) -> None:
    """Alice and Bob sit down; each writes Ones after a first throw of 1-2-3-4-6 (a decision
    the review weighs), then Alice throws five sixes and wins at once."""
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")
    for person in (ALICE, BOB):
        world.roller.push((1, 2, 3, 4, 6))
        await world.press(await world.board(), person, "r")
        await world.press(await world.board(), person, "s0")
    world.roller.push((6,) * 5)
    await world.press(await world.board(), ALICE, "r")


def lines(asked: RecordingExchange) -> tuple[str, ...]:
    (card,) = asked.publicly
    assert isinstance(card, cards.Records)
    return card.lines


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_the_luck_board_waits_for_a_few_games_then_ranks_the_dice(
    world: World, locale: str
) -> None:
    t = translator(locale)
    word = {"en": "luck", "ru": "удача"}[locale]
    for _ in range(LUCK_GAMES - 1):
        await short_game(world)
    empty = lines(await world.command(ALICE, "leaderboard", word, locale=locale))
    assert empty == (
        t("luck-board-title", order="luck", where="here"),
        t("luck-board-empty", games=LUCK_GAMES),
    )
    await short_game(world)  # the review is stored before the press is answered
    alice = await world.repository.player_stats(KEY, ALICE.id, None)
    bob = await world.repository.player_stats(KEY, BOB.id, None)
    assert alice and alice.dice is not None and alice.decisions is not None
    assert bob and bob.dice is not None and bob.decisions is not None
    assert alice.dice > 0 > bob.dice  # five sixes, against Bob's one poor throw
    assert alice.decisions == bob.decisions < 0  # both wrote 1 in Ones rather than throw again

    def line(rank: int, name: str, dice: float, decisions: float) -> str:
        shown = {
            "dice": figure(t, dice, Unit.POINTS),
            "decisions": figure(t, decisions, Unit.POINTS),
        }
        return t("luck-board-line", rank=rank, name=name, games=LUCK_GAMES, **shown)

    luckiest = lines(await world.command(ALICE, "leaderboard", word, locale=locale))
    assert luckiest == (
        t("luck-board-title", order="luck", where="here"),
        t("luck-board-header", period=t("board-period-season", value=SEASON), games=LUCK_GAMES),
        line(1, "Alice", alice.dice, alice.decisions),
        line(2, "Bob", bob.dice, bob.decisions),
    )
    skill = {"en": "decisions", "ru": "решения"}[locale]
    wisest = lines(await world.command(ALICE, "leaderboard", skill, "global", locale=locale))
    assert wisest[0] == t("luck-board-title", order="skill", where="global")
    assert wisest[2:] == luckiest[2:]  # decisions alike: the tie goes by games, then by id
    stats = lines(await world.command(ALICE, "stats", locale=locale))
    dice, decisions = figure(t, alice.dice, Unit.POINTS), figure(t, alice.decisions, Unit.POINTS)
    assert t("stats-luck", dice=dice, decisions=decisions) in stats
    assert dice.startswith("+") and dice in "\n".join(luckiest)
