"""Boards that go missing: a send that failed is posted again ("repair"), a deleted live board is
sent anew, the stored reference follows; failures logged once; references and the drawn cache."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards
from adapters.chat.boards import BoardRef, Drawn
from adapters.chat.faults import Troubles
from adapters.chat.plan import Redraw
from core.table import Phase
from tests.chat.kit import ALICE, BOB, OTHER, NoRight, PlatformDown, T, World, opened, view_of


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


def warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [
        r.getMessage()
        for r in caplog.records
        if r.name == "tests.chat" and r.levelno == logging.WARNING
    ]


async def test_a_board_whose_send_failed_is_posted_at_the_next_command(world: World) -> None:
    """The lobby was saved though its board never arrived: the next action at the table posts
    it, once; commands away from the table (help) do not."""
    down = PlatformDown("timed out")
    world.platform.failing_sends.append(down)
    opening = await world.command(ALICE, "start")
    assert opening.troubles == [down] and world.platform.messages == []
    game = await world.game()
    assert await world.repository.board(game.id) == ""
    await world.command(BOB, "help")
    assert world.platform.messages == []
    joined = await world.command(BOB, "join")
    assert joined.publicly == [cards.Lines((T("event-joined", name="Bob"),))]
    board = await world.board()
    assert isinstance(board.card, cards.Board)
    assert [p.name for p in board.card.view.players] == ["Alice", "Bob"]
    await world.command(BOB, "sheet")
    assert len(world.platform.of(cards.Board)) == 1


async def test_a_board_lost_on_a_press_comes_back_at_the_next_command(world: World) -> None:
    """Beginning the game saved it, but its first turn's board failed to post: the next
    command at the table brings the turn board."""
    await world.command(ALICE, "start")
    lobby = await world.board()
    world.platform.failing_sends.append(PlatformDown("gateway"))
    begun = await world.press(lobby, ALICE, "b")
    assert begun.troubles and (await world.game()).phase is Phase.PLAYING
    assert len(world.platform.messages) == 1
    await world.command(ALICE, "sheet")
    board = await world.board()
    assert board is not lobby and isinstance(board.card, cards.Board)
    assert view_of(board.card).phase is Phase.PLAYING


async def test_starting_twice_posts_the_live_board_again(world: World) -> None:
    """`start` at a busy table says so and brings its board to the bottom; the old one is
    stripped of its buttons."""
    await world.command(ALICE, "start")
    old = await world.board()
    again = await world.command(BOB, "start")
    assert again.said() == [T("error-game-exists")]
    new = await world.board()
    assert new is not old and isinstance(new.card, cards.Board) and old.stripped


async def test_a_deleted_live_board_is_sent_again_and_followed(world: World) -> None:
    """Someone deleted the open lobby: the next redraw sends it anew and stores where."""
    await world.command(ALICE, "start")
    lobby = await world.board()
    lobby.deleted = True
    await world.command(BOB, "join")
    board = await world.board()
    assert board is not lobby
    assert isinstance(board.card, cards.Redrawn) and board.card.how is Redraw.LOBBY
    assert [p.name for p in board.card.view.players] == ["Alice", "Bob"]
    assert board.buttons  # still to be played with
    await world.command(BOB, "leave")
    assert await world.board() is board and len(board.card.view.players) == 1


async def test_a_deleted_board_without_buttons_is_not_sent_again(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A narration (the host stopped the game) has nothing to press: gone is gone."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    board = await world.board()
    board.deleted = True
    sent = len(world.platform.messages)
    stop = await world.command(ALICE, "stop")
    assert [type(card) for card in stop.publicly] == [cards.Final]
    assert len(world.platform.messages) == sent + 1
    assert any(r.getMessage().endswith("is gone") for r in caplog.records)


async def test_failures_are_logged_once_per_chat_and_kind(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A broken chat would fill the log otherwise; each new chat or kind is said once."""
    world.platform.failing_sends += [PlatformDown("a"), PlatformDown("b"), PlatformDown("c")]
    first = await world.command(ALICE, "review")
    await world.command(ALICE, "review")
    assert len(warnings(caplog)) == 1 and first.troubles
    await world.command(ALICE, "review", channel=OTHER)
    assert len(warnings(caplog)) == 2
    world.platform.failing_sends.append(NoRight("kicked out"))
    await world.command(ALICE, "review")
    said = warnings(caplog)
    assert len(said) == 3 and said[2].startswith("cannot write in channel -100")
    assert "testchat failed in tc:-200:" in said[1]


def test_troubles_tell_a_refusal_from_a_failure(caplog: pytest.LogCaptureFixture) -> None:
    """Where the bot may not write, the log says the game is kept (Telegram says "chat")."""
    troubles = Troubles(logging.getLogger("tests.chat"), "telegram", NoRight)
    troubles(OTHER, NoRight("blocked"))
    troubles(OTHER, NoRight("blocked again"))
    troubles(OTHER, PlatformDown("slow"))
    said = warnings(caplog)
    assert len(said) == 2
    assert said[0].startswith("cannot write in chat -200") and "kept" in said[0]
    assert said[1].startswith("telegram failed in")


def test_board_references_read_both_spellings() -> None:
    """Ours is {"chat", "message"}; earlier Discord versions wrote {"channel", "message"}."""
    ref = BoardRef("-100", "7")
    assert BoardRef.loads(ref.dumps()) == ref
    assert BoardRef.loads('{"channel": 55, "message": 9}') == BoardRef("55", "9")
    assert BoardRef.loads(None) is None and BoardRef.loads("") is None


@pytest.mark.parametrize(
    "garbage",
    ["not json", "[1, 2]", '{"chat": 1}', '{"message": 3}', '{"chat": "x", "message": 1}'],
)
def test_an_unreadable_reference_is_no_board(
    garbage: str, caplog: pytest.LogCaptureFixture
) -> None:
    """A broken reference means "post it again", with a warning, never a crash."""
    assert BoardRef.loads(garbage) is None
    assert any("unreadable board reference" in r.getMessage() for r in caplog.records)


def test_drawn_forgets_the_oldest_past_its_memory() -> None:
    """The cache stays bounded; using a board keeps it among the remembered."""
    drawn = Drawn(memory=2)
    first, second, third = BoardRef("1", "1"), BoardRef("1", "2"), BoardRef("1", "3")
    drawn.remember(first, 5)
    drawn.remember(second, 6)
    drawn.remember(first, 7)  # the first is the newest now
    drawn.remember(third, 1)
    assert drawn.shows(first, 7) and drawn.shows(third, 1)
    assert not drawn.shows(second, 6) and not drawn.shows(first, 5)


async def test_the_stored_reference_follows_a_pressed_live_board(world: World) -> None:
    """The store names another message (a crash kept it from following): the board pressed at
    the game's very version is the live one, and is redrawn and stored."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    board = await world.board()
    game = await world.game()
    await world.repository.set_board(game.id, BoardRef("-100", "999").dumps())
    world.roller.push((1, 2, 3, 4, 6))
    await world.press(board, ALICE, "r")
    assert await world.board() is board and board.edits == 1
    assert isinstance(board.card, cards.Redrawn) and board.card.how is Redraw.TURN
