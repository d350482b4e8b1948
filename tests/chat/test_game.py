"""Whole games through commands and presses, and the presses the board must refuse: the chat
layer's main path, on the recording platform over the real service."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards, payload, presses
from adapters.chat.plan import Redraw
from core.boxes import Box
from core.events import EndReason
from core.table import Phase
from tests.chat.kit import ALICE, BOB, Message, PlatformDown, T, World, how, opened, view_of

THROW = (1, 2, 3, 4, 6)  # never five of a kind, so no big general ends a game early
# What THROW writes in each box, in sheet order: only the faces count.
POINTS = (1, 2, 3, 4, 0, 6, 0, 0, 0, 0)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def started(world: World) -> Message:
    """Alice opens a table and begins it alone; her first turn's board."""
    await world.command(ALICE, "start")
    await world.press(await world.board(), ALICE, "b")
    return await world.board()


@pytest.mark.parametrize("updates", [False, True], ids=["edit", "type7"])
async def test_a_solo_game_is_played_to_its_final_message(world: World, updates: bool) -> None:
    """Start, begin, roll and score ten times: each turn on a board of its own, then the end."""
    opening = await world.command(ALICE, "start")
    (lobby_card,) = opening.publicly
    assert isinstance(lobby_card, cards.Board) and lobby_card.notify
    assert lobby_card.view.phase is Phase.LOBBY
    lobby = await world.board()
    begun = await world.press(lobby, ALICE, "b", updates=updates)
    assert isinstance(lobby.card, cards.Redrawn) and lobby.card.how is Redraw.LOBBY
    assert lobby.buttons == ()  # a closed lobby has nothing to press
    assert len(begun.updated) == (1 if updates else 0)
    for index, box in enumerate(Box):
        board = await world.board()
        assert isinstance(board.card, cards.Board) and board.card.notify
        assert view_of(board.card).round == index + 1
        world.roller.push(THROW)
        rolled = await world.press(board, ALICE, "r", updates=updates)
        assert how(board) is Redraw.TURN
        assert [d.value for d in view_of(board.card).dice] == list(THROW)
        assert rolled.updated == ([board.card] if updates else [])
        scored = await world.press(board, ALICE, f"s{box.index}")
        assert how(board) is Redraw.FINISHED_TURN and board.buttons == ()
        assert view_of(board.card).players[0].total == sum(POINTS[: index + 1])
        assert scored.privately == []
    final = scored.publicly[-1]
    assert isinstance(final, cards.Final)
    assert final.view.end_reason is EndReason.COMPLETED
    assert [p.name for p in final.view.winners] == ["Alice"]
    assert final.view.players[0].total == sum(POINTS)
    assert final.review and final.picture is None  # a text sheet: the chat did not ask for one
    assert await world.service.game(world.channel) is None
    assert len(world.platform.of(cards.Final)) == 1
    boards = [m for m in world.platform.messages if isinstance(m.card, cards.Redrawn)]
    assert len(boards) == 1 + len(POINTS)  # the lobby, then one board per turn
    assert world.roller.remaining == 0


async def test_after_the_game_its_records_and_review_are_told(world: World) -> None:
    """Statistics and the review read the finished game back from the store."""
    board = await started(world)
    for index in range(len(POINTS)):
        world.roller.push(THROW)
        await world.press(board, ALICE, "r")
        await world.press(board, ALICE, f"s{index}")
        board = await world.board() if index + 1 < len(POINTS) else board
    stats = await world.command(ALICE, "stats")
    (records,) = stats.publicly
    assert isinstance(records, cards.Records) and records.lines[0] == T("stats-title", name="Alice")
    review = await world.command(BOB, "review")
    (lines,) = review.publicly
    assert isinstance(lines, cards.Lines) and lines.lines[0] == T("review-title")


async def test_a_burst_of_stale_presses_changes_the_board_once(world: World) -> None:
    """Three clients show the same turn: the first press plays, the others are out of date and
    redraw nothing more (the board shows the game as it is already)."""
    board = await started(world)
    burst = [world.pressing(board, ALICE) for _ in range(3)]
    world.roller.push(THROW)
    for exchange in burst:
        await world.send(exchange, "r")
    assert board.edits == 1
    thrown = [T("error-stale-thrown", dice="1-2-3-4-6")]  # what changed since their board
    assert [e.said() for e in burst] == [[], thrown, thrown]
    assert world.roller.remaining == 0 and (await world.game()).turn.throws == 1


async def test_a_stale_press_redraws_a_board_that_missed_an_edit_once(world: World) -> None:
    """The roll's edit failed, so the board shows the turn before it: the next stale presses
    bring it up to date, once, and each is told it was out of date."""
    board = await started(world)
    burst = [world.pressing(board, ALICE) for _ in range(4)]
    world.platform.failing_edits.append(PlatformDown("edit lost"))
    world.roller.push(THROW)
    await world.send(burst[0], "r")
    assert board.edits == 0  # the roll is saved; its edit was lost (and logged once)
    for exchange in burst[1:]:
        await world.send(exchange, "r")  # the only button the board showed
        assert exchange.said() == [T("error-stale-thrown", dice="1-2-3-4-6")]
    assert board.edits == 1
    assert isinstance(board.card, cards.Board)
    assert [d.value for d in board.card.view.dice] == list(THROW)
    assert (await world.game()).turn.throws == 1  # no stale throw was applied


