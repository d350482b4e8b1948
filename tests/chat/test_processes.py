"""Two bot processes on one PostgreSQL store draw the same chat: a board that one of them
left showing an older state (its edit came late, over the other's newer one) is brought up to
date by the next press on it, whichever process takes that press."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from adapters.chat import cards
from adapters.chat.tables import Tables
from adapters.postgres import PostgresRepository
from adapters.ratelimit import RateLimiter
from core.dice import ScriptedRoller
from core.service import GameService
from tests.chat.kit import ALICE, Message, PlatformDown, RecordingPlatform, T, World, view_of
from tests.conftest import needs_postgres

pytestmark = needs_postgres


@pytest.fixture
async def worlds(postgres_url: str) -> AsyncIterator[tuple[World, World]]:
    """Two processes' chat layers over one store and one chat platform."""
    platform, made = RecordingPlatform(), []
    try:
        for _ in range(2):
            repository = await PostgresRepository.open(postgres_url)
            roller = ScriptedRoller()
            service = GameService(repository, roller)
            log = logging.getLogger("tests.chat")
            tables = Tables(service, platform, log, pause=0, limiter=RateLimiter(10_000, 10_000))
            made.append(World(service, repository, platform, tables, roller))  # type: ignore[arg-type]
        yield made[0], made[1]
    finally:
        for world in made:
            await world.service.close()
            await world.repository.close()


async def first_turn(world: World) -> Message:
    """Alice's solo table, begun: the board of her first turn."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    return await world.board()


async def test_a_board_drawn_back_to_an_older_state_is_redrawn_by_the_next_press(
    worlds: tuple[World, World],
) -> None:
    one, other = worlds
    board = await first_turn(one)
    before = board.card  # the turn's first board: nothing thrown yet
    other.roller.push((1, 2, 3, 4, 6))
    await other.press(board, ALICE, "r")  # the other process throws and draws it
    assert [d.value for d in view_of(board.card).dice] == [1, 2, 3, 4, 6]
    board.show(before, T)  # the first process's late edit lands over it
    refused = await other.press(board, ALICE, "r")  # an old board's press: refused
    assert refused.privately, "the press is answered"
    assert isinstance(board.card, cards.Board | cards.Redrawn)
    assert [d.value for d in view_of(board.card).dice] == [1, 2, 3, 4, 6]  # up to date again


async def test_an_owed_final_message_asked_of_two_processes_at_once_is_sent_once(
    worlds: tuple[World, World],
) -> None:
    one, other = worlds
    board = await first_turn(one)
    one.roller.push((6, 6, 6, 6, 6))  # a big general on the first throw ends the game
    one.platform.failing_sends.append(PlatformDown("the final message is lost"))
    await one.press(board, ALICE, "r")
    assert one.platform.of(cards.Final) == []
    owed = await asyncio.gather(
        one.tables.endings.owed_final(one.channel, T),
        other.tables.endings.owed_final(one.channel, T),
    )
    # Each knew it was owed, unless one had claimed it before the other looked (then the other
    # finds it shown: on a busy machine one process may get that far first).
    assert True in owed
    assert len(one.platform.of(cards.Final)) == 1  # one of them sent it
