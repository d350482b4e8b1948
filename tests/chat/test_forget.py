"""/general forget on the recording platform: the confirmation for the asker's eyes in their
language, the press that forgets them (and seats them out of the table, which is shown going
on), refusals of anyone else's press and of a forged payload, a double tap that does no harm."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.chat import cards, payload, presses
from adapters.i18n import translator
from core.forget import ANONYMOUS_PREFIX
from tests.chat.kit import ALICE, BOB, Message, T, World, opened

YES, NO = payload.forget_code(BOB.id, True), payload.forget_code(BOB.id, False)


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[World]:
    async with opened(tmp_path) as fresh:
        yield fresh


async def confirmation(world: World, locale: str | None = None) -> Message:
    """Bob's /general forget, answered privately, as the message he then presses."""
    asked = await world.command(BOB, "forget", locale=locale)
    assert asked.privately == [cards.Forget(BOB.id)]
    assert asked.private_languages == [locale or "en"] and asked.publicly == []
    await world.platform.send(world.channel, asked.privately[0], T)
    return world.platform.messages[-1]


async def seated(world: World) -> None:
    await world.command(ALICE, "start")
    await world.command(BOB, "join")


@pytest.mark.parametrize("locale", ["en", "ru"])
async def test_forget_me_seats_them_out_and_says_so_in_their_language(
    world: World, locale: str
) -> None:
    await seated(world)
    message = await confirmation(world, locale)
    before = len(world.platform.messages)
    press = world.pressing(message, BOB, locale=locale)
    await presses.press(world.tables, press, YES)
    await world.tables.redraws.idle()
    done = translator(locale)("forget-done")
    assert press.notes == [done] and press.redrawn == [cards.Lines((done,))]
    assert press.private_languages == [] and not press.failed
    game = await world.game()
    assert [seat.player for seat in game.seats] == [ALICE]
    # The table is told, in its own language, that an anonymous player left; its lobby redrawn.
    (said,) = [m.card for m in world.platform.messages[before:] if isinstance(m.card, cards.Lines)]
    assert ANONYMOUS_PREFIX in said.lines[0] and "Bob" not in said.lines[0]
    lobby = await world.board()
    assert lobby.edits >= 1 and "Bob" not in repr(lobby.card)


async def test_keep_me_changes_nothing(world: World) -> None:
    await seated(world)
    message = await confirmation(world)
    press = world.pressing(message, BOB)
    await presses.press(world.tables, press, NO)
    assert press.redrawn == [cards.Lines((T("forget-kept"),))]
    assert BOB in [seat.player for seat in (await world.game()).seats]


async def test_a_press_by_anyone_else_is_refused_privately(world: World) -> None:
    await seated(world)
    message = await confirmation(world)
    for code in (YES, NO):
        alice = world.pressing(message, ALICE, locale="ru")
        await presses.press(world.tables, alice, code)
        assert alice.said() == [translator("ru")("forget-not-yours")] and alice.redrawn == []
    assert BOB in [seat.player for seat in (await world.game()).seats]


@pytest.mark.parametrize(
    "data",
    [
        payload.forget_code(BOB.id, True),
        "fgt|22|q",
        "fgt|22",
        "fgt|abc|y",
        "fgt|" + "1" * 21 + "|y",
    ],
)
async def test_a_forged_payload_is_refused(world: World, data: str) -> None:
    """On a board (which shows no such button), or not our payload at all: nothing happens."""
    await seated(world)
    forged = world.pressing(await world.board(), BOB)
    await presses.press(world.tables, forged, data)
    assert forged.said() == [T("error-bad-action")] and forged.redrawn == []
    assert BOB in [seat.player for seat in (await world.game()).seats]


async def test_a_double_tap_forgets_once(world: World) -> None:
    await seated(world)
    message = await confirmation(world)
    first, second = world.pressing(message, BOB), world.pressing(message, BOB)
    await presses.press(world.tables, first, YES)
    await presses.press(world.tables, second, YES)
    await world.tables.redraws.idle()
    assert first.notes == [T("forget-done")]
    assert second.notes == [T("forget-nothing")] and not second.failed
    game = await world.game()
    assert [seat.player for seat in game.seats] == [ALICE]


async def test_a_game_being_played_goes_on_without_them(world: World) -> None:
    """His seat stays on the sheet under the anonymous name; the board shows the version the
    table is at, so the next press on it counts."""
    await seated(world)
    world.roller.push([1, 1, 1, 1, 1, 2, 2, 2, 2, 2])  # the lot: Alice starts
    await world.press(await world.board(), ALICE, "b")
    message = await confirmation(world)
    await presses.press(world.tables, world.pressing(message, BOB), YES)
    await world.tables.redraws.idle()
    game = await world.game()
    assert game.seat_of(BOB.id) is None and [s.active for s in game.seats] == [True, False]
    assert game.seats[1].player.name.startswith(ANONYMOUS_PREFIX)
    board = await world.board()
    assert "Bob" not in repr(board.card)
    world.roller.push([3, 3, 3, 4, 5])
    rolled = await world.press(board, ALICE, "r")
    assert rolled.said() == [] and (await world.game()).turn.throws == 1
