"""One language per table: what the chat sees is in the table's language (the chat's setting,
else the one the table opened in, kept with the game); what one person sees is in theirs."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.chat.tables import Tables
from adapters.i18n import translator
from core.chat_settings import ChatSettings
from tests.chat.kit import ALICE, BOB, KEY, World, opened
from tests.chat.test_review import play_two
from tests.kit import foreign_words

RU, EN = translator("ru"), translator("en")
LOT_ALICE_LOW = (1, 1, 1, 1, 2, 6, 6, 6, 6, 5)
THROW = (1, 2, 3, 4, 6)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def test_the_table_speaks_its_openers_language_and_each_person_their_own(
    world: World,
) -> None:
    await world.command(ALICE, "start", locale="ru")
    assert (await world.game()).language == "ru"
    joined = await world.command(BOB, "join", locale="en")
    assert joined.publicly[0].lines == (RU("event-joined", name="Bob"),)  # type: ignore[union-attr]
    again = await world.command(BOB, "join", locale="en")
    assert again.said() == [EN("error-already-seated")] and again.private_languages == ["en"]
    lobby = await world.board()
    assert set(lobby.languages) == {"ru"}  # sent and redrawn after Bob's join: Russian
    refused = await world.press(lobby, BOB, "b", locale="en")  # only the host begins
    assert refused.said() == [EN("error-not-host", host="Alice")]
    assert set(lobby.languages) == {"ru"}


async def test_the_chats_setting_decides_the_table_the_person_their_answers(world: World) -> None:
    await world.repository.save_chat_settings(KEY, world.channel.chat, ChatSettings(language="en"))
    await world.command(ALICE, "start", locale="ru")
    lobby = await world.board()
    assert lobby.languages == ["en"]
    unknown = await world.command(ALICE, "frobnicate", locale="ru")
    assert unknown.private_languages == ["ru"]


async def test_a_computers_turn_is_told_in_the_tables_language_after_a_restart_too(
    world: World,
) -> None:
    await world.command(ALICE, "start", locale="ru")
    lobby = await world.board()
    await world.press(lobby, ALICE, "an", locale="ru")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(lobby, ALICE, "b", locale="ru")
    # A restart: new tables over the same store, nothing remembered but what is stored.
    fresh = Tables(world.service, world.platform, logging.getLogger("tests.chat"), pause=0)
    world.tables = fresh
    board = await world.board()
    world.roller.push(THROW * 4)
    await world.press(board, ALICE, "r", locale="ru")
    before = len(world.platform.messages)
    await world.press(board, ALICE, "s0", locale="ru")
    for _ in range(500):
        game = await world.game()
        if game.round == 2:
            break
        await asyncio.sleep(0.01)
    assert game.round == 2
    said_by_itself = world.platform.messages[before:]
    assert said_by_itself, "the computer's turn was not shown"
    assert {language for m in said_by_itself for language in m.languages} == {"ru"}


async def test_the_review_is_in_the_language_the_game_was_played_in_not_the_askers(
    world: World,
) -> None:
    """An English table's review asked for by a Russian speaker is read by the whole chat (its
    chart is drawn with the same words)."""
    await play_two(world, "en")
    asked = await world.command(BOB, "review", locale="ru")
    (card,) = asked.publicly
    assert isinstance(card, cards.Review)
    assert card.lines[0] == EN("review-title") and not foreign_words(card.lines, "en")


async def test_a_computers_move_that_ends_the_game_is_told_in_the_tables_language(
    world: World,
) -> None:
    """The game is over when its last move is shown: its language is still the table's."""
    await world.command(ALICE, "start", locale="ru")
    lobby = await world.board()
    await world.press(lobby, ALICE, "an", locale="ru")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(lobby, ALICE, "b", locale="ru")
    board = await world.board()
    world.roller.push(THROW)
    await world.press(board, ALICE, "r", locale="ru")
    world.roller.push((6,) * 5)  # the computer's first throw: a big general
    before = len(world.platform.messages)
    await world.press(board, ALICE, "s0", locale="ru")
    for _ in range(6000):  # the computer's first move loads its strategy: a while
        if world.platform.of(cards.Final):
            break
        await asyncio.sleep(0.01)
    await world.tables.redraws.idle()
    shown = world.platform.messages[before:]
    (final,) = world.platform.of(cards.Final)
    assert final in shown and final.languages == ["ru"]
    assert {language for m in shown for language in m.languages} == {"ru"}