async def test_a_press_by_someone_else_is_refused_and_changes_nothing(world: World) -> None:
    """Only the player whose turn it is plays it; others are told whose turn it is."""
    board = await started(world)
    before = await world.game()
    world.roller.push(THROW)
    sent = len(world.platform.messages)
    bob = await world.press(board, BOB, "r")
    assert bob.said() == [T("error-not-your-turn", player="Alice")]
    assert await world.game() == before
    assert board.edits == 0 and len(world.platform.messages) == sent
    assert world.roller.remaining == len(THROW)


async def test_only_the_host_begins_the_table(world: World) -> None:
    """A seated guest pressing "begin" is told only the host may."""
    await world.command(ALICE, "start")
    await world.command(BOB, "join")
    lobby = await world.board()
    bob = await world.press(lobby, BOB, "b")
    assert bob.said() == [T("error-not-host", host="Alice")]
    assert (await world.game()).phase is Phase.LOBBY


async def test_hint_and_sheet_buttons_answer_the_presser(world: World) -> None:
    """The hint is private; the sheet is private where whole messages can be, else public."""
    board = await started(world)
    world.roller.push(THROW)
    await world.press(board, ALICE, "r")
    hint = await world.press(board, ALICE, "t")
    (card,) = hint.privately
    assert isinstance(card, cards.Hint) and card.dice == THROW and card.options
    shown = await world.press(board, ALICE, "v")
    assert shown.privately == [] and isinstance(shown.publicly[0], cards.Sheet)
    whispered = await world.press(board, BOB, "v", whispers=True)
    assert whispered.publicly == [] and isinstance(whispered.privately[0], cards.Sheet)


async def test_the_sheet_is_posted_once_per_turn_and_by_players_only(world: World) -> None:
    """Asked again and again, the chat gets one sheet a turn (the sheet changes only when a
    turn ends); an outsider none."""
    board = await started(world)
    world.roller.push(THROW)
    await world.press(board, ALICE, "r")
    first = await world.press(board, ALICE, "v")
    assert isinstance(first.publicly[0], cards.Sheet)
    for _ in range(5):
        again = await world.press(board, ALICE, "v")
        assert again.publicly == [] and again.said() == [T("sheet-above")]
        typed = await world.command(ALICE, "sheet")
        assert typed.publicly == [] and typed.said() == [T("sheet-above")]
    outsider = await world.press(board, BOB, "v")
    assert outsider.publicly == [] and outsider.said() == [T("sheet-for-players")]
    asked = await world.command(BOB, "sheet", whispers=True)
    assert asked.publicly == [] and isinstance(asked.privately[0], cards.Sheet)
    await world.press(board, ALICE, "h0")  # the same sheet: nothing new to post
    held = await world.press(board, ALICE, "v")
    assert held.publicly == [] and held.said() == [T("sheet-above")]
    scored = await world.press(board, ALICE, "s0")  # the turn ends: a new sheet may be posted
    assert scored.said() == []
    later = await world.press(await world.board(), ALICE, "v")
    assert isinstance(later.publicly[0], cards.Sheet)
    assert len(world.platform.of(cards.Sheet)) == 2


async def test_the_sheet_button_goes_to_the_pressers_private_chat_where_it_may(
    world: World,
) -> None:
    """On Telegram a 📋 press is answered in the presser's private chat with the bot, when
    they opened it: nothing is posted in the group, whose minute is scarce."""
    board = await started(world)
    world.roller.push(THROW)
    await world.press(board, ALICE, "r")
    for _ in range(3):
        alone = await world.press(board, ALICE, "v", dm=True)
        assert alone.publicly == [] and isinstance(alone.directly[0], cards.Sheet)
    outsider = await world.press(board, BOB, "v", dm=True)
    assert outsider.directly == [] and outsider.said() == [T("sheet-for-players")]
    assert world.platform.of(cards.Sheet) == []


async def test_a_press_on_a_board_of_a_finished_game_strips_it(world: World) -> None:
    """The host stopped the game; a client still showing its buttons is told it is over."""
    board = await started(world)
    late = world.pressing(board, ALICE)
    stop = await world.command(ALICE, "stop")
    assert isinstance(stop.publicly[-1], cards.Final)
    assert board.stripped and isinstance(board.card, cards.Board)  # the final says why
    world.roller.push(THROW)
    await world.send(late, "r")
    assert late.said() == [T("error-game-over")]
    assert board.stripped and world.roller.remaining == len(THROW)


