"""The board's standings line: places and totals in both languages, ties sharing a place, a big
table's leaders and the player to move, and no line for a player alone."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.chat.plan import Redraw
from adapters.discord.draw import draw as discord_draw
from adapters.i18n import translator
from adapters.i18n.standings import standings_line
from adapters.telegram.draw import draw as telegram_draw
from core.identity import PlayerRef
from tests.chat.kit import ALICE, BOB, T, World, opened, view_of
from tests.kit import LOT_ALICE_LOW

RU = translator("ru")


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def test_the_board_says_who_leads_with_how_much(world: World) -> None:
    await world.command(ALICE, "start")
    await world.press(await world.board(), BOB, "j")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")
    first = view_of((await world.board()).card)
    assert standings_line(T, first) == "🏅 1. Alice 0 · 1. Bob 0"  # level: one place for both
    board = await world.board()
    world.roller.push([6, 6, 6, 6, 5])
    await world.press(board, ALICE, "r")
    await world.press(board, ALICE, "s5")  # Sixes: 24
    view = view_of((await world.board()).card)
    line = standings_line(T, view)
    assert line == "🏅 1. Alice 24 · 2. Bob 0"
    assert standings_line(RU, view) == line  # numbers and names read the same in Russian
    assert line in telegram_draw(T, cards.Redrawn(Redraw.TURN, view))[0].text
    assert line in (discord_draw(RU, cards.Redrawn(Redraw.TURN, view))[0].content or "")


async def test_a_big_table_names_the_leaders_and_the_player_to_move_with_their_place(
    world: World,
) -> None:
    await world.command(ALICE, "start")
    lobby = await world.board()
    people = [
        PlayerRef(str(100 + n), f"Player {n} " + "and a very long name" * 20) for n in range(9)
    ]
    for person in people:
        await world.press(lobby, person, "j")
    world.roller.push([1, 1, 1, 1, 2] + [6, 6, 6, 6, 5] * 9)  # Alice throws lowest: she starts
    await world.press(lobby, ALICE, "b")
    view = view_of((await world.board()).card)
    line = standings_line(T, view)
    assert line == "🏅 1. Alice 0 · 1. Player 0 and a… 0 · 1. Player 1 and a… 0 · …"
    behind = tuple(
        replace(player, total=0 if player.id == ALICE.id else 10 + number)
        for number, player in enumerate(view.players)
    )  # Alice, to move, last of ten
    line = standings_line(T, replace(view, players=behind))
    assert line is not None and line.startswith("🏅 1. Player 8 and a… 19 · 2. Player 7")
    assert line.endswith(" · 10. Alice 0 · …")


async def test_a_player_alone_has_no_standings(world: World) -> None:
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    view = view_of((await world.board()).card)
    assert standings_line(T, view) is None
    assert "🏅" not in telegram_draw(T, cards.Redrawn(Redraw.TURN, view))[0].text
