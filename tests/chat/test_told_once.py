"""Each event told once in the chat: a kick, a leave or a cancel is said by the board it ends
(or by the command's answer where no board says it), never again by the next board's preface,
the command's answer or the final message."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.i18n import translator
from adapters.telegram import draw as telegram_draw
from core.identity import PlayerRef
from tests.chat.kit import ALICE, BOB, T, World, opened

CID = PlayerRef("33", "Cid")
LOT_BOB_FIRST = (6,) * 5 + (1,) * 5 + (3,) * 5  # Alice 30, Bob 5, Cid 15: Bob starts


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


def times(world: World, line: str, locale: str = "en") -> int:
    """How often the chat shows `line`, in every message as it reads now."""
    t = translator(locale)
    shown = [
        page.text
        for message in world.platform.messages
        if not isinstance(message.card, cards.Stripped)
        for page in telegram_draw.draw(t, message.card)
    ]
    return sum(text.count(line) for text in shown)


async def bob_to_play(world: World, *others: PlayerRef, locale: str = "en") -> None:
    await world.command(ALICE, "start", locale=locale)
    for person in (BOB, *others):
        await world.command(person, "join", locale=locale)
    world.roller.push(LOT_BOB_FIRST[: 5 * (2 + len(others))])
    await world.press(await world.board(), ALICE, "b", locale=locale)
    board = await world.board()
    assert isinstance(board.card, cards.Board) and board.card.view.current is not None
    assert board.card.view.current.id == BOB.id


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_kicking_the_player_to_move_is_told_once(world: World, locale: str) -> None:
    await bob_to_play(world, CID, locale=locale)
    await world.command(ALICE, "kick", "Bob", locale=locale)
    t = translator(locale)
    assert times(world, t("event-removed-kicked", name="Bob"), locale) == 1
    assert times(world, t("event-left", name="Bob"), locale) == 0  # the same event


async def test_kicking_someone_else_is_answered_once(world: World) -> None:
    """No board says it (the turn goes on): the command's answer does."""
    await bob_to_play(world, CID)
    kicked = await world.command(ALICE, "kick", "Cid")
    assert kicked.publicly == [cards.Lines((T("event-removed-kicked", name="Cid"),))]
    assert times(world, T("event-removed-kicked", name="Cid")) == 1


async def test_leaving_on_ones_turn_is_told_once(world: World) -> None:
    await bob_to_play(world, CID)
    await world.command(BOB, "leave")
    assert times(world, T("event-left", name="Bob")) == 1


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_a_cancel_in_play_is_told_once_by_the_final_message(
    world: World, locale: str
) -> None:
    await bob_to_play(world, locale=locale)
    board = await world.board()
    await world.command(ALICE, "stop", locale=locale)
    assert times(world, translator(locale)("game-cancelled"), locale) == 1
    assert isinstance(world.platform.messages[-1].card, cards.Final)
    assert board.stripped and board.buttons == ()  # nothing to press on it any more


async def test_leaving_a_game_that_it_ends_is_told_once(world: World) -> None:
    """Alice leaves, then Bob, whose turn it is: his leaving on the board, the end in the final."""
    await bob_to_play(world)
    await world.command(ALICE, "leave")
    assert times(world, T("event-left", name="Alice")) == 1
    assert times(world, T("game-abandoned")) == 0
    await world.command(BOB, "leave")
    assert times(world, T("event-left", name="Bob")) == 1
    assert times(world, T("game-abandoned")) == 1
