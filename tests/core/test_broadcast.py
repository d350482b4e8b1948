"""Watchers of a channel: each its own queue, in order, never holding the table up."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.sqlite import SqliteRepository
from core.actions import Join, Open, Roll, Start
from core.broadcast import Broadcast
from core.dice import ScriptedRoller
from core.identity import ChannelKey, PlayerRef
from core.outcome import Outcome
from core.service import GameService

HERE, THERE = ChannelKey("tg", "1"), ChannelKey("tg", "2")
ANN, BOB = PlayerRef("1", "Ann"), PlayerRef("2", "Bob")


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repository = await SqliteRepository.open(tmp_path / "games.db")
    yield repository
    await repository.close()


async def test_each_watcher_gets_its_channels_outcomes_as_a_spectator(
    repository: SqliteRepository,
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    here, anywhere, there = service.watch(HERE), service.watch(), service.watch(THERE)
    await service.act(HERE, ANN, Open())
    await service.act(THERE, BOB, Open())
    joined = await service.act(HERE, BOB, Join())
    assert joined.view.viewer_id == BOB.id  # the actor's own view is the caller's
    here.close()
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    await service.act(HERE, ANN, Start())
    assert [o.game.version for o in here.pending()] == [1, 2]
    assert [(o.game.channel.chat, o.game.version) for o in anywhere.pending()] == [
        ("1", 1),
        ("2", 1),
        ("1", 2),
        ("1", 3),
    ]
    (opened,) = there.pending()
    assert opened.view.viewer_id is None and opened.game.channel == THERE
    await service.close()


async def test_a_watcher_that_stops_reading_loses_its_oldest_not_the_table(
    repository: SqliteRepository,
) -> None:
    roller = ScriptedRoller()
    service = GameService(repository, roller)
    await service.act(HERE, ANN, Open())
    await service.act(HERE, BOB, Join())
    roller.push([1, 1, 1, 1, 2, 6, 6, 6, 6, 5])
    await service.act(HERE, ANN, Start())
    broadcast = Broadcast()
    slow = broadcast.watch(HERE, limit=2)
    for _ in range(3):
        roller.push([6, 6, 6, 5, 5])
        broadcast.offer(await service.act(HERE, ANN, Roll()))
    kept: list[Outcome] = [await slow.next(), await slow.next()]
    assert [o.game.version for o in kept] == [5, 6] and slow.missed == 1
    await service.close()


def test_only_the_watched_channels_are_wanted_from_other_processes() -> None:
    broadcast = Broadcast()
    assert not broadcast.wanted(str(HERE))
    here = broadcast.watch(HERE)
    assert broadcast.wanted(str(HERE)) and not broadcast.wanted(str(THERE))
    here.close()
    assert not broadcast.wanted(str(HERE))
    broadcast.watch()  # every channel
    assert broadcast.wanted(str(THERE))


async def test_a_closed_watcher_leaves_the_others_of_its_channel(
    repository: SqliteRepository,
) -> None:
    service = GameService(repository, ScriptedRoller())
    first, second = service.watch(HERE), service.watch(HERE)
    first.close()
    first.close()  # twice: nothing more
    await service.act(HERE, ANN, Open())
    assert first.pending() == [] and [o.game.version for o in second.pending()] == [1]
    second.close()
    await service.act(HERE, BOB, Join())
    assert second.pending() == []
    await service.close()
