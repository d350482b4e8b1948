"""Payloads a client made up: the host's lobby buttons (Start, a computer) pressed on a message
that does not show them, or for another game, are refused as not valid, whoever presses them,
and change nothing; a lobby pressed before its redraw is still a real one."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import payload, presses
from core.identity import PlayerRef
from core.table import Phase
from tests.chat.kit import ALICE, BOB, Message, T, World, opened
from tests.kit import LOT_ALICE_LOW

CAROL = PlayerRef("33", "Carol")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def forged(world: World, on: Message, person: PlayerRef, data: str) -> list[str]:
    """`data` pressed on `on`: what the presser is told."""
    exchange = world.pressing(on, person)
    await presses.press(world.tables, exchange, data)
    return exchange.said()


@pytest.mark.parametrize("code", ["b", "ag", "an"])
@pytest.mark.parametrize("person", [ALICE, BOB])
async def test_a_lobby_button_made_up_is_not_valid(
    world: World, code: str, person: PlayerRef
) -> None:
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    lobby = await world.board()
    game = await world.game()
    joined = world.platform.messages[-1]  # "Bob sat down": no buttons at all
    bad = [T("error-bad-action")]
    assert await forged(world, joined, person, payload.encode(game.id, game.version, code)) == bad
    other_game = payload.encode("zzzzzzzz", game.version, code)
    assert await forged(world, lobby, person, other_game) == bad
    assert await world.game() == game
    world.roller.push(LOT_ALICE_LOW)
    await world.press(lobby, ALICE, "b")
    board = await world.board()  # the turn's board: of this game, without that button
    game = await world.game()
    for version in (game.version, game.version - 1):
        data = payload.encode(game.id, version, code)
        assert await forged(world, board, person, data) == bad
    assert await world.game() == game and game.phase is Phase.PLAYING


async def test_a_lobby_pressed_before_its_redraw_still_starts(world: World) -> None:
    """Alice's client shows the lobby before Carol sat down: her Start is a real one."""
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    lobby = await world.board()
    seen = world.pressing(lobby, ALICE)
    await world.command(CAROL, "join")
    world.roller.push((1, 1, 1, 1, 2, 6, 6, 6, 6, 5, 5, 5, 5, 5, 4))
    await world.send(seen, "b")
    assert seen.said() == []
    assert (await world.game()).phase is Phase.PLAYING
