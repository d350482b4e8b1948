"""Two bot processes on one PostgreSQL store run the same tournament: both look at it all the
time and the people's presses go to either, yet each thread is made once, each table opened
once, and each round's news said once."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
from collections.abc import AsyncIterator

import pytest

from adapters.chat import cards
from adapters.chat.boards import BoardRef
from adapters.chat.tables import Tables
from adapters.postgres import PostgresRepository
from adapters.ratelimit import RateLimiter
from core.dice import SecureRoller
from core.service import GameService
from core.tournament import EventPhase
from tests.chat.kit import ALICE, BOB, RecordingPlatform, World
from tests.chat.test_tournament import press, seeds, the_event
from tests.conftest import needs_postgres

pytestmark = needs_postgres


@pytest.fixture
async def worlds(postgres_url: str) -> AsyncIterator[tuple[World, World]]:
    platform, made = RecordingPlatform(), []
    try:
        for _ in range(2):
            repository = await PostgresRepository.open(postgres_url)
            service = GameService(repository, SecureRoller(), seeds=seeds)
            log = logging.getLogger("tests.chat")
            tables = Tables(service, platform, log, pause=0, limiter=RateLimiter(10_000, 10_000))
            made.append(World(service, repository, platform, tables, None))  # type: ignore[arg-type]
        yield made[0], made[1]
    finally:
        for world in made:
            await world.tables.director.stop()
            await world.service.close()
            await world.repository.close()


async def looking(worlds: tuple[World, World]) -> None:
    """Both processes look at every event, over and over (as their ticks would, faster)."""
    while True:
        await asyncio.gather(*(world.tables.director.tick() for world in worlds))
        await asyncio.sleep(0.02)


async def test_two_processes_run_one_tournament_and_do_each_thing_once(
    worlds: tuple[World, World],
) -> None:
    one, other = worlds
    await one.command(ALICE, "tournament", admin=True)
    await press(other, BOB, "j")
    await press(one, ALICE, "am")
    await press(other, ALICE, "am")
    await press(one, ALICE, "cformat")  # round robin
    for _ in range(3):
        await press(other, ALICE, "csize")  # tables of two
    await press(one, ALICE, "b")
    looker = asyncio.create_task(looking(worlds))
    turns = itertools.cycle(worlds)
    try:
        async with asyncio.timeout(60):
            while True:
                event = await the_event(one)
                if event.phase is EventPhase.FINISHED and event.told == len(event.rounds):
                    break
                for game in await one.service.active_games("tc"):
                    seat = game.current_seat
                    if seat is None or seat.player.is_computer:
                        continue
                    person = ALICE if seat.player.id == ALICE.id else BOB
                    ref = BoardRef.loads(await one.repository.board(game.id))
                    board = one.platform.find(ref) if ref else None
                    if board is None:
                        continue
                    world = next(turns)  # each press to either process
                    if game.turn.throws == 0:
                        await world.press(board, person, "r")
                    else:
                        view = await world.service.view(game.channel, person.id)
                        if view is not None and view.options:
                            await world.press(board, person, f"s{view.options[0].box.index}")
                await asyncio.sleep(0.01)
            # The end is claimed before it is said: the looks carry on until it has been.
            for _ in itertools.count():
                if one.platform.of(cards.Review):
                    break
                await asyncio.sleep(0.01)
        for world in worlds:
            await world.tables.director.idle()
    finally:
        looker.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await looker
    platform = one.platform
    assert len(platform.opened) == 6  # a thread for each table of the three rounds, once
    said = [line for m in platform.messages if isinstance(m.card, cards.Lines)
            for line in m.card.lines]  # fmt: skip
    for n in (1, 2, 3):
        assert sum(line.startswith(f"🏆 Round {n} of 3 begins") for line in said) == 1, n
        assert sum(line == f"🏁 Round {n} is over." for line in said) == 1, n
    finals = [m for m in platform.messages if isinstance(m.card, cards.Review)]
    assert len(finals) == 1
    for round_ in event.rounds:
        for table in round_.tables:
            assert len(table.placings) == 2