async def test_a_computer_plays_its_turn_and_the_platform_shows_it(world: World) -> None:
    """After Alice's turn the computer plays by itself; its moves are posted by the platform
    (no exchange), ending in Alice's next board."""
    await world.command(ALICE, "start")
    lobby = await world.board()
    await world.press(lobby, ALICE, "an")
    world.roller.push((1, 1, 1, 1, 2, 6, 6, 6, 6, 5))  # the lot: Alice throws lowest, begins
    await world.press(lobby, ALICE, "b")
    board = await world.board()
    assert view_of(board.card).current.name == "Alice"  # type: ignore[union-attr]
    world.roller.push(THROW * 4)
    await world.press(board, ALICE, "r")
    await world.press(board, ALICE, "s0")
    for _ in range(500):  # until Alice's new board is shown (her turn is saved a moment before)
        game = await world.game()
        mine = await world.board()
        if game.round == 2 and isinstance(mine.card, cards.Board):
            break
        await asyncio.sleep(0.01)
    assert game.round == 2 and game.seats[game.current].player == ALICE
    assert isinstance(mine.card, cards.Board) and mine.card.notify
    assert view_of(mine.card).current.name == "Alice"  # type: ignore[union-attr]
    computers = [m for m in world.platform.messages if m.id > board.id and m is not mine]
    assert computers and all(m.channel == world.channel for m in computers)


async def test_a_stale_press_on_an_earlier_turns_board_strips_it(world: World) -> None:
    """A client still shows the first turn's buttons: that board is not the live one, so it only
    loses them, and the live board is left alone."""
    first = await started(world)
    late = world.pressing(first, ALICE)
    world.roller.push(THROW)
    await world.press(first, ALICE, "r")
    await world.press(first, ALICE, "s0")
    live = await world.board()
    edits = live.edits
    world.roller.push(THROW)
    await world.send(late, "r")
    assert late.said() == [T("error-stale-new-turn", round=2)]
    assert first.stripped and live.edits == edits and world.roller.remaining == len(THROW)


async def test_a_throw_with_all_five_held_is_refused_and_changes_nothing(world: World) -> None:
    board = await started(world)
    world.roller.push(THROW)
    await world.press(board, ALICE, "r")
    for die in range(5):
        await world.press(board, ALICE, f"h{die}")
    before = await world.game()
    refused = await world.press(board, ALICE, "r")
    assert refused.said() == [T("error-all-held")]
    after = await world.game()
    assert (after.version, after.turn) == (before.version, before.turn)
    assert world.roller.remaining == 0  # no die was thrown


async def test_a_payload_forged_onto_another_message_never_makes_it_the_board(
    world: World,
) -> None:
    """A message with one button of this game (a hint offer) pressed with a forged Roll: the
    throw is Alice's own and counts, but only the stored board is redrawn."""
    board = await started(world)
    game = await world.game()
    offer_id = await world.platform.send(
        world.channel, cards.Hint((), (), game.id, game.version), T
    )
    (offer,) = [m for m in world.platform.messages if str(m.id) == offer_id]
    forged = world.pressing(offer, ALICE)
    world.roller.push(THROW)
    await presses.press(world.tables, forged, payload.encode(game.id, game.version, "r"))
    await world.tables.redraws.idle()
    assert (await world.game()).turn.throws == 1
    assert await world.board() is board and how(board) is Redraw.TURN
    assert isinstance(offer.card, cards.Hint) and offer.edits == 0


async def test_a_game_that_cannot_be_restored_is_said_so_and_a_new_one_opens(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    async with opened(tmp_path) as before:
        await started(before)
    with sqlite3.connect(tmp_path / "g.db") as db:  # damage the stored game: no $.turn
        db.execute("UPDATE games SET snapshot = json_remove(snapshot, '$.turn')")
    async with opened(tmp_path) as after:
        asked = await after.command(ALICE, "stop")
        assert asked.said() == [T("error-game-lost")]
        (logged,) = [r for r in caplog.records if r.levelname == "ERROR"]
        assert "quarantined" in logged.getMessage()  # logged once, as the storage promises
        caplog.clear()
        await after.command(ALICE, "start")
        assert (await after.game()).phase is Phase.LOBBY
        asked = await after.command(BOB, "leave")
        assert asked.said() == [T("error-not-seated")]


async def test_every_press_is_answered_with_what_it_did(world: World) -> None:
    """The toast says it at once, while a busy group's board may show it only a slot later:
    the dice thrown, the dice kept and thrown next, the points written."""
    board = await started(world)
    world.roller.push(THROW)
    rolled = await world.press(board, ALICE, "r")
    assert rolled.notes == [T("toast-rolled", dice="-".join(map(str, THROW)))]
    kept = await world.press(board, ALICE, "h0")
    free = "-".join(map(str, THROW[1:]))
    assert kept.notes == [T("toast-held", held=str(THROW[0]), free=free)]
    released = await world.press(board, ALICE, "h0")
    assert released.notes == [T("toast-held-none")]
    for die in range(5):
        last = await world.press(board, ALICE, f"h{die}")
    assert last.notes == [T("toast-held-all")]
