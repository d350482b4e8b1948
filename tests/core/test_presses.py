"""Presses on a board the platform has not redrawn yet: judged by what they ask on the board the
presser saw (core.presses' table, a test per rule), so that the bot's delay, a reminder or
others' seating never refuses a press that still means the same, and a refusal says what
changed."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Action, AddComputer, Join, Leave, Open, Roll, Score, Start, ToggleHold
from core.boxes import Box
from core.dice import ScriptedRoller
from core.errors import ErrorCode, GameError, Stale
from core.events import TurnStarted
from core.identity import ChannelKey, PlayerRef
from core.levels import Level
from core.outcome import Outcome
from core.rules import Variants
from core.service import GameService
from tests.core.gamekit import ALICE, BOB, CAROL

HERE = ChannelKey("test", "pressing")
LOT = [1, 1, 1, 1, 2, 6, 6, 6, 6, 5]  # Alice 6, Bob 29: Alice first
THROW = [2, 3, 4, 5, 6]


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = await SqliteRepository.open(tmp_path / "g.db")
    yield repository
    await repository.close()


@pytest.fixture
async def service(repository: SqliteRepository) -> AsyncIterator[GameService]:
    service = GameService(repository, ScriptedRoller([*LOT, *THROW, *THROW]))
    await service.act(HERE, ALICE, Open())
    await service.act(HERE, BOB, Join())
    await service.act(HERE, ALICE, Start())
    yield service
    await service.close()


async def thrown(service: GameService) -> int:
    """Alice throws; the version her board then shows."""
    return (await service.act(HERE, ALICE, Roll())).game.version


async def refused(
    service: GameService, action: Action, version: int, player: PlayerRef = ALICE
) -> GameError:
    """The press is refused as out of date and changes nothing; the refusal."""
    before = await service.game(HERE)
    with pytest.raises(GameError) as refusal:
        await service.act(HERE, player, action, version=version)
    assert refusal.value.code is ErrorCode.STALE
    assert await service.game(HERE) == before
    return refusal.value


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
    assert (await refused(service, ToggleHold(3), shown)).detail is Stale.HELD
    game = await service.game(HERE)
    assert game is not None and game.turn.held[3] is True


async def test_a_double_tap_releasing_a_die_releases_it_once(service: GameService) -> None:
    await thrown(service)
    shown = (await service.act(HERE, ALICE, ToggleHold(2))).game.version  # the 4 held
    await service.act(HERE, ALICE, ToggleHold(2), version=shown)  # released
    assert (await refused(service, ToggleHold(2), shown)).detail is Stale.RELEASED


async def test_after_a_throw_she_has_not_seen_the_old_board_is_stale(
    service: GameService,
) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, Roll(), version=shown)  # new dice she has not seen
    for action in (ToggleHold(0), Score(Box.ONES), Roll()):  # Roll: a double tap throws once
        refusal = await refused(service, action, shown)
        assert (refusal.detail, refusal.params) == (Stale.THROWN, {"dice": tuple(THROW)})


async def test_the_turn_passing_makes_it_stale_saying_whose_turn_it_is(
    service: GameService,
) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, Score(Box.STRAIGHT))
    refusal = await refused(service, ToggleHold(0), shown)
    assert (refusal.detail, refusal.params) == (Stale.TURN_PASSED, {"player": "Bob"})
    refusal = await refused(service, Score(Box.STRAIGHT), shown)  # a double tap on a box
    assert refusal.detail is Stale.TURN_PASSED


async def test_a_board_of_her_own_earlier_turn_is_stale_saying_a_new_one_began(
    repository: SqliteRepository,
) -> None:
    service = GameService(repository, ScriptedRoller([*THROW, *THROW]))
    try:
        await service.act(HERE, ALICE, Open())
        await service.act(HERE, ALICE, Start())  # alone: every turn is hers
        shown = (await service.act(HERE, ALICE, Roll())).game.version
        await service.act(HERE, ALICE, Score(Box.STRAIGHT), version=shown)
        refusal = await refused(service, Roll(), shown)
        assert (refusal.detail, refusal.params) == (Stale.NEW_TURN, {"round": 2})
    finally:
        await service.close()


async def test_a_press_of_the_turn_before_a_throw_is_stale_even_with_nothing_since(
    service: GameService,
) -> None:
    before = (await service.game(HERE)).version  # type: ignore[union-attr]
    shown = await thrown(service)
    assert shown == before + 1
    assert (await refused(service, ToggleHold(0), before)).detail is Stale.THROWN


async def test_someone_else_leaving_mid_turn_changes_nothing_of_hers(
    repository: SqliteRepository,
) -> None:
    service = GameService(repository, ScriptedRoller([1, 1, 1, 1, 2, *[6, 6, 6, 6, 5] * 2, *THROW]))
    try:
        await service.act(HERE, ALICE, Open())
        for player in (BOB, CAROL):
            await service.act(HERE, player, Join())
        await service.act(HERE, ALICE, Start())
        shown = (await service.act(HERE, ALICE, Roll())).game.version
        await service.act(HERE, CAROL, Leave())
        held = await service.act(HERE, ALICE, ToggleHold(4), version=shown)
        assert held.game.turn.held[4] and not held.game.seats[2].active
    finally:
        await service.close()


async def test_someone_else_pressing_an_old_board_is_told_whose_turn_it_is(
    service: GameService,
) -> None:
    shown = await thrown(service)
    await service.act(HERE, ALICE, ToggleHold(0), version=shown)
    with pytest.raises(GameError) as refusal:
        await service.act(HERE, BOB, Roll(), version=shown)  # the same turn: the rules judge
    assert refusal.value.code is ErrorCode.NOT_YOUR_TURN


async def test_a_reminder_in_between_changes_nothing(repository: SqliteRepository) -> None:
    """Issue 29: the half-time reminder moved the version on, and the board Alice was looking
    at was out of date; a hold on it is carried out."""
    clock = [1000.0]
    service = GameService(repository, ScriptedRoller([*LOT, *THROW]), clock=lambda: clock[0])
    reminded = asyncio.Event()

    async def publish(channel: ChannelKey, outcome: Outcome) -> None:
        reminded.set()

    service.on_deadline(HERE.platform, publish)
    try:
        await service.act(HERE, ALICE, Open(Variants(turn_timer=600)))
        await service.act(HERE, BOB, Join())
        await service.act(HERE, ALICE, Start())
        shown = (await service.act(HERE, ALICE, Roll())).game.version
        clock[0] += 301  # past half her time
        await service.resume_deadlines(HERE.platform)  # the clock is looked at again: due now
        await asyncio.wait_for(reminded.wait(), 10)
        game = await service.game(HERE)
        assert game is not None and game.version == shown + 1 and game.turn.reminded
        held = await service.act(HERE, ALICE, ToggleHold(0), version=shown)
        assert held.game.turn.held[0]
    finally:
        await service.close()


async def test_a_reminder_on_a_turn_the_clock_began_changes_nothing(
    repository: SqliteRepository,
) -> None:
    """Bob's turn began when Alice's time ran out, on a board the bot drew by itself; his
    reminder came before he pressed anything: a throw on that first board is carried out."""
    clock = [1000.0]
    dice = [*LOT, *THROW * 4]  # enough for any turn the Club plays for Alice, then Bob's
    service = GameService(repository, ScriptedRoller(dice), clock=lambda: clock[0])
    seen: list[Outcome] = []
    published = asyncio.Event()

    async def publish(channel: ChannelKey, outcome: Outcome) -> None:
        seen.append(outcome)
        published.set()

    service.on_deadline(HERE.platform, publish)
    try:
        await service.act(HERE, ALICE, Open(Variants(turn_timer=600)))
        await service.act(HERE, BOB, Join())
        await service.act(HERE, ALICE, Start())
        for step in (301, 300, 301):  # Alice reminded; her time up; Bob reminded
            published.clear()
            clock[0] += step
            await service.resume_deadlines(HERE.platform)
            await asyncio.wait_for(published.wait(), 10)
        expired, reminder = seen[1], seen[2]
        assert any(isinstance(e, TurnStarted) for e in expired.events)
        assert reminder.game.version == expired.game.version + 1
        rolled = await service.act(HERE, BOB, Roll(), version=expired.game.version)
        assert rolled.game.turn.throws == 1 and rolled.game.current == 1
    finally:
        await service.close()


async def test_a_board_this_process_never_knew_is_stale_as_before(
    repository: SqliteRepository, service: GameService
) -> None:
    """Another process (shared storage) drew the board: what it showed is not known here."""
    shown = await thrown(service)
    await service.act(HERE, ALICE, ToggleHold(0), version=shown)
    other = GameService(repository, ScriptedRoller())
    try:
        refusal = await refused(other, ToggleHold(1), shown)
        assert refusal.detail is None  # plain "out of date": nothing is known of that board
    finally:
        await other.close()


@pytest.fixture
async def lobby(repository: SqliteRepository) -> AsyncIterator[tuple[GameService, int]]:
    """Alice's open table and the version of its first board."""
    service = GameService(repository, ScriptedRoller(LOT))
    shown = (await service.act(HERE, ALICE, Open())).game.version
    yield service, shown
    await service.close()


