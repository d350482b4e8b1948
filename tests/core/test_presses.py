"""Presses on a board the platform has not redrawn yet: judged against what the presser was
shown and their own presses since, so that the bot's delay never refuses a press of theirs."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Join, Open, Roll, Score, Start, ToggleHold
from core.boxes import Box
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError
from core.identity import ChannelKey, PlayerRef
from core.service import GameService
from tests.core.gamekit import ALICE, BOB

HERE = ChannelKey("test", "pressing")
LOT = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]  # Alice 6, Bob 29: Alice first
THROW = [2, 3, 4, 5, 6]


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[GameService]:
    repository = await SqliteRepository.open(tmp_path / "g.db")
    service = GameService(repository, ScriptedRoller([*LOT, *THROW, *THROW]))
    await service.act(HERE, ALICE, Open())
    await service.act(HERE, BOB, Join())
    await service.act(HERE, ALICE, Start())
    yield service
    await service.close()
    await repository.close()


async def thrown(service: GameService) -> int:
    """Alice throws; the version her board then shows."""
    return (await service.act(HERE, ALICE, Roll())).game.version


async def stale(service: GameService, action: object, version: int) -> None:
    with pytest.raises(GameError) as refused:
        await service.act(HERE, ALICE, action, version=version)  # type: ignore[arg-type]
    assert refused.value.code is ErrorCode.STALE


async def test_holds_on_a_board_not_yet_redrawn_all_count(service: GameService) -> None:
    shown = await thrown(service)
    for die in (0, 2, 4):
        await service.act(HERE, ALICE, ToggleHold(die), version=shown)
    game = await service.game(HERE)
    assert game is not None and game.turn.held == (True, False, True, False, True)
    rolled = await service.act(HERE, ALICE, Roll(), version=shown)  # with the holds she made
    assert [rolled.game.turn.dice[i] for i in (0, 2, 4)] == [2, 4, 6]
    assert rolled.game.turn.throws == 2


async def test_a_box_written_after_her_own_holds_counts(service: GameService) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, ToggleHold(1), version=shown)
    scored = await service.act(HERE, ALICE, Score(Box.STRAIGHT), version=shown)
    assert scored.game.seats[0].scores[Box.STRAIGHT.index] == 25


async def test_a_double_tap_on_one_die_counts_once(service: GameService) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, ToggleHold(3), version=shown)
    await stale(service, ToggleHold(3), shown)
    game = await service.game(HERE)
    assert game is not None and game.turn.held[3] is True


async def test_after_a_throw_she_has_not_seen_the_old_board_is_stale(
    service: GameService,
) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, Roll(), version=shown)  # new dice she has not seen
    await stale(service, ToggleHold(0), shown)
    await stale(service, Score(Box.ONES), shown)
    await stale(service, Roll(), shown)  # a double tap on Roll throws once


async def test_anyone_elses_move_in_between_makes_it_stale(service: GameService) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, Score(Box.STRAIGHT))
    await stale(service, ToggleHold(0), shown)  # the turn passed on


async def test_a_press_of_the_turn_before_is_stale_even_with_nothing_since(
    service: GameService,
) -> None:
    before = (await service.game(HERE)).version  # type: ignore[union-attr]
    shown = await thrown(service)
    assert shown == before + 1
    await stale(service, ToggleHold(0), before)  # pressed on the board before her throw


async def test_in_a_lobby_others_seating_does_not_make_a_press_stale(tmp_path: Path) -> None:
    repository = await SqliteRepository.open(tmp_path / "lobby.db")
    service = GameService(repository, ScriptedRoller(LOT))
    try:
        shown = (await service.act(HERE, ALICE, Open())).game.version
        await service.act(HERE, BOB, Join(), version=shown)
        carol = PlayerRef("c", "Carol")
        joined = await service.act(HERE, carol, Join(), version=shown)  # the lobby she saw
        assert [s.player.name for s in joined.game.seats] == ["Alice", "Bob", "Carol"]
        with pytest.raises(GameError) as twice:
            await service.act(HERE, carol, Join(), version=shown)  # her double tap
        assert twice.value.code is ErrorCode.STALE
    finally:
        await service.close()
        await repository.close()
