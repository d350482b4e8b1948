"""A game whose end was saved but whose final message never went out (the process that ended it
died in between, or the platform refused the message) gets its final message at the table's
next start (which then opens nothing: its Rematch, or starting again, does) or press on its old
board, once; a restarted process knows it is owed."""

from __future__ import annotations

from pathlib import Path

from adapters.chat import cards
from adapters.chat.boards import FINAL_SHOWN
from core.boxes import Box
from core.events import BoxScored, EndReason
from core.table import Phase
from tests.chat.kit import ALICE, Message, PlatformDown, World, opened

THROW = (1, 2, 3, 4, 6)  # never five of a kind: the game runs its ten rounds


async def play_to_the_last_box(world: World) -> tuple[Message, str]:
    """A solo game up to its last turn's throw; that board and its last box's code."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    for box in list(Box)[:-1]:
        board = await world.board()
        world.roller.push(THROW)
        await world.press(board, ALICE, "r")
        await world.press(board, ALICE, f"s{box.index}")
    board = await world.board()
    world.roller.push(THROW)
    await world.press(board, ALICE, "r")
    return board, f"s{list(Box)[-1].index}"


def finals(world: World) -> list[cards.Final]:
    return [m.card for m in world.platform.messages if isinstance(m.card, cards.Final)]


async def test_a_final_message_lost_at_the_end_is_sent_by_the_next_start(tmp_path: Path) -> None:
    async with opened(tmp_path) as world:
        board, last = await play_to_the_last_box(world)
        world.platform.failing_sends.append(PlatformDown("the final message is lost"))
        await world.press(board, ALICE, last)
        assert await world.service.game(world.channel) is None  # the end is saved
        assert finals(world) == []
        ended = await world.repository.last_finished(world.channel)
        assert ended is not None
    async with opened(tmp_path) as again:  # a restarted process knows it is owed
        await again.command(ALICE, "start")
        (final,) = (m.card for m in again.platform.messages)  # the end first, no lobby yet
        assert isinstance(final, cards.Final)
        assert final.view.game_id == ended.id
        assert final.view.end_reason is EndReason.COMPLETED
        assert final.review  # the whole final message: how Alice played too
        assert any(isinstance(e, BoxScored) for e in final.view.events)  # its verdict's turn
        assert await again.service.game(again.channel) is None
        assert await again.repository.board(ended.id) == FINAL_SHOWN
        start = await again.command(ALICE, "start")
        (lobby,) = start.publicly
        assert isinstance(lobby, cards.Board) and lobby.view.phase is Phase.LOBBY
        assert len(finals(again)) == 1  # owed once


async def test_a_press_on_the_board_of_a_game_ended_unseen_sends_its_final(
    tmp_path: Path,
) -> None:
    async with opened(tmp_path) as world:
        board, last = await play_to_the_last_box(world)
        stale = world.pressing(board, ALICE)  # a second client, still showing the turn
        world.platform.failing_edits.append(PlatformDown("the board's edit is lost"))
        world.platform.failing_sends.append(PlatformDown("the final message is lost"))
        await world.press(board, ALICE, last)
        assert board.buttons and finals(world) == []  # nothing shows the game is over
        await world.send(stale, last)
        assert stale.said()  # told the game is over
        assert board.buttons == ()
        (final,) = finals(world)
        assert final.view.end_reason is EndReason.COMPLETED


async def test_a_final_message_sent_is_not_sent_again(tmp_path: Path) -> None:
    async with opened(tmp_path) as world:
        board, last = await play_to_the_last_box(world)
        await world.press(board, ALICE, last)
        assert len(finals(world)) == 1
        start = await world.command(ALICE, "start")
        assert [type(card) for card in start.publicly] == [cards.Board]
        assert len(finals(world)) == 1


async def test_a_final_message_lost_again_stays_owed(tmp_path: Path) -> None:
    async with opened(tmp_path) as world:
        board, last = await play_to_the_last_box(world)
        world.platform.failing_sends.append(PlatformDown("the final message is lost"))
        await world.press(board, ALICE, last)
        world.platform.failing_sends.append(PlatformDown("and lost again"))
        again = await world.command(ALICE, "start")
        assert again.troubles and finals(world) == []  # told the platform failed
        await world.command(ALICE, "start")
        (final,) = finals(world)
        assert final.view.end_reason is EndReason.COMPLETED
        assert await world.service.game(world.channel) is None  # the final first, no lobby
