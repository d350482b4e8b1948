"""Win chances where players see them: every board's line, `/general chances`, the setting
that hides the line, and the Grandmaster seated from the lobby."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.chat.plan import Redraw
from adapters.discord.draw import draw as discord_draw
from adapters.i18n import translator
from adapters.i18n.chances import chances_line, percent
from adapters.i18n.hints import hint_lines
from adapters.telegram.draw import alert
from adapters.telegram.draw import draw as telegram_draw
from core.boxes import Box
from core.identity import PlayerRef
from core.levels import Level
from core.strategy import Choice
from core.table import Phase
from tests.chat.kit import ALICE, BOB, T, World, opened, view_of
from tests.kit import LOT_ALICE_LOW

RU = translator("ru")
THROWS = [1, 2, 3, 4, 6] * 60  # never five of a kind: no big general ends the game


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def two_at_the_table(world: World) -> None:
    await world.command(ALICE, "start")
    await world.press(await world.board(), BOB, "j")
    world.roller.push(LOT_ALICE_LOW)
    await world.press(await world.board(), ALICE, "b")


async def test_every_board_shows_each_players_chance_in_both_languages(world: World) -> None:
    await two_at_the_table(world)
    view = view_of((await world.board()).card)
    assert len(view.chances) == 2 and sum(view.chances) == pytest.approx(1)
    assert view.chances[0] > view.chances[1]  # moving first is worth something: big generals
    for t, words in ((T, "🎯 Chances to win: "), (RU, "🎯 Шансы на победу: ")):
        line = chances_line(t, view)
        assert line is not None and line.startswith(words)
        assert "Alice 50%" in line and "Bob 50%" in line, line  # even, to a few millionths
        assert escaped(line) in telegram_draw(t, cards.Redrawn(Redraw.TURN, view))[0].text
        assert line in (discord_draw(t, cards.Redrawn(Redraw.TURN, view))[0].content or "")


def escaped(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


async def test_a_turn_that_ends_moves_the_chances(world: World) -> None:
    await two_at_the_table(world)
    board = await world.board()
    before = view_of(board.card).chances
    world.roller.push([6, 6, 6, 6, 5])
    await world.press(board, ALICE, "r")
    assert view_of(board.card).chances == before  # the board keeps the turn's start
    await world.press(board, ALICE, "s5")  # Sixes: 24 points on the sheet at once
    after = view_of((await world.board()).card).chances
    assert after[0] > before[0] and sum(after) == pytest.approx(1)


async def test_the_chances_command_counts_the_throw_in_progress(world: World) -> None:
    await two_at_the_table(world)
    board = await world.board()
    world.roller.push([6, 6, 6, 6, 5])
    await world.press(board, ALICE, "r")
    asked = await world.command(BOB, "chances")
    ((said,),) = [card.lines[1:] for card in asked.publicly if isinstance(card, cards.Lines)]
    assert asked.publicly[0].lines[0] == T("chances-title")  # type: ignore[union-attr]
    shown = view_of(board.card)
    live = said.split(": ", 1)[1]
    assert live.startswith("Alice") and live != chances_line(T, shown)  # four sixes count


async def test_without_a_game_the_chances_command_says_so_privately(world: World) -> None:
    asked = await world.command(ALICE, "chances")
    assert asked.said() == [T("chances-none")] and asked.publicly == []


async def test_a_table_that_hides_the_chances_shows_no_line(world: World) -> None:
    settings = replace(await world.settings(), chances=False)
    await world.repository.save_chat_settings("tc", world.channel.chat, settings)
    await two_at_the_table(world)
    view = view_of((await world.board()).card)
    assert view.chances == () and chances_line(T, view) is None
    assert "🎯" not in telegram_draw(T, cards.Redrawn(Redraw.TURN, view))[0].text
    asked = await world.command(ALICE, "chances")  # asked for, they are still told
    assert any(isinstance(card, cards.Lines) for card in asked.publicly)


async def test_a_big_table_names_the_leaders_and_the_player_to_move(world: World) -> None:
    await world.command(ALICE, "start")
    lobby = await world.board()
    people = [PlayerRef(str(100 + n), f"Player number {n} with a long name") for n in range(11)]
    for person in people:
        await world.press(lobby, person, "j")
    world.roller.push([1, 1, 1, 1, 2] + [6, 6, 6, 6, 5] * 11)  # Alice throws lowest: she starts
    await world.press(lobby, ALICE, "b")
    view = view_of((await world.board()).card)
    line = chances_line(T, view)
    assert line is not None and line.endswith(" · …")
    assert line.count("%") in (3, 4) and "Alice" in line  # the leaders, and Alice to move
    assert "Player number 0…" in line and "long name" not in line  # names cut short
    assert len(line) < 200


def test_percentages_never_round_the_merely_likely_to_certain() -> None:
    assert percent(T, 0.614) == "61%"
    assert percent(T, 0.001) == "<1%" and percent(T, 0.9991) == ">99%"
    assert percent(T, 1.0) == "100%" and percent(T, 0.0) == "0%"


async def test_the_grandmaster_is_seated_from_the_lobby_and_plays(world: World) -> None:
    await world.command(ALICE, "start")
    lobby = await world.board()
    await world.press(lobby, ALICE, "ag")
    game = await world.game()
    (computer,) = [seat.player for seat in game.seats if seat.player.is_computer]
    assert computer.name == T("computer-grandmaster")
    world.roller.push([6, 6, 6, 6, 5, 1, 1, 1, 1, 2, *THROWS])  # Alice 29, the computer 6
    await world.press(lobby, ALICE, "b")
    await world.tables.clock.wake_computers(world.channel)
    for _ in range(500):  # the computer plays its turn by itself
        game = await world.game()
        if game.seats[game.current].player == ALICE:
            break
        await asyncio.sleep(0.01)
    assert game.phase is Phase.PLAYING
    played = next(seat for seat in game.seats if seat.player == computer)
    assert sum(score is not None for score in played.scores) == 1  # its turn, written
    assert game.seats[game.current].player == ALICE
    assert Level.GRANDMASTER.value in computer.id


async def test_a_hint_gives_each_choice_its_chance_to_win(world: World) -> None:
    await two_at_the_table(world)
    world.roller.push([6, 6, 6, 6, 5])
    await world.press(await world.board(), ALICE, "r")
    asked = await world.command(ALICE, "hint")
    (hint,) = asked.privately
    assert isinstance(hint, cards.Hint) and len(hint.shares) == len(hint.options)
    assert all(0 < share < 1 for share in hint.shares)
    lines = hint_lines(T, list(hint.options), hint.dice, shares=hint.shares)
    assert lines[0] == T("hint-title-chances") and lines[1].endswith("%")
    text, _ = alert(RU, hint)  # a press's answer holds 200 characters
    assert text is not None and text.startswith(RU("hint-title-chances")) and len(text) <= 200


def test_where_another_choice_wins_more_often_the_hint_names_it_first() -> None:
    safe = Choice(210.0, box=Box.SIXES, points=24)
    bold = Choice(205.5, keep=(6, 6, 6, 6))
    lines = hint_lines(T, [safe, bold], (6, 6, 6, 6, 5), shares=(0.41, 0.46))
    assert lines[1] == "To play for the win: keep 6-6-6-6 and roll (46%)."
    assert lines[2].startswith("1. write Sixes (24) → 210.0 · 41%")
    same = hint_lines(T, [safe, bold], (6, 6, 6, 6, 5), shares=(0.46, 0.41))
    assert not any("for the win" in line for line in same)
    assert hint_lines(RU, [safe, bold], (6, 6, 6, 6, 5), shares=(0.41, 0.46))[1].startswith(
        "Чтобы играть на победу: отложить 6-6-6-6"
    )