async def test_in_a_lobby_others_seating_does_not_make_a_press_stale(
    lobby: tuple[GameService, int],
) -> None:
    service, shown = lobby
    seated = (await service.act(HERE, BOB, Join(), version=shown)).game.version
    club = AddComputer(Level.CLUB, "Club")
    await service.act(HERE, ALICE, club, version=shown)
    joined = await service.act(HERE, CAROL, Join(), version=shown)  # the lobby she saw
    assert [s.player.name for s in joined.game.seats] == ["Alice", "Bob", "Club", "Carol"]
    assert (await refused(service, Join(), shown, CAROL)).detail is Stale.REPEATED  # twice
    left = await service.act(HERE, BOB, Leave(), version=seated)  # the lobby he saw, seated
    assert [s.player.name for s in left.game.seats] == ["Alice", "Club", "Carol"]
    assert (await refused(service, Leave(), seated, BOB)).detail is Stale.REPEATED


async def test_a_double_tap_adding_a_computer_adds_one(lobby: tuple[GameService, int]) -> None:
    service, shown = lobby
    await service.act(HERE, ALICE, AddComputer(Level.CLUB, "Club"), version=shown)
    refusal = await refused(service, AddComputer(Level.CLUB, "Club"), shown)
    assert refusal.detail is Stale.REPEATED
    master = await service.act(HERE, ALICE, AddComputer(Level.MASTER, "Master"), version=shown)
    assert [s.player.name for s in master.game.seats] == ["Alice", "Club", "Master"]


async def test_a_lobby_press_after_the_start_is_stale_saying_it_began(
    lobby: tuple[GameService, int],
) -> None:
    service, shown = lobby
    await service.act(HERE, BOB, Join(), version=shown)
    await service.act(HERE, ALICE, Start(), version=shown)
    assert (await refused(service, Join(), shown, CAROL)).detail is Stale.STARTED
    assert (await refused(service, Start(), shown)).detail is Stale.STARTED  # a double tap
